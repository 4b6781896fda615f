// The `streamroute` command on a real pseudo-terminal (test/support/pty-bridge.py, python3's pty module),
// so a test types keys — Tab, arrows, Ctrl-C — and reads what the terminal shows, escape sequences
// included: the shell's readline and `top`'s screen run exactly as for a person.
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import type { Writable } from 'node:stream';
import { requirePeer, runs } from './peers.js';

const ROOT = join(import.meta.dirname, '..', '..');
const BRIDGE = join(import.meta.dirname, 'pty-bridge.py');
const CLI = join(ROOT, 'operator', 'cli', 'main.ts');

/** For a before() hook: python3 runs the bridge (else skip, or fail in CI). */
export function requirePty(ctx: Pick<Mocha.Context, 'skip'>): void {
  requirePeer(
    ctx,
    runs('python3', ['-c', 'import pty, termios, fcntl']),
    'python3 with its pty module is needed to drive a terminal',
  );
}

export interface PtyOptions {
  rows?: number;
  columns?: number;
  env?: Record<string, string>;
  /** Run `sh -c SCRIPT` instead, where `"$@"` is the command that runs the CLI. */
  shell?: string;
  /** Run this command instead (an interactive zsh, say). */
  command?: readonly string[];
}

export class PtySession {
  #output = '';
  readonly #child: ChildProcess;
  readonly #control: Writable;
  readonly #exited: Promise<number>;

  /** `streamroute ARGS…` (through tsx) on a terminal of `rows` × `columns`. */
  constructor(args: readonly string[], options: PtyOptions = {}) {
    const cli = [process.execPath, '--import', 'tsx', CLI];
    const command =
      options.command ??
      (options.shell === undefined ? [...cli, ...args] : ['sh', '-c', options.shell, 'sh', ...cli]);
    const bridge = ['-u', BRIDGE, String(options.rows ?? 30), String(options.columns ?? 120), ...command];
    this.#child = spawn('python3', bridge, {
      cwd: ROOT,
      stdio: ['pipe', 'pipe', 'inherit', 'pipe'],
      env: {
        ...process.env,
        TERM: 'xterm',
        PTY_CONTROL_FD: '3',
        ...options.env,
      },
    });
    this.#control = this.#child.stdio[3] as Writable;
    this.#child.stdout?.on('data', (chunk: Buffer) => (this.#output += chunk.toString('utf8')));
    this.#exited = new Promise((resolve) => this.#child.once('exit', (code) => resolve(code ?? -1)));
  }

  /** Everything the terminal showed so far. */
  get output(): string {
    return this.#output;
  }

  /** Where the output is now: waits and reads from here on see only what comes after. */
  mark(): number {
    return this.#output.length;
  }

  /** Types `text` as one burst of keys (readline completes only a Tab that comes alone: type it alone). */
  type(text: string): void {
    this.#child.stdin?.write(text);
  }

  /** The terminal's new size (the program gets SIGWINCH). */
  resize(rows: number, columns: number): void {
    this.#control.write(`resize ${rows} ${columns}\n`);
  }

  /** Waits until the output after `from`, as plain text, matches; fails with what was shown. */
  waitFor(pattern: RegExp | string, from = 0, timeoutMs = 20_000): Promise<string> {
    return this.#wait(pattern, from, timeoutMs, plain);
  }

  /** Waits until the output after `from`, escape sequences and all, holds `text`. */
  waitForRaw(text: string, from = 0, timeoutMs = 20_000): Promise<string> {
    return this.#wait(text, from, timeoutMs, (output) => output);
  }

  async #wait(
    pattern: RegExp | string,
    from: number,
    timeoutMs: number,
    view: (output: string) => string,
  ): Promise<string> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const shown = view(this.#output.slice(from));
      if (typeof pattern === 'string' ? shown.includes(pattern) : pattern.test(shown)) return shown;
      if (Date.now() > deadline || this.#child.exitCode !== null)
        throw new Error(`the terminal never showed ${String(pattern)}; it showed:\n${shown}`);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }

  /** Types a line and waits for the prompt that follows it. */
  async enter(line: string, prompt: RegExp | string = /\w[-=*'$]+> $/): Promise<string> {
    const from = this.mark();
    this.type(`${line}\r`);
    return this.waitFor(prompt, from);
  }

  /** The exit status, once it ends (killed after `timeoutMs`). */
  async exit(timeoutMs = 20_000): Promise<number> {
    const timer = setTimeout(() => this.#child.kill('SIGKILL'), timeoutMs);
    try {
      return await this.#exited;
    } finally {
      clearTimeout(timer);
    }
  }

  kill(): void {
    this.#child.kill('SIGKILL');
  }
}

/** The text without the cursor movements and colours readline and `top` write (CR LF → LF). */
export function plain(text: string): string {
  return text
    .replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '')
    .replace(/\r\n/g, '\n')
    .replace(/\r/g, '');
}

// Real syslog peers for interop tests: util-linux `logger`, rsyslogd and syslog-ng (Debian packages;
// test/support/install-syslog-peers.sh installs them). Each daemon runs in the foreground in its own
// process group with a config in a fresh temp dir, on free loopback ports; `stop()` kills the group and
// removes the dir, and an exit hook does the same for anything a failed test left behind.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { createSocket, type Socket } from 'node:dgram';
import { accessSync, constants, existsSync, mkdtempSync, openSync, closeSync, rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { requirePeer } from './peers.js';

const STOP_GRACE_MS = 5_000;
const READY_TIMEOUT_MS = 15_000;

export const RSYSLOGD = '/usr/sbin/rsyslogd';
export const LOGGER = '/usr/bin/logger';
export const SYSLOGNG_PREFIX = process.env['SYSLOGNG_PREFIX'] ?? '/opt/streamroute/syslog-ng';
export const SYSLOGNG = join(SYSLOGNG_PREFIX, 'usr/sbin/syslog-ng');
/** The environment of every peer: times in UTC, as the codec reads RFC 3164 times. */
const PEER_ENV = { ...process.env, TZ: 'UTC', LANG: 'C.UTF-8' };

/** Whether the peer's binary is there to run. */
export function installed(binary: string): boolean {
  try {
    accessSync(binary, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** For a before() hook: the peer's binary, or a skip (a failure in CI) that says how to install it. */
export function requireSyslogPeer(ctx: Pick<Mocha.Context, 'skip'>, name: string, binary: string): void {
  const missing = `${name} not found at ${binary}; run: bash test/support/install-syslog-peers.sh`;
  requirePeer(ctx, installed(binary), missing);
}

/** Starts a peer for a before() hook; one that cannot start skips the suite, or fails it in CI. */
export async function startPeer<T>(
  ctx: Pick<Mocha.Context, 'skip'>,
  name: string,
  start: () => Promise<T>,
): Promise<T> {
  try {
    return await start();
  } catch (error: unknown) {
    requirePeer(
      ctx,
      false,
      `${name} could not start: ${error instanceof Error ? error.message : String(error)}`,
    );
    throw error; // not reached: requirePeer skipped or failed
  }
}

/** A UDP socket on loopback that keeps every datagram it receives, in order. */
export class UdpTap {
  readonly #socket: Socket = createSocket('udp4');
  readonly #queue: Buffer[] = [];
  #waiter: (() => void) | undefined;
  port = 0;

  async open(): Promise<this> {
    this.#socket.on('message', (datagram) => {
      this.#queue.push(datagram);
      this.#waiter?.();
    });
    await new Promise<void>((resolve, reject) => {
      this.#socket.once('error', reject);
      this.#socket.bind(0, '127.0.0.1', () => resolve());
    });
    this.port = this.#socket.address().port;
    return this;
  }

  /** The next datagram, or an error after `timeoutMs`. */
  async next(timeoutMs = 5_000): Promise<Buffer> {
    const deadline = Date.now() + timeoutMs;
    while (this.#queue.length === 0) {
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no datagram on UDP port ${this.port} within ${timeoutMs} ms`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.#waiter = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.#waiter = undefined;
    }
    return this.#queue.shift()!;
  }

  /** Drops what arrived so far (start-up probes). */
  clear(): void {
    this.#queue.length = 0;
  }

  send(datagram: Uint8Array, port: number): Promise<void> {
    return new Promise((resolve, reject) =>
      this.#socket.send(datagram, port, '127.0.0.1', (error) => (error ? reject(error) : resolve())),
    );
  }

  close(): void {
    this.#socket.close();
  }
}

/** A free loopback UDP port (bound, read, released). */
export async function freeUdpPort(): Promise<number> {
  const socket = createSocket('udp4');
  await new Promise<void>((resolve, reject) => {
    socket.once('error', reject);
    socket.bind(0, '127.0.0.1', () => resolve());
  });
  const { port } = socket.address();
  await new Promise<void>((resolve) => socket.close(() => resolve()));
  return port;
}

/** Whether something holds the loopback UDP port (binding it fails with EADDRINUSE). */
async function udpPortTaken(port: number): Promise<boolean> {
  const socket = createSocket('udp4');
  const taken = await new Promise<boolean>((resolve) => {
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code === 'EADDRINUSE'));
    socket.bind(port, '127.0.0.1', () => resolve(false));
  });
  if (!taken) await new Promise<void>((resolve) => socket.close(() => resolve()));
  return taken;
}

export interface LoggerRun {
  /** The PID of the logger process, which `logger -i` writes as PROCID. */
  pid: number;
}

/** Runs util-linux logger with `args` (a `--server` among them) and waits for it to exit 0. */
export function runLogger(args: readonly string[]): Promise<LoggerRun> {
  return new Promise((resolve, reject) => {
    const child = execFile(LOGGER, [...args], { env: PEER_ENV, timeout: 10_000 }, (error, _out, stderr) => {
      if (error) reject(new Error(`logger failed: ${error.message} ${stderr}`));
      else resolve({ pid: child.pid ?? -1 });
    });
  });
}

// ---- daemons ----

const liveGroups = new Set<number>();
const liveDirs = new Set<string>();
let exitHookInstalled = false;

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once('exit', () => {
    for (const pid of liveGroups) killGroup(pid, 'SIGKILL');
    for (const dir of liveDirs) rmSync(dir, { recursive: true, force: true });
  });
}

function killGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // the group is gone already
  }
}

/** setpriv --pdeathsig: the kernel kills the daemon if this process dies without its exit hook. */
const SETPRIV = ['/usr/bin/setpriv', '/bin/setpriv'].find((path) => existsSync(path));

export class Daemon {
  readonly #exited: Promise<void>;

  private constructor(
    readonly name: string,
    readonly dir: string,
    private readonly child: ChildProcess,
  ) {
    this.#exited = new Promise((resolve) => child.once('exit', () => resolve()));
  }

  /** Starts `binary args` in a new process group, output to `dir/daemon.log`, env with TZ=UTC. */
  static start(options: {
    name: string;
    dir: string;
    binary: string;
    args: readonly string[];
    env?: Record<string, string>;
  }): Daemon {
    const { name, dir, binary, args, env = {} } = options;
    installExitHook();
    const log = openSync(join(dir, 'daemon.log'), 'a');
    const [command, argv] = SETPRIV
      ? [SETPRIV, ['--pdeathsig', 'KILL', '--', binary, ...args]]
      : [binary, [...args]];
    try {
      const child = spawn(command, argv, {
        detached: true,
        stdio: ['ignore', log, log],
        env: { ...PEER_ENV, ...env },
      });
      if (child.pid !== undefined) liveGroups.add(child.pid);
      child.unref();
      return new Daemon(name, dir, child);
    } finally {
      closeSync(log);
    }
  }

  get running(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  /** Waits until the daemon holds `port` (UDP), or fails with the tail of its log. */
  async waitForUdpPort(port: number): Promise<void> {
    const deadline = Date.now() + READY_TIMEOUT_MS;
    while (!(await udpPortTaken(port))) {
      if (!this.running) throw new Error(`${this.name} exited while starting:\n${await this.logTail()}`);
      if (Date.now() > deadline)
        throw new Error(`${this.name} did not bind UDP ${port}:\n${await this.logTail()}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  async logTail(lines = 30): Promise<string> {
    const text = await readFile(join(this.dir, 'daemon.log'), 'utf8').catch(() => '');
    return text.split('\n').slice(-lines).join('\n');
  }

  /** SIGTERM to the process group, SIGKILL after a grace period; then the temp dir goes. */
  async stop(): Promise<void> {
    const pid = this.child.pid;
    if (pid !== undefined && this.running) {
      killGroup(pid, 'SIGTERM');
      const timer = setTimeout(() => killGroup(pid, 'SIGKILL'), STOP_GRACE_MS);
      await this.#exited;
      clearTimeout(timer);
    }
    if (pid !== undefined) liveGroups.delete(pid);
    rmSync(this.dir, { recursive: true, force: true });
    liveDirs.delete(this.dir);
  }
}

/** A fresh private directory for one daemon. */
export function daemonDir(name: string): string {
  const dir = mkdtempSync(join(tmpdir(), `streamroute-${name}-`));
  liveDirs.add(dir);
  return dir;
}

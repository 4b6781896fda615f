// `streamroute` with no statement on a terminal: the interactive shell, on node:readline (line editing,
// history, Tab). Loaded only by this command (program.ts imports it inside the action), so no other
// command pays for it.
import { createInterface } from 'node:readline';
import type { Output } from '../client/report.js';
import { EXIT } from '../client/report.js';
import { complete } from './completer.js';
import { NameCache } from './name-cache.js';
import { ShellHistory, historyFile } from './shell-history.js';
import { ShellSession } from './shell-session.js';
import { statementTargetOf, type ChosenTarget, type StatementTarget } from './statement-target.js';

export interface ShellOptions {
  target: ChosenTarget;
  cwd: string;
  env: Readonly<Record<string, string | undefined>>;
  /** The terminal (default: the process's stdin and stdout) and where errors go (default: stderr). */
  input?: NodeJS.ReadableStream;
  output?: NodeJS.WritableStream;
  errors?: NodeJS.WritableStream;
}

/** Runs the shell until `\q` or Ctrl-D; exit 0. */
export async function runShell(options: ShellOptions): Promise<number> {
  const input = options.input ?? process.stdin;
  const terminal = options.output ?? process.stdout;
  const errors = options.errors ?? process.stderr;
  const line = (text: string) => (text.endsWith('\n') ? text : `${text}\n`);
  const print: Output = {
    out: (text) => void terminal.write(line(text)),
    err: (text) => void errors.write(line(text)),
  };
  const target = await statementTargetOf(options.target, options.cwd);
  const history = new ShellHistory(historyFile(options.env), (message) => print.err(message));
  const names = new NameCache(target);
  const session = new ShellSession({ target, output: print, history, names });
  const rl = createInterface({
    input,
    output: terminal,
    terminal: true,
    // readline navigates this array; the session adds whole statements to it (not each line typed)
    history: history.entries,
    historySize: 0,
    tabSize: 4,
    completer: (line: string, done: (error: null, result: [string[], string]) => void) => {
      void Promise.all([names.objects(), names.domains()]).then(([objects, domains]) =>
        done(
          null,
          complete({ before: session.buffer.text, waiting: session.buffer.waiting, line, objects, domains }),
        ),
      );
    },
  });
  // The input can end while a statement runs (a pipe, a closed terminal): the lines read before that
  // still run, but a closed interface must not be prompted again (it throws).
  let closed = false;
  rl.once('close', () => (closed = true));
  const prompt = (): void => {
    if (closed) return;
    rl.setPrompt(session.prompt);
    rl.prompt();
  };
  let busy = false;
  rl.on('SIGINT', () => {
    // As psql: Ctrl-C forgets the line and the statement being typed, and the shell stays. A statement
    // already sent runs to its end (the node has it).
    if (busy) return;
    session.interrupt();
    rl.write(null, { ctrl: true, name: 'e' });
    rl.write(null, { ctrl: true, name: 'u' });
    terminal.write('^C\n');
    prompt();
  });
  print.out(banner(target));
  void names.objects();
  prompt();
  for await (const typed of rl) {
    busy = true;
    await session.line(typed);
    busy = false;
    if (session.quit) break;
    prompt();
  }
  session.end();
  rl.close();
  return EXIT.ok;
}

function banner(target: StatementTarget): string {
  return `streamroute shell: domain ${target.domain} on ${target.where}. \\? for help, \\q to quit.`;
}

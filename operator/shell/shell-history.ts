// The shell's history, kept across sessions in one file: $STREAMROUTE_HISTORY when set (empty: keep none),
// else $XDG_STATE_HOME/streamroute/history, else ~/.local/state/streamroute/history (the XDG base
// directory rule for state). One entry a line, as a JSON string, so a statement typed on several lines
// comes back whole; the newest HISTORY_SIZE entries are kept. Each entry is appended as it is run, so two
// shells open at once both keep theirs; the file is rewritten to its newest entries when it has grown to
// twice the bound. Statements may name secrets' files: the file is readable by its owner only.
import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { ioError } from '../language/input-error.js';

export const HISTORY_SIZE = 1000;
export const HISTORY_ENV = 'STREAMROUTE_HISTORY';

type Env = Readonly<Record<string, string | undefined>>;

/** Where the history is kept, or undefined for none. */
export function historyFile(env: Env): string | undefined {
  const chosen = env[HISTORY_ENV];
  if (chosen !== undefined) return chosen === '' ? undefined : chosen;
  const state = env['XDG_STATE_HOME'];
  // The XDG rule: a relative $XDG_STATE_HOME is invalid and ignored.
  const base =
    state !== undefined && state.startsWith('/') ? state : join(env['HOME'] ?? homedir(), '.local', 'state');
  return join(base, 'streamroute', 'history');
}

export class ShellHistory {
  /** Newest first: readline's order (it is handed this very array and navigates it). */
  readonly entries: string[];
  readonly #file: string | undefined;
  #lines: number;
  #warn: ((message: string) => void) | undefined;

  /** Reads the file; one that cannot be read is reported through `warn` and the shell starts with none. */
  constructor(file: string | undefined, warn: (message: string) => void) {
    this.#file = file;
    this.#warn = warn;
    const lines = file === undefined ? [] : readLines(file, warn);
    this.#lines = lines.length;
    this.entries = [];
    for (const line of lines) this.#remember(line);
  }

  /** Adds an entry (an earlier copy of it moves up) and appends it to the file. */
  add(entry: string): void {
    if (entry.trim() === '') return;
    this.#remember(entry);
    if (this.#file === undefined) return;
    try {
      mkdirSync(dirname(this.#file), { recursive: true, mode: 0o700 });
      if (this.#lines + 1 >= 2 * HISTORY_SIZE) {
        const kept = [...this.entries].reverse().map((each) => JSON.stringify(each));
        writeFileSync(this.#file, `${kept.join('\n')}\n`, { mode: 0o600 });
        this.#lines = kept.length;
      } else {
        appendFileSync(this.#file, `${JSON.stringify(entry)}\n`, { mode: 0o600 });
        this.#lines += 1;
      }
    } catch (error: unknown) {
      // Said once: a shell whose history cannot be written still runs statements.
      this.#warn?.(
        `streamroute: the history is not saved: ${ioError('cannot write', this.#file, error).message}`,
      );
      this.#warn = undefined;
    }
  }

  #remember(entry: string): void {
    const earlier = this.entries.indexOf(entry);
    if (earlier >= 0) this.entries.splice(earlier, 1);
    this.entries.unshift(entry);
    if (this.entries.length > HISTORY_SIZE) this.entries.length = HISTORY_SIZE;
  }
}

/** The file's entries, oldest first; a line that is not a JSON string is skipped. */
function readLines(file: string, warn: (message: string) => void): string[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error: unknown) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT')
      warn(`streamroute: the history starts empty: ${ioError('cannot read', file, error).message}`);
    return [];
  }
  return text.split('\n').flatMap((line) => {
    try {
      const entry: unknown = JSON.parse(line);
      return typeof entry === 'string' ? [entry] : [];
    } catch {
      return [];
    }
  });
}

// BEGIN … COMMIT in the shell. The node (and the cluster planner) checks and activates a batch only as
// one script, and keeps no session between requests, so the shell holds the statements typed after BEGIN
// and sends `BEGIN; …; COMMIT;` at COMMIT: the batch becomes one graph version or nothing. Each held
// statement is parsed first, so a typo is reported at once and kept out of the batch; SHOW, SHOW CREATE
// and DESCRIBE run at once (they change nothing, and show the domain as it runs, without the batch).
import { formatDiagnostic } from '../diagnostics/diagnostic.js';
import type { Statement } from '../language/ast.js';
import { parseScript } from '../language/parse.js';

export const SHELL_SOURCE = '<shell>';
export const BATCH_SOURCE = '<batch>';

/** What the shell does with one complete statement. */
export type Step =
  | { do: 'open'; message: string }
  | { do: 'hold'; message: string }
  | { do: 'send'; script: string; source: string; changes: boolean; note?: string }
  | { do: 'discard'; message: string }
  | { do: 'refuse'; lines: string[] };

const READS: ReadonlySet<Statement['type']> = new Set(['show', 'show-create', 'describe']);

export class ShellBatch {
  #held: string[] | undefined;
  #noted = false;

  get open(): boolean {
    return this.#held !== undefined;
  }

  get size(): number {
    return this.#held?.length ?? 0;
  }

  /** Decides what to do with a statement (its text ends with `;`). */
  step(text: string): Step {
    const parsed = parseScript(text, SHELL_SOURCE);
    const type = parsed.statements[0]?.type;
    if (this.#held === undefined) {
      if (type === 'begin' && parsed.diagnostics.length === 0) {
        this.#held = [];
        this.#noted = false;
        return { do: 'open', message: 'BEGIN -- statements are held until COMMIT sends them as one batch' };
      }
      return {
        do: 'send',
        script: text,
        source: SHELL_SOURCE,
        changes: type === undefined || !READS.has(type),
      };
    }
    const errors = parsed.diagnostics.filter((each) => each.severity === 'error');
    if (errors.length > 0 || type === undefined)
      return { do: 'refuse', lines: [...errors.map(formatDiagnostic), 'not added to the batch'] };
    return this.#inBatch(type, text, this.#held);
  }

  #inBatch(type: Statement['type'], text: string, held: string[]): Step {
    switch (type) {
      case 'begin':
        return refuse('SR1008', 'BEGIN inside a batch: batches do not nest; COMMIT or ROLLBACK the open one');
      case 'upload-resource':
        return refuse(
          'SR1007',
          'UPLOAD RESOURCE cannot be used inside BEGIN … COMMIT: upload before the batch, then refer to the version',
        );
      case 'commit':
        this.#held = undefined;
        return { do: 'send', script: batchScript(held), source: BATCH_SOURCE, changes: true };
      case 'rollback':
        this.#held = undefined;
        return { do: 'discard', message: `ROLLBACK -- ${count(held.length)} discarded; nothing was sent` };
      default:
        return READS.has(type) ? this.#read(text) : this.#hold(text, held);
    }
  }

  #read(text: string): Step {
    const note = this.#noted
      ? undefined
      : '-- runs now, outside the batch: it shows the domain without the batch';
    this.#noted = true;
    return {
      do: 'send',
      script: text,
      source: SHELL_SOURCE,
      changes: false,
      ...(note === undefined ? {} : { note }),
    };
  }

  #hold(text: string, held: string[]): Step {
    held.push(text);
    return { do: 'hold', message: `-- held: ${count(held.length)} in the batch` };
  }

  /** Quitting with a batch open: nothing of it ran. */
  abandon(): string | undefined {
    if (this.#held === undefined) return undefined;
    const message = `-- the open batch (${count(this.#held.length)}) was not committed: nothing of it ran`;
    this.#held = undefined;
    return message;
  }
}

/** The batch as the node runs it: each statement on its own lines, so diagnostics point into it. */
export function batchScript(held: readonly string[]): string {
  return ['BEGIN;', ...held, 'COMMIT;'].join('\n');
}

function refuse(code: string, message: string): Step {
  return { do: 'refuse', lines: [`${SHELL_SOURCE}: error ${code}: ${message}`, 'not added to the batch'] };
}

function count(statements: number): string {
  return `${statements} statement${statements === 1 ? '' : 's'}`;
}

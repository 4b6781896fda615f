// The statement being typed, across lines: a statement is complete at a `;` outside quotes, `$jaq$`
// programs and comments, found by the same splitter the parser uses (split-statements.ts), so the shell
// sends exactly the statements a script with the same text would hold.
import { firstTokenOffset, splitStatements, type Unclosed } from '../language/split-statements.js';

/** What the text typed so far is waiting for: nothing, the rest of a statement, or a closing token. */
export type Waiting = 'nothing' | 'statement' | Unclosed;

export interface Taken {
  /** The complete statements, each with its `;`, in order; blank ones (`;;`) are left out. */
  statements: string[];
  /** The text those statements came from, as typed (what history keeps); empty when none completed. */
  consumed: string;
}

export class StatementBuffer {
  #text = '';
  #waiting: Waiting = 'nothing';

  /** What the text typed so far is waiting for (the shell's prompt shows it). */
  get waiting(): Waiting {
    return this.#waiting;
  }

  /** Adds a line; takes out every statement it completes. */
  add(line: string): Taken {
    const text = this.#text === '' ? line : `${this.#text}\n${line}`;
    const split = splitStatements(text);
    const last = split.segments.at(-1)?.text ?? '';
    const statements = split.segments
      .slice(0, -1)
      .map((segment) => segment.text)
      .filter((statement) => firstTokenOffset(statement) < statement.length)
      .map((statement) => `${statement.trimStart()};`);
    const consumed = text.slice(0, text.length - last.length);
    const blank = split.unclosed === undefined && firstTokenOffset(last) === last.length;
    this.#text = blank ? '' : last;
    this.#waiting = split.unclosed?.what ?? (blank ? 'nothing' : 'statement');
    return { statements, consumed: consumed.trim() };
  }

  /** Forgets the statement being typed (Ctrl-C, `\r`); returns whether there was one. */
  reset(): boolean {
    const had = this.#text !== '';
    this.#text = '';
    this.#waiting = 'nothing';
    return had;
  }

  /** The statement being typed so far (completion reads its words). */
  get text(): string {
    return this.#text;
  }
}

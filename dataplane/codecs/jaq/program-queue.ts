// The inputs waiting for one jq program, and their outcomes handed back in the order they came: batches
// may finish on different workers out of order, and an input re-run on its own finishes later than its
// neighbours, but a caller (a syslog connection, an ingestor) sees its payloads' records in order.
import type { JsonValue } from '../json-value.js';

export type Failure = 'halted' | 'time_limit' | 'crashed' | 'overloaded' | 'not_compiled';

/** What became of one input: the program's outputs, the value it raised, or why it did not finish. */
export type InputOutcome =
  { outputs: JsonValue[] } | { raised: JsonValue } | { failed: Failure; detail?: string };

export interface Submission {
  readonly input: string;
  /** Run alone: it was in a batch that ran past the time limit or crashed. */
  solo: boolean;
  outcome?: InputOutcome;
  readonly resolve: (outcome: InputOutcome) => void;
}

export interface BatchLimits {
  maxInputs: number;
  maxBytes: number;
  /** Take solo inputs together with the others (when failing them all). */
  ignoreSolo?: boolean;
}

export class ProgramQueue {
  readonly #waiting: Submission[] = [];
  /** Every submission not resolved yet, in arrival order. */
  readonly #unresolved: Submission[] = [];
  #waitingBytes = 0;

  constructor(
    /** The wrapped batch program (jaq-program.ts). */
    readonly program: string,
  ) {}

  get waitingBytes(): number {
    return this.#waitingBytes;
  }

  get hasWaiting(): boolean {
    return this.#waiting.length > 0;
  }

  submit(input: string): Promise<InputOutcome> {
    return new Promise((resolve) => {
      const submission: Submission = { input, solo: false, resolve };
      this.#unresolved.push(submission);
      this.#waiting.push(submission);
      this.#waitingBytes += input.length;
    });
  }

  /** Settles a submission at once (it never reaches a worker) — in order with the others. */
  refuse(input: string, outcome: InputOutcome): Promise<InputOutcome> {
    return new Promise((resolve) => {
      this.#unresolved.push({ input, solo: true, outcome, resolve });
      this.#flush();
    });
  }

  /** The next batch: waiting inputs up to the limits; a solo input goes alone. */
  take(limits: BatchLimits): Submission[] {
    const batch: Submission[] = [];
    let bytes = 0;
    for (const next of this.#waiting) {
      const full =
        batch.length >= limits.maxInputs || (batch.length > 0 && bytes + next.input.length > limits.maxBytes);
      const alone = limits.ignoreSolo !== true && (next.solo || batch[0]?.solo === true);
      if (full || (batch.length > 0 && alone)) break;
      batch.push(next);
      bytes += next.input.length;
    }
    this.#waiting.splice(0, batch.length);
    this.#waitingBytes -= bytes;
    return batch;
  }

  /** Puts submissions back at the front, to run alone or in a batch again. */
  putBack(submissions: readonly Submission[], alone: boolean): void {
    for (const submission of submissions) submission.solo ||= alone;
    this.#waiting.unshift(...submissions);
    this.#waitingBytes += submissions.reduce((sum, { input }) => sum + input.length, 0);
  }

  settle(submission: Submission, outcome: InputOutcome): void {
    submission.outcome = outcome;
    this.#flush();
  }

  #flush(): void {
    while (this.#unresolved[0]?.outcome !== undefined) {
      const done = this.#unresolved.shift() as Submission & { outcome: InputOutcome };
      done.resolve(done.outcome);
    }
  }
}

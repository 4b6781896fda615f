// The inputs waiting for one jq program, and their outcomes handed back in the order they came: batches
// may finish on different workers out of order, and an input re-run on its own finishes later than its
// neighbours, but a caller (a syslog connection, an ingestor) sees its payloads' records in order.
import type { JsonValue } from '../json-value.js';

export type Failure = 'halted' | 'time_limit' | 'crashed' | 'overloaded' | 'not_compiled';

/** Inputs in a call of a program whose cost is not known yet: enough to learn it, few to run again. */
const FIRST_CALL_INPUTS = 16;
/** Weight of the newest call in the running mean of the cost per input. */
const COST_WEIGHT = 0.3;

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
  /** Running mean of what one input of this program costs in a call of jq (ms); none before a call. */
  #costMs: number | undefined;

  constructor(
    /** The wrapped batch program (jaq-program.ts). */
    readonly program: string,
  ) {}

  get hasWaiting(): boolean {
    return this.#waiting.length > 0;
  }

  /** Nothing is unresolved (so nothing waits either): the queue may be forgotten. */
  get idle(): boolean {
    return this.#unresolved.length === 0;
  }

  /** How many inputs a call may take to last about `targetMs`, by what calls have cost so far. */
  inputsFor(targetMs: number): number {
    if (this.#costMs === undefined) return FIRST_CALL_INPUTS;
    return Math.max(1, Math.floor(targetMs / this.#costMs));
  }

  /** Learns from a call that finished: `inputs` ran in `elapsedMs`. */
  observe(elapsedMs: number, inputs: number): void {
    if (inputs === 0) return;
    const cost = elapsedMs / inputs;
    this.#costMs = this.#costMs === undefined ? cost : this.#costMs + COST_WEIGHT * (cost - this.#costMs);
  }

  submit(input: string): Promise<InputOutcome> {
    return new Promise((resolve) => {
      const submission: Submission = { input, solo: false, resolve };
      this.#unresolved.push(submission);
      this.#waiting.push(submission);
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
    return batch;
  }

  /** Puts submissions back at the front, to run alone or in a batch again. */
  putBack(submissions: readonly Submission[], alone: boolean): void {
    for (const submission of submissions) submission.solo ||= alone;
    this.#waiting.unshift(...submissions);
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

// The log lines of one component's message errors (ON MESSAGE ERROR LOG), bounded: a sender of bad bodies
// must not turn each one into a log line, or a flood of them fills the node's log (and whatever ships it)
// at the sender's pace. Up to MESSAGE_ERROR_LINES lines in each interval are written one by one, as the
// policy asks; past that, each code's further errors are added up and written as one line per interval
// with their count ("message errors not logged one by one", by ThrottledDrops' timing). Every error is
// counted in /metrics whether it has a line of its own or not.
import type { Logger } from 'pino';
import type { Clock } from './clock.js';
import { DEFAULT_DROP_LOG_INTERVAL_MS, ThrottledDrops, type DropSink } from './throttled-drops.js';

/** Lines written one by one per component and interval (10 s). */
export const MESSAGE_ERROR_LINES = 20;

export interface MessageErrorLinesOptions {
  logger: Logger;
  clock: Clock;
  /** Lines one by one per interval (default MESSAGE_ERROR_LINES; tests that read every line raise it). */
  perInterval?: number;
  intervalMs?: number;
}

export class MessageErrorLines {
  readonly #o: Required<MessageErrorLinesOptions>;
  /** The errors past the budget, by code. */
  readonly #rest = new Map<string, ThrottledDrops<string>>();
  readonly #sink: DropSink<string>;
  #windowStart = Number.NEGATIVE_INFINITY;
  #lines = 0;

  constructor(options: MessageErrorLinesOptions) {
    this.#o = {
      perInterval: MESSAGE_ERROR_LINES,
      intervalMs: DEFAULT_DROP_LOG_INTERVAL_MS,
      ...options,
    };
    const logger = options.logger;
    this.#sink = {
      countDrops: () => undefined, // counted as message errors already
      logDrops: (code, count, detail) =>
        logger.warn({ code, count, detail }, 'message errors not logged one by one'),
    };
  }

  /** Writes `fields` as a 'message error' line, or adds it to its code's count when over the budget. */
  warn(code: string, fields: Record<string, unknown>): void {
    const now = this.#o.clock.now();
    if (now - this.#windowStart >= this.#o.intervalMs) {
      this.#windowStart = now;
      this.#lines = 0;
    }
    if (this.#lines < this.#o.perInterval) {
      this.#lines += 1;
      this.#o.logger.warn(fields, 'message error');
      return;
    }
    let rest = this.#rest.get(code);
    if (rest === undefined) {
      const detail = `more than ${this.#o.perInterval} message errors in ${this.#o.intervalMs / 1000} s`;
      rest = new ThrottledDrops(this.#sink, code, detail, {
        clock: this.#o.clock,
        intervalMs: this.#o.intervalMs,
      });
      this.#rest.set(code, rest);
    }
    rest.add(1);
  }
}

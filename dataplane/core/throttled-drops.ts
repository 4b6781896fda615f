// Drops of one component for one reason, counted at once and logged at most once per interval: a slow
// subscriber can lose thousands of records a second, and an ingestor quiesced under load thousands of
// bodies, and that must be one warn line per interval with the exact count since the last one, not a line
// per record. Used by admin subscriptions and by HTTP ingest targets (ON QUIESCE drops), and, with reasons of
// their own, by listeners that refuse connections (dataplane/net/connection-telemetry.ts).
//
//   add(n)                             → the counter moves at once (`countDrops`)
//   first drop after a quiet interval  → logged at the end of the current job (a microtask), so a burst of
//                                        drops in one publish loop is one line
//   drops within the interval after a line → added up, logged when the interval has passed
//   flush()                            → logs what is pending now (the subscription ended, the target stopped)
//
// Only the log line waits. Time comes from the injected clock, so tests move it instead of sleeping.
import type { Clock, TimerHandle } from './clock.js';
import type { DropReason } from './telemetry.js';

export const DEFAULT_DROP_LOG_INTERVAL_MS = 10_000;

export interface DropLogTiming {
  clock: Clock;
  intervalMs: number;
}

/** The halves of `ComponentTelemetry.dropMany` this needs; `R` is the set of reasons it counts by. */
export interface DropSink<R extends string = DropReason> {
  countDrops: (reason: R, count: number) => void;
  logDrops: (reason: R, count: number, detail: string, extra?: Record<string, string | number>) => void;
}

export class ThrottledDrops<R extends string = DropReason> {
  readonly #telemetry: DropSink<R>;
  readonly #reason: R;
  readonly #detail: string;
  readonly #extra: Record<string, string | number>;
  readonly #clock: Clock;
  readonly #intervalMs: number;
  #pending = 0;
  #total = 0;
  #lastReportAt = Number.NEGATIVE_INFINITY;
  #timer: TimerHandle | undefined;
  #microtaskQueued = false;

  /** `extra`: fields every log line carries besides `reason`, `count` and `detail` (names only). */
  constructor(
    telemetry: DropSink<R>,
    reason: NoInfer<R>,
    detail: string,
    timing: DropLogTiming & { extra?: Record<string, string | number> },
  ) {
    this.#telemetry = telemetry;
    this.#reason = reason;
    this.#detail = detail;
    this.#extra = timing.extra ?? {};
    this.#clock = timing.clock;
    this.#intervalMs = timing.intervalMs;
  }

  /** Every drop ever added, logged or not. */
  get total(): number {
    return this.#total;
  }

  /** Added and not yet logged. */
  get pending(): number {
    return this.#pending;
  }

  add(count = 1): void {
    if (count <= 0) return;
    this.#pending += count;
    this.#total += count;
    this.#telemetry.countDrops(this.#reason, count);
    if (this.#timer !== undefined || this.#microtaskQueued) return;
    const wait = this.#lastReportAt + this.#intervalMs - this.#clock.now();
    if (wait > 0) {
      this.#timer = this.#clock.setTimeout(this.#report, wait);
    } else {
      this.#microtaskQueued = true;
      queueMicrotask(this.#report);
    }
  }

  /** Logs what is pending now, whenever the last line was, and disarms the timer. */
  flush(): void {
    if (this.#timer !== undefined) this.#clock.clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#report();
  }

  readonly #report = (): void => {
    this.#microtaskQueued = false;
    this.#timer = undefined;
    const count = this.#pending;
    if (count === 0) return;
    this.#pending = 0;
    this.#lastReportAt = this.#clock.now();
    this.#telemetry.logDrops(this.#reason, count, this.#detail, this.#extra);
  };
}

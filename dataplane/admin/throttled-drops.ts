// Drops of one component for one reason, reported through `ComponentTelemetry.dropMany` at most once per
// interval: a slow subscriber can lose thousands of records a second, and that must be one warn line per
// interval with the exact count since the last one, not a line per record.
//
//   first drop after a quiet interval  → reported at the end of the current job (a microtask), so a burst
//                                        of drops in one publish loop is one line
//   drops within the interval after a report → added up, reported when the interval has passed
//   flush() → reports what is pending now (the subscription ended, the server stops)
//
// The counter moves at once (`countDrops`); only the log line waits. Time comes from the injected clock, so tests move it instead of sleeping.
import type { Clock, TimerHandle } from '../runtime/clock.js';
import type { ComponentTelemetry, DropReason } from '../runtime/telemetry.js';

export const DEFAULT_DROP_LOG_INTERVAL_MS = 10_000;

export class ThrottledDrops {
  readonly #telemetry: ComponentTelemetry;
  readonly #reason: DropReason;
  readonly #detail: string;
  readonly #clock: Clock;
  readonly #intervalMs: number;
  #pending = 0;
  #total = 0;
  #lastReportAt = Number.NEGATIVE_INFINITY;
  #timer: TimerHandle | undefined;
  #microtaskQueued = false;

  constructor(
    telemetry: ComponentTelemetry,
    reason: DropReason,
    detail: string,
    timing: { clock: Clock; intervalMs: number },
  ) {
    this.#telemetry = telemetry;
    this.#reason = reason;
    this.#detail = detail;
    this.#clock = timing.clock;
    this.#intervalMs = timing.intervalMs;
  }

  /** Every drop ever added, reported or not. */
  get total(): number {
    return this.#total;
  }

  /** Added and not yet reported. */
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

  /** Reports what is pending now, whenever the last report was. */
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
    this.#telemetry.logDrops(this.#reason, count, this.#detail);
  };
}

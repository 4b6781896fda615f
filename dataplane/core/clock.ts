// Time for the data plane, injected so that tests never sleep: components read `now()` and arm timers
// through a Clock. Production uses `systemClock`; tests use `ManualClock` and move time with `advance`.

/** What `setTimeout` returns (an opaque object); only ever handed back to the same clock's `clearTimeout`. */
export type TimerHandle = object;

export interface Clock {
  /** Milliseconds on a monotonic scale (never steps back). Not for wall-clock display. */
  now(): number;
  /** Calls `fn` once, no earlier than `ms` milliseconds from now. */
  setTimeout(fn: () => void, ms: number): TimerHandle;
  /** Cancels a timer that has not fired; a handle that fired or was cancelled is ignored. */
  clearTimeout(handle: TimerHandle): void;
}

/**
 * Node's timers and `performance.now()` offset by `performance.timeOrigin`: monotonic, and close to epoch
 * milliseconds (it does not follow later wall-clock corrections).
 */
const origin = performance.timeOrigin;
export const systemClock: Clock = {
  now: () => origin + performance.now(),
  // A due time just past gives a delay a hair below 0; Node 24 warns (TimeoutNegativeWarning) and uses 1.
  setTimeout: (fn, ms) => setTimeout(fn, Math.max(0, ms)),
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

interface ManualTimer {
  readonly due: number;
  readonly order: number;
  readonly fn: () => void;
}

/**
 * A clock that moves only when told. `advance(ms)` fires the timers that fall due within the step in
 * order of due time (then of arming), with `now()` equal to each timer's due time while it runs; timers
 * armed by a firing timer fire in the same step when they are due within it.
 */
export class ManualClock implements Clock {
  #now: number;
  #armed = 0;
  readonly #timers = new Set<ManualTimer>();

  constructor(start = 0) {
    this.#now = start;
  }

  now(): number {
    return this.#now;
  }

  setTimeout(fn: () => void, ms: number): TimerHandle {
    const timer: ManualTimer = { due: this.#now + Math.max(0, ms), order: this.#armed++, fn };
    this.#timers.add(timer);
    return timer;
  }

  clearTimeout(handle: TimerHandle): void {
    this.#timers.delete(handle as ManualTimer);
  }

  /** Timers armed and not yet fired or cancelled. */
  get pendingTimers(): number {
    return this.#timers.size;
  }

  /** Moves time forward by `ms` (≥ 0), firing every timer due on the way. */
  advance(ms: number): void {
    if (!(ms >= 0)) throw new RangeError(`ManualClock.advance needs ms >= 0, got ${ms}`);
    const target = this.#now + ms;
    for (let next = this.#nextDue(target); next !== undefined; next = this.#nextDue(target)) {
      this.#timers.delete(next);
      this.#now = next.due;
      next.fn();
    }
    this.#now = target;
  }

  /** Moves time to `at` (not before now), firing every timer due on the way. */
  advanceTo(at: number): void {
    this.advance(at - this.#now);
  }

  #nextDue(target: number): ManualTimer | undefined {
    let first: ManualTimer | undefined;
    for (const timer of this.#timers) {
      if (timer.due > target) continue;
      if (
        first === undefined ||
        timer.due < first.due ||
        (timer.due === first.due && timer.order < first.order)
      )
        first = timer;
    }
    return first;
  }
}

/** Resolves after `ms` on `clock`, or at once when `signal` aborts (already aborted: at once). */
export function sleep(clock: Clock, ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = clock.setTimeout(() => {
      signal.removeEventListener('abort', wake);
      resolve();
    }, ms);
    const wake = (): void => {
      clock.clearTimeout(timer);
      resolve();
    };
    signal.addEventListener('abort', wake, { once: true });
  });
}

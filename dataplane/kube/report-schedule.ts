// When a node writes its report (docs/decisions/0015-kubernetes-objects.md, "Node reports"): on change,
// coalesced to at most one write per `minIntervalMs` (10 s); after a new graph version, the first write
// waits a random 0–`graphDelayMs` (5 s) so a fleet does not write all at once; and a heartbeat
// `heartbeatMs` (5 min) ± `heartbeatJitter` (50 %) after the last write. The wide jitter matters: a
// graph change makes a whole fleet write within 5 s, and ± 10 % would keep those heartbeats bunched into
// one minute every 5 minutes (1,000 nodes: ~17 writes/s); ± 50 % spreads them over 10 minutes at once.
// The period follows the fleet's size (fleet-policy.ts, decision 0018): it is read again when the
// heartbeat falls due, so a node whose fleet grew since its last write waits out the longer period, with
// the same draw of the jitter. A change that can wait (`deferred`) rides the heartbeat, brought forward
// to a uniform time within one period if it was due later.
// Pure decisions on an injected clock and random source: the caller writes (or finds nothing changed
// and skips) when told, and says when a write went through with `written()` — only then does the
// heartbeat move.
import type { Clock, TimerHandle } from '../core/clock.js';

export type WriteReason = 'change' | 'heartbeat';

export interface ReportTiming {
  minIntervalMs: number;
  graphDelayMs: number;
  heartbeatMs: number;
  /** Fraction: the heartbeat falls in heartbeatMs × (1 ± heartbeatJitter). */
  heartbeatJitter: number;
}

export const DEFAULT_REPORT_TIMING: ReportTiming = {
  minIntervalMs: 10_000,
  graphDelayMs: 5_000,
  heartbeatMs: 300_000,
  heartbeatJitter: 0.5,
};

/** The longest wait between failed writes. */
export const MAX_FAILURE_WAIT_MS = 300_000;

export interface ReportScheduleOptions {
  clock: Clock;
  /** Uniform in [0, 1) (Math.random in production). */
  random: () => number;
  timing?: Partial<ReportTiming>;
  /** Time to write (the report may turn out unchanged: then the caller skips, except for a heartbeat). */
  write: (reason: WriteReason) => void;
  /** The heartbeat's mean period now (the fleet's, fleet-policy.ts); default `timing.heartbeatMs`. */
  heartbeatMs?: () => number;
}

/** The pending heartbeat; `writtenAt` and `factor` set: due at writtenAt + period × factor, read late. */
interface Heartbeat {
  timer: TimerHandle;
  at: number;
  writtenAt?: number;
  factor?: number;
}

export class ReportSchedule {
  readonly #clock: Clock;
  readonly #random: () => number;
  readonly #timing: ReportTiming;
  readonly #write: (reason: WriteReason) => void;
  readonly #period: () => number;
  /** When the last write was started (the 10 s spacing counts from it). */
  #lastWriteAt: number | undefined;
  #due: { at: number; timer: TimerHandle } | undefined;
  #heartbeat: Heartbeat | undefined;
  /** A deferred change has brought the heartbeat forward since the last write (once per write). */
  #deferred = false;
  /** Writes that failed in a row: each doubles the wait before the next try (API down, RBAC broken). */
  #failures = 0;
  #stopped = false;

  constructor(options: ReportScheduleOptions) {
    this.#clock = options.clock;
    this.#random = options.random;
    this.#timing = { ...DEFAULT_REPORT_TIMING, ...options.timing };
    this.#write = options.write;
    const fixed = this.#timing.heartbeatMs;
    this.#period = options.heartbeatMs ?? (() => fixed);
  }

  /** When the pending heartbeat is due now (undefined: none armed). */
  get heartbeatDueAt(): number | undefined {
    const heartbeat = this.#heartbeat;
    if (heartbeat === undefined) return undefined;
    return heartbeat.factor === undefined || heartbeat.writtenAt === undefined
      ? heartbeat.at
      : Math.max(heartbeat.at, heartbeat.writtenAt + this.#period() * heartbeat.factor);
  }

  /** When the next change write is due (undefined: none pending). */
  get dueAt(): number | undefined {
    return this.#due?.at;
  }

  /** The report may have changed: write as soon as the spacing allows (coalesced with a pending one). */
  changed(): void {
    if (this.#due !== undefined) return;
    this.#arm(this.#earliest());
  }

  /** A new graph version runs: write after a random delay, never earlier than a pending write. */
  graphApplied(): void {
    const delayed = this.#clock.now() + this.#random() * this.#timing.graphDelayMs;
    const at = Math.max(delayed, this.#earliest(), this.#due?.at ?? 0);
    this.#arm(at);
  }

  /**
   * The report changed in a way that can wait (decision 0018): write it with the heartbeat, brought
   * forward to a uniform time within one period from now if it was due later. Once per write: calling
   * it again before the next write changes nothing (a minimum of many draws would not be uniform).
   */
  deferred(): void {
    if (this.#stopped || this.#deferred) return;
    this.#deferred = true;
    const at = this.#clock.now() + this.#random() * this.#period();
    const due = this.heartbeatDueAt;
    if (due !== undefined && due <= at) return;
    this.#armHeartbeat({ at });
  }

  /** A write went through: the heartbeat counts from now. */
  written(): void {
    if (this.#stopped) return;
    this.#failures = 0;
    this.#deferred = false;
    const factor = 1 + this.#timing.heartbeatJitter * (2 * this.#random() - 1);
    const writtenAt = this.#clock.now();
    this.#armHeartbeat({ at: writtenAt + this.#period() * factor, writtenAt, factor });
  }

  /**
   * A write failed: try again after the spacing, doubled per failure in a row up to MAX_FAILURE_WAIT_MS,
   * so a fleet facing an API outage backs off instead of retrying every 10 s.
   */
  failed(): void {
    this.#failures += 1;
    const wait = Math.min(MAX_FAILURE_WAIT_MS, this.#timing.minIntervalMs * 2 ** (this.#failures - 1));
    const at = Math.max(this.#earliest(), (this.#lastWriteAt ?? this.#clock.now()) + wait);
    if (this.#due === undefined || this.#due.at < at) this.#arm(at);
  }

  stop(): void {
    this.#stopped = true;
    if (this.#due !== undefined) this.#clock.clearTimeout(this.#due.timer);
    if (this.#heartbeat !== undefined) this.#clock.clearTimeout(this.#heartbeat.timer);
    this.#due = undefined;
    this.#heartbeat = undefined;
  }

  #armHeartbeat(heartbeat: Omit<Heartbeat, 'timer'>): void {
    if (this.#stopped) return;
    if (this.#heartbeat !== undefined) this.#clock.clearTimeout(this.#heartbeat.timer);
    const timer = this.#clock.setTimeout(() => {
      this.#heartbeat = undefined;
      const due =
        heartbeat.factor === undefined || heartbeat.writtenAt === undefined
          ? heartbeat.at
          : heartbeat.writtenAt + this.#period() * heartbeat.factor;
      // the fleet grew since the last write: wait out the longer period
      if (due > this.#clock.now()) this.#armHeartbeat({ ...heartbeat, at: due });
      else this.#fire('heartbeat');
    }, heartbeat.at - this.#clock.now());
    this.#heartbeat = { ...heartbeat, timer };
  }

  #earliest(): number {
    const now = this.#clock.now();
    return this.#lastWriteAt === undefined
      ? now
      : Math.max(now, this.#lastWriteAt + this.#timing.minIntervalMs);
  }

  #arm(at: number): void {
    if (this.#stopped) return;
    if (this.#due !== undefined) this.#clock.clearTimeout(this.#due.timer);
    const timer = this.#clock.setTimeout(() => {
      this.#due = undefined;
      this.#fire('change');
    }, at - this.#clock.now());
    this.#due = { at, timer };
  }

  #fire(reason: WriteReason): void {
    if (this.#stopped) return;
    this.#lastWriteAt = this.#clock.now();
    this.#write(reason);
  }
}

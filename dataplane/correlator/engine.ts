// The correlator state machine (docs/correlator.md), independent of how records reach it and where results
// go.
//
//   arrival ──▶ expire what is due ──▶ look in the other side's bucket for the key ──▶ pair (both leave)
//                                                                                 └─▶ wait in own buffer
//   pending ──(MAX TIME passed)──▶ onTimeout(side, original record)
//   pending ──(side full, a newer record must wait)──▶ onOverflow(side, oldest record)
//
// Every callback runs after the buffers are consistent again, so a callback may offer records (re-entry);
// callbacks should not throw (an exception propagates out of `offer` or the timer, buffers intact).
// `where` must be pure: it runs while a bucket is being walked.
// One timer serves both sides: it is armed for the oldest deadline and, because MAX TIME is constant,
// deadlines only grow in arrival order; a timer that fires early just re-arms. Offers expire what is due
// before matching, so the outcome never depends on how late a timer fires.
import type { Clock, TimerHandle } from '../core/clock.js';
import type { RecordValues } from '../core/values.js';
import { keyFunction, type KeyFunction, type KeyPair } from './index-key.js';
import { arrivedBefore, PendingBuffer, type Pending } from './pending-buffer.js';

export type Side = 'left' | 'right';
export type MatchMode = 'EARLIEST' | 'LATEST';

export interface CorrelatorEngineOptions {
  match: MatchMode;
  /** How long an unmatched record waits (ms); it is resolved by timeout once this much time has passed. */
  maxTimeMs: number;
  /** Records that may wait per side; a newer record beyond it pushes out the oldest (onOverflow). */
  maxPending: number;
  /** The equality conjuncts of `where` (`left.a = right.b`), as field names or accessors; may be empty. */
  keys: readonly KeyPair[];
  /** The whole CORRELATE WHERE; must be pure. It is tested on every candidate in the key's bucket. */
  where: (left: RecordValues, right: RecordValues) => boolean;
  clock: Clock;
  onPair: (left: RecordValues, right: RecordValues) => void;
  /** The original record, unchanged, after MAX TIME without a partner. */
  onTimeout: (side: Side, record: RecordValues) => void;
  /** The oldest pending record of a full side, dropped; the caller counts and logs it. */
  onOverflow: (side: Side, record: RecordValues) => void;
  /** `where` threw for a pair: the pair counts as not matching; the caller counts and logs it. */
  onWhereError?: (error: unknown, left: RecordValues, right: RecordValues) => void;
}

/** Node's timers overflow past 2^31-1 ms (and would fire at once); longer waits re-arm on the way. */
const MAX_TIMER_MS = 2 ** 31 - 1;

export class CorrelatorEngine {
  readonly #options: CorrelatorEngineOptions;
  readonly #buffers: Record<Side, PendingBuffer> = { left: new PendingBuffer(), right: new PendingBuffer() };
  readonly #keyOf: Record<Side, KeyFunction>;
  #arrivals = 0;
  #timer: TimerHandle | undefined;
  #stopped = false;

  constructor(options: CorrelatorEngineOptions) {
    if (!(options.maxTimeMs >= 0) || !Number.isFinite(options.maxTimeMs))
      throw new RangeError(`maxTimeMs must be a finite number >= 0, got ${options.maxTimeMs}`);
    if (!Number.isSafeInteger(options.maxPending) || options.maxPending < 1)
      throw new RangeError(`maxPending must be an integer >= 1, got ${options.maxPending}`);
    this.#options = options;
    this.#keyOf = { left: keyFunction(options.keys, 'left'), right: keyFunction(options.keys, 'right') };
  }

  /** A record arrives on one side: it is paired with a pending record of the other side, or waits. */
  offer(side: Side, record: RecordValues): void {
    this.#assertRunning();
    const now = this.#options.clock.now();
    this.#expire(now);
    this.#assertRunning(); // a timeout callback may have stopped the engine
    const other = side === 'left' ? 'right' : 'left';
    const key = this.#keyOf[side](record);
    const oldest = key === undefined ? undefined : this.#buffers[other].oldestWithKey(key);
    const partner = oldest === undefined ? null : this.#choose(oldest, side, record);
    if (partner !== null) {
      this.#buffers[other].remove(partner);
      if (side === 'left') this.#options.onPair(record, partner.record);
      else this.#options.onPair(partner.record, record);
      return;
    }
    this.#wait(side, record, key, now);
  }

  /** Records waiting on a side. */
  pending(side: Side): number {
    return this.#buffers[side].size;
  }

  /**
   * Stops the timer and empties both buffers. Returns the records that were still waiting, oldest first,
   * so the caller can count them as dropped or hand them on; no callback runs for them.
   */
  stop(): Record<Side, RecordValues[]> {
    this.#stopped = true;
    if (this.#timer !== undefined) this.#options.clock.clearTimeout(this.#timer);
    this.#timer = undefined;
    return { left: this.#buffers.left.clear(), right: this.#buffers.right.clear() };
  }

  #assertRunning(): void {
    if (this.#stopped) throw new Error('the correlator engine is stopped; no record can be offered');
  }

  /**
   * EARLIEST: the oldest candidate with the key for which `where` holds; LATEST: the newest. The bucket
   * is circular: from its oldest, `bucketNewer` goes round to the newest and back.
   */
  #choose(oldest: Pending, side: Side, record: RecordValues): Pending | null {
    const earliest = this.#options.match === 'EARLIEST';
    const first = earliest ? oldest : oldest.bucketOlder;
    let entry = first;
    do {
      if (this.#holds(side, record, entry.record)) return entry;
      entry = earliest ? entry.bucketNewer : entry.bucketOlder;
    } while (entry !== first);
    return null;
  }

  #holds(side: Side, arriving: RecordValues, pending: RecordValues): boolean {
    const left = side === 'left' ? arriving : pending;
    const right = side === 'left' ? pending : arriving;
    try {
      return this.#options.where(left, right);
    } catch (error: unknown) {
      this.#options.onWhereError?.(error, left, right);
      return false;
    }
  }

  #wait(side: Side, record: RecordValues, key: ReturnType<KeyFunction>, now: number): void {
    const buffer = this.#buffers[side];
    const pushedOut = buffer.size >= this.#options.maxPending ? buffer.oldest : null;
    if (pushedOut !== null) buffer.remove(pushedOut);
    buffer.add(record, key, now + this.#options.maxTimeMs, this.#arrivals);
    this.#arrivals = (this.#arrivals + 1) | 0;
    this.#arm(now);
    if (pushedOut !== null) this.#options.onOverflow(side, pushedOut.record);
  }

  /** Resolves by timeout every record whose deadline has come, in arrival order across both sides. */
  #expire(now: number): void {
    for (let first = this.#first(); first !== null && first.deadline <= now; first = this.#first()) {
      const side = first === this.#buffers.left.oldest ? 'left' : 'right';
      this.#buffers[side].remove(first);
      this.#options.onTimeout(side, first.record);
    }
  }

  /** The head of the side whose head is due first; on a tie, the one that arrived first. */
  #first(): Pending | null {
    const left = this.#buffers.left.oldest;
    const right = this.#buffers.right.oldest;
    if (left === null || right === null) return left ?? right;
    if (left.deadline !== right.deadline) return right.deadline < left.deadline ? right : left;
    return arrivedBefore(right, left) ? right : left;
  }

  /** Arms the timer for the oldest deadline, unless one is armed (it is due no later: deadlines grow). */
  #arm(now: number): void {
    if (this.#timer !== undefined || this.#stopped) return;
    const first = this.#first();
    if (first === null) return;
    const delay = Math.min(MAX_TIMER_MS, Math.max(0, Math.ceil(first.deadline - now)));
    this.#timer = this.#options.clock.setTimeout(this.#onTimer, delay);
  }

  readonly #onTimer = (): void => {
    this.#timer = undefined;
    const now = this.#options.clock.now();
    try {
      this.#expire(now);
    } finally {
      this.#arm(now);
    }
  };
}

// A keyed work queue, as client-go's workqueue with its delaying and rate-limited layers folded in: a key
// waits out a debounce window after a change (object changes and node-report changes have their own),
// is never processed twice at once (a change during a run queues it again for after the run), and comes
// back after `requeueAfterMs` or, when processing failed, after a capped doubling backoff. Time comes from
// the injected Clock, so tests move it by hand.
import type { Clock, TimerHandle } from '../../dataplane/core/clock.js';

/** Why a key is queued: a change to its objects, or to the node reports that mention it. */
export type ChangeReason = 'objects' | 'nodes';

/** Run `afterMs` after the last change, but at most `maxMs` after the first of a burst. */
export interface DebounceWindow {
  afterMs: number;
  maxMs: number;
}

export const DEFAULT_DEBOUNCE: Record<ChangeReason, DebounceWindow> = {
  objects: { afterMs: 100, maxMs: 1_000 },
  nodes: { afterMs: 1_000, maxMs: 10_000 },
};

export const DEFAULT_RETRY_BACKOFF = { initialMs: 500, maxMs: 60_000 };

/** What processing a key returned: a failure (retried with backoff) or a success, maybe with a requeue. */
export type ProcessResult = { ok: true; requeueAfterMs?: number } | { ok: false };

export interface WorkQueueOptions {
  clock: Clock;
  process: (key: string) => Promise<ProcessResult>;
  debounce?: Record<ChangeReason, DebounceWindow>;
  retryBackoff?: { initialMs: number; maxMs: number };
  /** Keys processed at the same time (different keys); the rest wait their turn in order. Default 4. */
  concurrency?: number;
}

/** The pending changes of one key: the first and last of each reason, and an explicit due time. */
export interface PendingKey {
  first: Partial<Record<ChangeReason, number>>;
  last: Partial<Record<ChangeReason, number>>;
  /** A requeue or retry: run at this time (earlier changes may run it sooner). */
  at?: number;
}

/** When a key with these pending changes is due (pure; undefined when nothing is pending). */
export function dueTime(
  pending: PendingKey,
  debounce: Record<ChangeReason, DebounceWindow>,
): number | undefined {
  const candidates: number[] = pending.at === undefined ? [] : [pending.at];
  for (const reason of ['objects', 'nodes'] as const) {
    const first = pending.first[reason];
    const last = pending.last[reason];
    if (first === undefined || last === undefined) continue;
    candidates.push(Math.min(last + debounce[reason].afterMs, first + debounce[reason].maxMs));
  }
  return candidates.length === 0 ? undefined : Math.min(...candidates);
}

/** The retry delay after `failures` consecutive failures (1 → initialMs, doubling, capped). */
export function retryDelay(failures: number, backoff: { initialMs: number; maxMs: number }): number {
  return Math.min(backoff.maxMs, backoff.initialMs * 2 ** Math.max(0, failures - 1));
}

interface KeyState {
  pending?: PendingKey | undefined;
  timer?: TimerHandle | undefined;
  running: boolean;
  failures: number;
}

export class WorkQueue {
  readonly #clock: Clock;
  readonly #process: (key: string) => Promise<ProcessResult>;
  readonly #debounce: Record<ChangeReason, DebounceWindow>;
  readonly #backoff: { initialMs: number; maxMs: number };
  readonly #keys = new Map<string, KeyState>();
  readonly #runs = new Set<Promise<void>>();
  readonly #concurrency: number;
  /** Keys due while every slot was busy, in the order they fell due. */
  readonly #ready = new Set<string>();
  #active = 0;
  #stopped = false;

  constructor(options: WorkQueueOptions) {
    this.#clock = options.clock;
    this.#process = options.process;
    this.#debounce = options.debounce ?? DEFAULT_DEBOUNCE;
    this.#backoff = options.retryBackoff ?? DEFAULT_RETRY_BACKOFF;
    this.#concurrency = options.concurrency ?? 4;
  }

  /** Records a change of `key`; it runs once its debounce window for `reason` closes. */
  add(key: string, reason: ChangeReason): void {
    if (this.#stopped) return;
    const state = this.#state(key);
    const now = this.#clock.now();
    const pending = (state.pending ??= { first: {}, last: {} });
    pending.first[reason] ??= now;
    pending.last[reason] = now;
    this.#schedule(key, state);
  }

  /** Queues `key` to run after `delayMs` (0: at once), unless something runs it sooner. */
  addAfter(key: string, delayMs: number): void {
    if (this.#stopped) return;
    const state = this.#state(key);
    const at = this.#clock.now() + Math.max(0, delayMs);
    const pending = (state.pending ??= { first: {}, last: {} });
    pending.at = pending.at === undefined ? at : Math.min(pending.at, at);
    this.#schedule(key, state);
  }

  /** Keys waiting to run (not counting those running now). */
  get depth(): number {
    let count = 0;
    for (const state of this.#keys.values()) if (state.pending !== undefined) count += 1;
    return count;
  }

  /** Keys being processed now. */
  get running(): number {
    let count = 0;
    for (const state of this.#keys.values()) if (state.running) count += 1;
    return count;
  }

  /** Consecutive failures of `key` (0 after a success). */
  failures(key: string): number {
    return this.#keys.get(key)?.failures ?? 0;
  }

  /** Drops every pending key and failure count; runs in progress finish (their results are ignored). */
  clear(): void {
    this.#ready.clear();
    for (const [key, state] of this.#keys) {
      if (state.timer !== undefined) this.#clock.clearTimeout(state.timer);
      if (state.running) this.#keys.set(key, { running: true, failures: 0 });
      else this.#keys.delete(key);
    }
  }

  /** Stops taking keys and resolves when the runs in progress have finished. */
  async stop(): Promise<void> {
    this.#stopped = true;
    this.clear();
    await Promise.allSettled([...this.#runs]);
  }

  /** Resolves when no key is running (pending keys may remain). For tests and shutdown. */
  async idle(): Promise<void> {
    while (this.#runs.size > 0) await Promise.allSettled([...this.#runs]);
  }

  #state(key: string): KeyState {
    let state = this.#keys.get(key);
    if (state === undefined) {
      state = { running: false, failures: 0 };
      this.#keys.set(key, state);
    }
    return state;
  }

  #schedule(key: string, state: KeyState): void {
    if (state.timer !== undefined) this.#clock.clearTimeout(state.timer);
    state.timer = undefined;
    if (state.running || state.pending === undefined || this.#stopped) return;
    const due = dueTime(state.pending, this.#debounce) ?? this.#clock.now();
    state.timer = this.#clock.setTimeout(() => this.#fire(key), due - this.#clock.now());
  }

  #fire(key: string): void {
    const state = this.#keys.get(key);
    if (state === undefined || state.running || state.pending === undefined || this.#stopped) return;
    state.timer = undefined;
    if (this.#active >= this.#concurrency) {
      this.#ready.add(key);
      return;
    }
    this.#ready.delete(key);
    state.pending = undefined;
    state.running = true;
    this.#active += 1;
    const run = this.#run(key, state).finally(() => {
      this.#runs.delete(run);
      this.#active -= 1;
      this.#next();
    });
    this.#runs.add(run);
  }

  /** Starts the keys that fell due while every slot was busy. */
  #next(): void {
    for (const key of this.#ready) {
      if (this.#active >= this.#concurrency) return;
      this.#ready.delete(key);
      this.#fire(key);
    }
  }

  async #run(key: string, state: KeyState): Promise<void> {
    let result: ProcessResult;
    try {
      result = await this.#process(key);
    } catch {
      result = { ok: false };
    }
    state.running = false;
    if (this.#keys.get(key) !== state) {
      // cleared while running: only a change that arrived since then counts
      const fresh = this.#keys.get(key);
      if (fresh !== undefined) this.#afterRun(key, fresh, undefined);
      return;
    }
    this.#afterRun(key, state, result);
  }

  #afterRun(key: string, state: KeyState, result: ProcessResult | undefined): void {
    state.running = false;
    if (result !== undefined && result.ok) {
      state.failures = 0;
      if (result.requeueAfterMs !== undefined) this.addAfter(key, result.requeueAfterMs);
    } else if (result !== undefined) {
      state.failures += 1;
      this.addAfter(key, retryDelay(state.failures, this.#backoff));
    }
    if (state.pending === undefined && state.failures === 0) {
      this.#keys.delete(key);
      return;
    }
    this.#schedule(key, state);
  }
}

// One relay of one domain as its subscriptions see it: one backend subscription for every subscription
// name on the relay, each record serialized once into a line of its LineLog, and the subscriptions reading
// the log at their own pace (docs/admin-api.md, "Buffer limits"). A record costs the relay one
// serialization and an append, however many subscribers lag behind; the writing happens once per turn of
// the event loop, where every subscription with a member ready to take data takes its lines.
//
// The log keeps a line while a subscription has not taken it, within the bounds: the largest record
// buffer of the relay's subscriptions, the per-subscription bytes, and the node's bytes (SubscriptionBudget
// drops the oldest lines of the relay keeping the most). Each subscription counts the lines dropped before
// it took them when it next looks (in the same turn). Everything is returned to the budget when the last
// subscription goes.
import type { RecordValues } from '../core/values.js';
import type { RelaySubscriber } from './backend.js';
import { LineLog } from './line-log.js';
import { recordToJson } from './record-json.js';
import type { SubscriptionBudget } from './subscription-limits.js';

/** What a feed needs of a subscription reading it. */
export interface FeedReader {
  /** The number of the next line it takes. */
  readonly cursor: number;
  /** The records it may lag behind by (its members' buffers). */
  readonly window: number;
  /** Whether it takes no more members (it ended, or its last member left). */
  readonly released: boolean;
  /** Counts the lines it lost (they fell out of its window) and moves past them. */
  settle(): void;
  /** Writes to its ready members up to about `budget` bytes, ends them when done; returns the bytes. */
  pump(budget: number): number;
  /** Whether it holds lines a ready member could take. */
  readonly pending: boolean;
  /** The relay is gone: no lines after the current head are its. */
  end(reason: string): void;
}

/**
 * Bytes written to subscribers in one turn of the event loop, all subscriptions of the relay together:
 * this much, or 4× what the relay took since the last turn if more (so a reader can always keep up with
 * its relay). A thousand connections taking data must not hold the loop for long: beyond the budget the
 * rest waits for the next turn (I/O, ingestion included, runs in between) and goes first then.
 */
const BYTES_PER_TURN = 256 * 1024;
const BUDGET_PER_BYTE_IN = 4;

export interface FeedOwner {
  /** The backend subscription is removed: the feed takes no more subscriptions. */
  released(feed: SubscriptionFeed): void;
}

export class SubscriptionFeed implements RelaySubscriber {
  readonly log = new LineLog();
  readonly #budget: SubscriptionBudget;
  readonly #owner: FeedOwner;
  readonly #readers = new Set<FeedReader>();
  /** Where the next turn's writing starts (the readers take turns when the budget runs out). */
  #turn = 0;
  #window = 1;
  #unsubscribe: (() => void) | undefined;
  #scheduled = false;
  /** What the lines appended since the last turn count. */
  #appended = 0;
  #released = false;
  #disposed = false;

  constructor(budget: SubscriptionBudget, owner: FeedOwner) {
    this.#budget = budget;
    this.#owner = owner;
  }

  get released(): boolean {
    return this.#released;
  }

  /** Readers of the feed (ending ones included). */
  get readerCount(): number {
    return this.#readers.size;
  }

  /** The backend subscription is in place (nothing was delivered before). */
  attach(unsubscribe: () => void): void {
    this.#unsubscribe = unsubscribe;
    this.#budget.track(this);
  }

  add(reader: FeedReader): void {
    this.#readers.add(reader);
    this.windowChanged();
  }

  /** A reader finished: it no longer holds lines. */
  remove(reader: FeedReader): void {
    if (!this.#readers.delete(reader)) return;
    this.windowChanged();
    this.readerReleased();
    if (this.#readers.size === 0) this.#dispose();
    else this.wake();
  }

  /** A reader's members (so its window) changed. */
  windowChanged(): void {
    let window = 1;
    for (const reader of this.#readers) if (reader.window > window) window = reader.window;
    this.#window = window;
  }

  /** A reader takes no more members: once none does, the backend subscription goes. */
  readerReleased(): void {
    for (const reader of this.#readers) if (!reader.released) return;
    this.#release();
  }

  // RelaySubscriber: bound, so the backend may keep the functions apart from the object.
  readonly record = (record: Readonly<RecordValues>): void => {
    if (this.#released) return;
    const log = this.log;
    const cost = log.append(recordToJson(record) + '\n');
    let freed = 0;
    const maxBytes = this.#budget.limits.subscriptionBufferBytes;
    while (log.length > this.#window || log.bytes > maxBytes) freed += log.dropOldest();
    this.#appended += cost;
    this.#budget.changed(cost - freed);
    this.wake();
  };

  /** The relay is gone (a reload removed it, the node stops): every reader ends after what it holds. */
  readonly end = (reason: string): void => {
    for (const reader of [...this.#readers]) reader.end(reason);
    this.#release();
  };

  /** Something changed (lines, a member ready again, lines dropped): let readers look once this turn. */
  wake(): void {
    if (this.#scheduled || this.#disposed) return;
    this.#scheduled = true;
    setImmediate(this.#pump);
  }

  readonly #pump = (): void => {
    this.#scheduled = false;
    if (this.#disposed) return;
    const readers = [...this.#readers];
    const first = this.#turn;
    const visited = this.#write(readers);
    let oldest = this.log.head;
    let more = false;
    readers.forEach((reader, index) => {
      const pending = reader.pending;
      // A reader that could take lines but had no turn keeps them: it was not slow, the node was busy.
      const skipped = (index - first + readers.length) % readers.length >= visited;
      if (!(skipped && pending)) reader.settle();
      if (reader.cursor < oldest) oldest = reader.cursor;
      more ||= pending;
    });
    const freed = this.log.trimTo(oldest);
    if (freed > 0) this.#budget.changed(-freed);
    if (more) this.wake();
  };

  /** Readers take turns within the turn's budget; past it, the rest go first next turn. */
  #write(readers: readonly FeedReader[]): number {
    const count = readers.length;
    const budget = Math.max(BYTES_PER_TURN, BUDGET_PER_BYTE_IN * this.#appended);
    this.#appended = 0;
    let written = 0;
    let visited = 0;
    for (; visited < count && written < budget; visited++)
      written += (readers[(this.#turn + visited) % count] as FeedReader).pump(budget - written);
    this.#turn = count === 0 ? 0 : (this.#turn + visited) % count;
    return visited;
  }

  #release(): void {
    if (this.#released) return;
    this.#released = true;
    this.#unsubscribe?.();
    this.#owner.released(this);
    if (this.#readers.size === 0) this.#dispose();
  }

  #dispose(): void {
    this.#release();
    if (this.#disposed) return;
    this.#disposed = true;
    this.#budget.changed(-this.log.clear());
    this.#budget.untrack(this);
  }
}

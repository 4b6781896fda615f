// The pending records of one correlator side. Each record is linked into two lists:
//   - the side's arrival list (oldest first, null-terminated), which is also its expiry order because
//     every record waits the same MAX TIME: expiry and overflow take its head;
//   - its key's bucket (arrival order too), which is all a record of the other side has to look at.
//     A bucket is a circular list with no object of its own: the index maps the key to the bucket's
//     oldest record, whose `bucketOlder` is the newest. MATCH EARLIEST walks `bucketNewer` from the
//     oldest, LATEST walks `bucketOlder` from the newest. Most keys have one record, which then costs
//     one Map entry and nothing more.
// Adding and removing are O(1); removing the last record of a key removes the key from the index.
import type { RecordValues } from '../core/values.js';
import type { IndexKey } from './index-key.js';

export class Pending {
  /** Arrival list of the side. */
  older: Pending | null = null;
  newer: Pending | null = null;
  /** Circular bucket list; a record alone in its bucket (or without key) points at itself. */
  bucketOlder: Pending = this;
  bucketNewer: Pending = this;

  constructor(
    readonly record: RecordValues,
    /** Undefined when the record has no key (a null part): it waits, but can match nothing. */
    readonly key: IndexKey | undefined,
    /** When MAX TIME has passed (clock milliseconds): the record is resolved by timeout at or after it. */
    readonly deadline: number,
    /** Arrival number across both sides (int32, wrapping): orders timeouts due at the same time. */
    readonly arrival: number,
  ) {}
}

/** Whether `a` arrived before `b`, for arrival numbers that wrap around at 2^31. */
export function arrivedBefore(a: Pending, b: Pending): boolean {
  return ((a.arrival - b.arrival) | 0) < 0;
}

export class PendingBuffer {
  oldest: Pending | null = null;
  newest: Pending | null = null;
  size = 0;
  readonly #index = new Map<IndexKey, Pending>();

  /** The oldest waiting record with this key; its `bucketOlder` is the newest. */
  oldestWithKey(key: IndexKey): Pending | undefined {
    return this.#index.get(key);
  }

  /** Appends a record as the newest of the side (and of its key's bucket). */
  add(record: RecordValues, key: IndexKey | undefined, deadline: number, arrival: number): Pending {
    const entry = new Pending(record, key, deadline, arrival);
    entry.older = this.newest;
    if (this.newest === null) this.oldest = entry;
    else this.newest.newer = entry;
    this.newest = entry;
    this.size += 1;
    if (key !== undefined) this.#link(entry, key);
    return entry;
  }

  /** Unlinks a pending record of this side from both lists. */
  remove(entry: Pending): void {
    if (entry.older === null) this.oldest = entry.newer;
    else entry.older.newer = entry.newer;
    if (entry.newer === null) this.newest = entry.older;
    else entry.newer.older = entry.older;
    entry.older = entry.newer = null;
    this.size -= 1;
    if (entry.key !== undefined) this.#unlink(entry, entry.key);
  }

  /** Removes every record and returns them oldest first. */
  clear(): RecordValues[] {
    const records: RecordValues[] = [];
    for (let entry = this.oldest; entry !== null; entry = entry.newer) records.push(entry.record);
    this.oldest = this.newest = null;
    this.size = 0;
    this.#index.clear();
    return records;
  }

  /** Keys in the index (for tests). */
  get keys(): number {
    return this.#index.size;
  }

  #link(entry: Pending, key: IndexKey): void {
    const oldest = this.#index.get(key);
    if (oldest === undefined) {
      this.#index.set(key, entry);
      return;
    }
    const newest = oldest.bucketOlder;
    newest.bucketNewer = entry;
    entry.bucketOlder = newest;
    entry.bucketNewer = oldest;
    oldest.bucketOlder = entry;
  }

  #unlink(entry: Pending, key: IndexKey): void {
    const { bucketOlder: older, bucketNewer: newer } = entry;
    if (newer === entry) {
      this.#index.delete(key);
      return;
    }
    older.bucketNewer = newer;
    newer.bucketOlder = older;
    entry.bucketOlder = entry.bucketNewer = entry;
    if (this.#index.get(key) === entry) this.#index.set(key, newer);
  }
}

// Which offsets a MODE ACK topic ingestor may commit (docs/kafka.md, "Offsets"): a partition's committed
// offset is the next one to read, so it may only move past a message once that message and every earlier
// one of the partition is done (its records are on their relays, or its error was handled). Messages may
// finish out of order (an asynchronous codec for one, a synchronous one for the next); the ledger keeps the
// taken offsets of each partition in order and moves the commit point over the done prefix.
//
//   take(p, 7) take(p, 8) take(p, 9)   done(p, 8) → nothing to commit   done(p, 7) → commit p at 9
//
// Offsets within a partition are taken in increasing order (the consumer reads them so); gaps are normal
// (compacted topics, transaction markers) and need no message of their own.

/** One partition's messages between the last commit and the newest taken. */
class PartitionLedger<Handle> {
  /** Taken offsets in order, with whether each is done; the front is the oldest not committed. */
  readonly #taken: { offset: bigint; done: boolean; handle: Handle }[] = [];
  #head = 0;
  /** The newest done message whose offset + 1 has not been committed yet. */
  #ready: { offset: bigint; handle: Handle } | undefined;

  /** Returns what marks the message done. */
  take(offset: bigint, handle: Handle): () => void {
    const entry = { offset, done: false, handle };
    this.#taken.push(entry);
    return () => {
      entry.done = true;
      this.#advance();
    };
  }

  #advance(): void {
    while (this.#head < this.#taken.length && this.#taken[this.#head]!.done) {
      const entry = this.#taken[this.#head]!;
      this.#ready = { offset: entry.offset, handle: entry.handle };
      this.#head++;
    }
    // Compact once the done prefix is the larger part, so the array does not grow with the partition.
    if (this.#head > 64 && this.#head * 2 > this.#taken.length) {
      this.#taken.splice(0, this.#head);
      this.#head = 0;
    }
  }

  /** The message to commit (its offset + 1 becomes the partition's committed offset), once. */
  takeReady(): { offset: bigint; handle: Handle } | undefined {
    const ready = this.#ready;
    this.#ready = undefined;
    return ready;
  }

  /** A commit of `ready` failed: hand it out again, unless a newer commit point came meanwhile. */
  retry(ready: { offset: bigint; handle: Handle }): void {
    if (this.#ready === undefined || this.#ready.offset < ready.offset) this.#ready = ready;
  }

  get pending(): number {
    return this.#taken.length - this.#head;
  }
}

export class OffsetLedger<Handle> {
  readonly #partitions = new Map<string, PartitionLedger<Handle>>();

  /**
   * A message was handed to the ingestor; `handle` is what ready() gives back for it. Returns what to call
   * once its records are on their relays (or its error was handled); after clear() that call does nothing.
   */
  take(topic: string, partition: number, offset: bigint, handle: Handle): () => void {
    const key = `${topic}:${partition}`;
    let ledger = this.#partitions.get(key);
    if (ledger === undefined) {
      ledger = new PartitionLedger();
      this.#partitions.set(key, ledger);
    }
    return ledger.take(offset, handle);
  }

  /** For each partition whose commit point moved: the newest message of its done prefix. */
  ready(): Handle[] {
    const handles: Handle[] = [];
    for (const ledger of this.#partitions.values()) {
      const ready = ledger.takeReady();
      if (ready !== undefined) handles.push(ready.handle);
    }
    return handles;
  }

  /**
   * Committing `handle` (the commit point `offset` + 1 of a partition) failed: ready() hands it out again,
   * unless the partition was forgotten (given away) or a newer commit point came meanwhile.
   */
  retry(topic: string, partition: number, offset: bigint, handle: Handle): void {
    this.#partitions.get(`${topic}:${partition}`)?.retry({ offset, handle });
  }

  /** Messages taken and not yet done, over every partition. */
  get pending(): number {
    let sum = 0;
    for (const ledger of this.#partitions.values()) sum += ledger.pending;
    return sum;
  }

  /**
   * The group gave these partitions to another member: what is not committed of them will be read again by
   * the next owner, so nothing of it is kept (their messages still in a codec mark nothing when done).
   * The other partitions keep their ledgers: a commit never moves past one of their messages in a codec.
   */
  forget(topic: string, partitions: Iterable<number>): void {
    for (const partition of partitions) this.#partitions.delete(`${topic}:${partition}`);
  }

  /** The consumer is replaced: nothing of what is not committed is kept. */
  clear(): void {
    this.#partitions.clear();
  }
}

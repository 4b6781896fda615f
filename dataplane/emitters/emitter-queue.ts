// What an emitter holds between encoding and a successful write: encoded records in arrival order, cut
// into batches, bounded in bytes. A batch is the unit of writing and of retry (docs/syslog-wire.md,
// "Emitters": a failed batch is kept and sent again whole), so it is removed only after its write succeeded.
//
//   open batch ─ maxRecords reached, maxBytes reached, maxTimeMs after its first record, close() ─→ closed
//   closed batches wait in order; the front one is written (and may be "in flight")
//
// Without a BATCH clause the emitter closes the open batch whenever it can write, so everything encoded
// since the last write goes in one write (maxBytes keeps one write from growing without end). When the
// bytes held pass the bound, the oldest record not in flight is evicted (the caller counts the drop).
import type { Clock, TimerHandle } from '../core/clock.js';
import type { RecordValues } from '../core/values.js';

export interface QueuedRecord {
  record: Readonly<RecordValues>;
  /** The encoded message: framed when its batch is written (TCP/TLS), or a datagram or batch member (UDP). */
  message: Uint8Array;
  /** What it takes on the wire (its frame's length on TCP/TLS); the queue's bound counts these. */
  bytes: number;
}

export class Batch {
  readonly entries: QueuedRecord[] = [];
  bytes = 0;
  closed = false;
  /** Writes tried for this batch (a second one is a retry). */
  attempts = 0;
  /** What a write sends, made once (a UDP batch form costs an encode); dropped when the batch changes. */
  units: Uint8Array[] | undefined;
  timer: TimerHandle | undefined;
  #head = 0;

  get size(): number {
    return this.entries.length - this.#head;
  }

  /** The records still in the batch, in order. */
  live(): QueuedRecord[] {
    return this.#head === 0 ? this.entries : this.entries.slice(this.#head);
  }

  shift(): QueuedRecord | undefined {
    const entry = this.entries[this.#head];
    if (entry === undefined) return undefined;
    this.entries[this.#head] = undefined as unknown as QueuedRecord;
    this.#head++;
    this.bytes -= entry.bytes;
    this.units = undefined;
    return entry;
  }

  /** Keeps only the records `keep` accepts (members a UDP batch form could not carry). */
  retain(keep: (entry: QueuedRecord) => boolean): void {
    const kept = this.live().filter(keep);
    this.entries.length = 0;
    this.entries.push(...kept);
    this.#head = 0;
    this.bytes = kept.reduce((sum, entry) => sum + entry.bytes, 0);
    this.units = undefined;
  }
}

export interface EmitterQueueOptions {
  clock: Clock;
  /** A batch closes at this many records (BATCH MAX SIZE), or never by count. */
  maxRecords: number;
  /** A batch closes at this many bytes. */
  maxBytes: number;
  /** A batch closes this long after its first record (BATCH MAX TIME), or never by time. */
  maxTimeMs: number | undefined;
  /** A batch closed by time (the emitter may write it now). */
  onTimeClose: () => void;
}

export class EmitterQueue {
  readonly #options: EmitterQueueOptions;
  #batches: Batch[] = [];
  #head = 0;
  #records = 0;
  #bytes = 0;

  constructor(options: EmitterQueueOptions) {
    this.#options = options;
  }

  get records(): number {
    return this.#records;
  }

  get bytes(): number {
    return this.#bytes;
  }

  front(): Batch | undefined {
    return this.#batches[this.#head];
  }

  /** Appends to the open batch (opening one), closing it when it is full. */
  push(entry: QueuedRecord): void {
    let batch = this.#batches[this.#batches.length - 1];
    if (batch === undefined || batch.closed || this.#batches.length === this.#head) {
      batch = new Batch();
      this.#batches.push(batch);
      const { maxTimeMs, clock } = this.#options;
      if (maxTimeMs !== undefined) {
        const opened = batch;
        batch.timer = clock.setTimeout(() => {
          opened.timer = undefined;
          this.close(opened);
          this.#options.onTimeClose();
        }, maxTimeMs);
      }
    }
    batch.entries.push(entry);
    batch.bytes += entry.bytes;
    batch.units = undefined;
    this.#records++;
    this.#bytes += entry.bytes;
    if (batch.size >= this.#options.maxRecords || batch.bytes >= this.#options.maxBytes) this.close(batch);
  }

  close(batch: Batch): void {
    batch.closed = true;
    if (batch.timer !== undefined) this.#options.clock.clearTimeout(batch.timer);
    batch.timer = undefined;
  }

  /** Closes the open batch, if any. */
  closeOpen(): void {
    const last = this.#batches[this.#batches.length - 1];
    if (last !== undefined && this.#batches.length > this.#head) this.close(last);
  }

  /** Removes the front batch (written, or emptied). */
  removeFront(): Batch | undefined {
    const batch = this.#batches[this.#head];
    if (batch === undefined) return undefined;
    this.close(batch);
    this.#batches[this.#head] = undefined as unknown as Batch;
    this.#head++;
    this.#records -= batch.size;
    this.#bytes -= batch.bytes;
    if (this.#head > 1024 && this.#head * 2 > this.#batches.length) {
      this.#batches = this.#batches.slice(this.#head);
      this.#head = 0;
    }
    return batch;
  }

  /** Accounts for a batch that changed in place (`Batch.retain`): `records` and `bytes` it lost. */
  shrunk(records: number, bytes: number): void {
    this.#records -= records;
    this.#bytes -= bytes;
  }

  /** Evicts the oldest record outside `inFlight`; undefined when there is none. */
  evictOldest(inFlight: Batch | undefined): QueuedRecord | undefined {
    let index = this.#head;
    if (inFlight !== undefined && this.#batches[index] === inFlight) index++;
    const batch = this.#batches[index];
    if (batch === undefined) return undefined;
    const entry = batch.shift();
    if (entry === undefined) return undefined;
    this.#records--;
    this.#bytes -= entry.bytes;
    if (batch.size === 0) this.#removeAt(index);
    return entry;
  }

  /** Empties the queue; returns how many records it held. */
  clear(): number {
    const count = this.#records;
    while (this.removeFront() !== undefined);
    this.#batches = [];
    this.#head = 0;
    return count;
  }

  #removeAt(index: number): void {
    const batch = this.#batches[index];
    if (batch === undefined) return;
    this.close(batch);
    if (index === this.#head) {
      this.removeFront();
      return;
    }
    this.#batches.splice(index, 1);
  }
}

// One subscriber connection: a bounded queue of records in front of a writable stream (the HTTP response).
// The graph hands records in with `offer`, which never waits: the record is queued (evicting the oldest
// when the queue is full, which the owner counts as `subscriber_overflow`) and a write is scheduled for
// the end of the current event-loop turn (setImmediate), so the records of every request handled in one
// turn go out in one socket write, not one write per record (a write per record cost as much as the
// 202 response itself; test/bench/http.bench.ts). Records are serialized lazily, when written, so a
// record evicted from the queue costs no serialization. Lines are written in chunks while `write()`
// returns true; after a false the member waits for 'drain' and the queue takes the records meanwhile.
//
//   pending ─open→ open ─end(reason)→ ending ─queue written→ output.end(reason) ┐
//      └─end(reason)→ (ending once opened)                                     ├→ closed (stream 'close')
//   any ─client disconnects→ closed: the records still queued are handed to the owner as discarded ┘
import type { Writable } from 'node:stream';
import type { RecordValues } from '../core/values.js';
import { DropOldestQueue } from './drop-oldest-queue.js';
import { recordToJson } from './record-json.js';

/** Where a member's lines go. */
export interface SubscriberOutput {
  stream: Writable;
  /**
   * Whether the client can no longer receive anything (its connection is destroyed) although the stream
   * has not said so yet: nothing is handed to it then, so what is queued is counted when 'close' comes.
   */
  gone(): boolean;
  /** Ends the stream after the last line; `reason` says why (the admin server sends it as a trailer). */
  end(reason: string): void;
}

/** What the member reports to its group. */
export interface MemberOwner {
  /** The queue was full and its oldest record was evicted for a new one. */
  overflowed(): void;
  /** The stream closed (finished or the client went away) with `discarded` records still queued. */
  closed(member: SubscriptionMember, discarded: number): void;
}

export type MemberState = 'pending' | 'open' | 'ending' | 'closed';

/** Lines are joined into writes of about this many UTF-16 units (one socket write each). */
const CHUNK_CHARS = 16 * 1024;

export class SubscriptionMember {
  readonly #queue: DropOldestQueue<Readonly<RecordValues>>;
  readonly #output: SubscriberOutput;
  readonly #owner: MemberOwner;
  #state: MemberState = 'pending';
  #endReason: string | undefined;
  #waitingDrain = false;
  #writeQueued = false;
  #written = 0;
  #finished = false;

  constructor(output: SubscriberOutput, capacity: number, owner: MemberOwner) {
    this.#queue = new DropOldestQueue(capacity);
    this.#output = output;
    this.#owner = owner;
    output.stream.on('close', this.#onClose);
    // A failed socket write surfaces as 'close' too; without a listener an 'error' would be thrown.
    output.stream.on('error', () => {});
  }

  get state(): MemberState {
    return this.#state;
  }

  get full(): boolean {
    return this.#queue.full;
  }

  get queued(): number {
    return this.#queue.length;
  }

  get capacity(): number {
    return this.#queue.capacity;
  }

  /** Whether the stream was ended after its last line (false: the client went away first). */
  get finished(): boolean {
    return this.#finished;
  }

  /** Records handed to the stream so far. */
  get written(): number {
    return this.#written;
  }

  /** Takes a record; never waits, never throws. */
  offer(record: Readonly<RecordValues>): void {
    if (this.#queue.push(record)) this.#owner.overflowed();
    this.#schedule();
  }

  /** The response head is out: start writing. */
  open(): void {
    if (this.#state !== 'pending') return;
    this.#state = this.#endReason === undefined ? 'open' : 'ending';
    this.#schedule();
  }

  /** No more records will come: write what is queued, then end the stream with `reason`. */
  end(reason: string): void {
    if (this.#endReason !== undefined || this.#state === 'closed') return;
    this.#endReason = reason;
    if (this.#state === 'open') this.#state = 'ending';
    this.#schedule();
  }

  #schedule(): void {
    if (this.#writeQueued || this.#waitingDrain) return;
    if (this.#state !== 'open' && this.#state !== 'ending') return;
    this.#writeQueued = true;
    setImmediate(this.#write);
  }

  readonly #write = (): void => {
    this.#writeQueued = false;
    if (!this.#writable()) return;
    const stream = this.#output.stream;
    while (this.#queue.length > 0) {
      if (!stream.write(this.#nextChunk())) {
        this.#waitingDrain = true;
        stream.once('drain', this.#onDrain);
        return;
      }
    }
    if (this.#state !== 'ending') return;
    this.#finished = true;
    this.#output.end(this.#endReason ?? '');
  };

  #writable(): boolean {
    if (this.#waitingDrain || (this.#state !== 'open' && this.#state !== 'ending')) return false;
    const stream = this.#output.stream;
    // A stream that is gone emits 'close' (handled there): writing would lose the records uncounted.
    return !(stream.destroyed || stream.writableEnded || this.#output.gone());
  }

  /** The next queued lines, up to about CHUNK_CHARS. */
  #nextChunk(): string {
    let chunk = '';
    let count = 0;
    for (let record = this.#queue.shift(); record !== undefined; record = this.#queue.shift()) {
      chunk += recordToJson(record) + '\n';
      count++;
      if (chunk.length >= CHUNK_CHARS) break;
    }
    this.#written += count;
    return chunk;
  }

  readonly #onDrain = (): void => {
    this.#waitingDrain = false;
    this.#write();
  };

  readonly #onClose = (): void => {
    if (this.#state === 'closed') return;
    this.#state = 'closed';
    this.#owner.closed(this, this.#queue.clear());
  };
}

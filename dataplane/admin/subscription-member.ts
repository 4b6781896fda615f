// One subscriber connection: a writable stream (the HTTP response) that takes chunks of lines from its
// subscription while the connection takes data. It holds no records of its own: the lines wait in the
// relay's LineLog (one copy for every subscriber, subscription-feed.ts) until a member of the subscription
// is ready, so a member that stopped reading costs no memory beyond what its socket already holds (at most
// the stream's high-water mark plus one chunk). After a write() that returns false it waits for 'drain'
// and asks to be woken; `buffer` is how many records its subscription may lag behind by for it.
//
//   pending ─open→ open ─end(reason)→ ending ─subscription written→ output.end(reason) ┐
//      └─end(reason)→ (ending once opened)                                            ├→ closed ('close')
//   any ─client disconnects→ closed                                                    ┘
import type { Writable } from 'node:stream';

/** Where a member's lines go. */
export interface SubscriberOutput {
  stream: Writable;
  /**
   * Whether the client can no longer receive anything (its connection is destroyed) although the stream
   * has not said so yet: nothing is handed to it then.
   */
  gone(): boolean;
  /** Ends the stream after the last line; `reason` says why (the admin server sends it as a trailer). */
  end(reason: string): void;
}

/** What the member reports to its subscription. */
export interface MemberOwner {
  /** The member may take lines now (opened, drained). */
  wake(): void;
  /** The stream closed (finished or the client went away). */
  closed(member: SubscriptionMember): void;
}

export type MemberState = 'pending' | 'open' | 'ending' | 'closed';

export class SubscriptionMember {
  /** The records its subscription may lag behind by for this member (`?buffer=N`). */
  readonly buffer: number;
  readonly #output: SubscriberOutput;
  readonly #owner: MemberOwner;
  #state: MemberState = 'pending';
  #endReason: string | undefined;
  #waitingDrain = false;
  #written = 0;
  #finished = false;

  constructor(output: SubscriberOutput, buffer: number, owner: MemberOwner) {
    this.buffer = buffer;
    this.#output = output;
    this.#owner = owner;
    output.stream.on('close', this.#onClose);
    // A failed socket write surfaces as 'close' too; without a listener an 'error' would be thrown.
    output.stream.on('error', () => {});
  }

  get state(): MemberState {
    return this.#state;
  }

  /** Whether the stream was ended after its last line (false: the client went away first). */
  get finished(): boolean {
    return this.#finished;
  }

  /** Records handed to the stream so far. */
  get written(): number {
    return this.#written;
  }

  /** Whether it takes a chunk now: open (or ending), not waiting for 'drain', the connection there. */
  get ready(): boolean {
    if (this.#waitingDrain || this.#finished) return false;
    if (this.#state !== 'open' && this.#state !== 'ending') return false;
    const stream = this.#output.stream;
    // A stream that is gone emits 'close' (handled there): writing would lose the lines uncounted.
    return !(stream.destroyed || stream.writableEnded || this.#output.gone());
  }

  /** The response head is out: start taking lines. */
  open(): void {
    if (this.#state !== 'pending') return;
    this.#state = this.#endReason === undefined ? 'open' : 'ending';
    this.#owner.wake();
  }

  /** No more lines will come after what the subscription holds: take those, then end with `reason`. */
  end(reason: string): void {
    if (this.#endReason !== undefined || this.#state === 'closed') return;
    this.#endReason = reason;
    if (this.#state === 'open') this.#state = 'ending';
    this.#owner.wake();
  }

  /** Writes `chunk` (`count` lines); only while `ready`. */
  take(chunk: Buffer, count: number): void {
    this.#written += count;
    if (this.#output.stream.write(chunk)) return;
    this.#waitingDrain = true;
    this.#output.stream.once('drain', this.#onDrain);
  }

  /** Ends the stream once it is ending and ready (the subscription has nothing more for it). */
  finishIfDone(): void {
    if (this.#state !== 'ending' || !this.ready) return;
    this.#finished = true;
    this.#output.end(this.#endReason ?? '');
  }

  readonly #onDrain = (): void => {
    this.#waitingDrain = false;
    this.#owner.wake();
  };

  readonly #onClose = (): void => {
    if (this.#state === 'closed') return;
    this.#state = 'closed';
    this.#output.stream.off('drain', this.#onDrain);
    this.#owner.closed(this);
  };
}

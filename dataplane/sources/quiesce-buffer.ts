// ON QUIESCE BUFFER | DROP (docs/http-ingestion.md, "ON QUIESCE"; docs/syslog-wire.md, "Listeners"): while a
// source is quiesced, reading continues and what arrives is either kept in a bounded buffer or discarded.
// Every item that is not delivered is a counted drop with its reason; nothing is lost silently. SUSPEND is
// not handled here: it stops reading on the socket, and only a socket source (syslog TCP/TLS/UDP) can do
// that, so an HTTP ingestor never uses it.
//
// States: open (items go straight to `deliver`) → quiesced (BUFFER keeps, DROP discards) → draining (on
// resume the buffer is delivered in arrival order, a batch per turn; what arrives meanwhile queues behind
// it) → open. `stop()` from any state drops what is buffered (reason `stopped`) and refuses later items.
import type { GraphQuiesce } from '../graph/types.js';

/** The policies this buffer implements; SUSPEND belongs to the socket that stops reading. */
export type BufferingPolicy = Exclude<GraphQuiesce, { action: 'SUSPEND' }>;

export type QuiesceDropReason =
  /** ON QUIESCE DROP: everything arriving while quiesced. */
  | 'quiesce_drop'
  /** BUFFER … DROP OLDEST: the oldest buffered item, evicted to make room. */
  | 'overflow_drop_oldest'
  /** BUFFER … DROP NEWEST: the arriving item, because the buffer is full. */
  | 'overflow_drop_newest'
  /** An item larger than MAX SIZE on its own (either overflow mode): it could never fit. */
  | 'larger_than_buffer'
  /** Buffered when the source stopped, or arriving after it. */
  | 'stopped'
  /** `deliver` threw while the buffer was being drained. */
  | 'deliver_failed';

export const QUIESCE_DROP_REASONS: readonly QuiesceDropReason[] = [
  'quiesce_drop',
  'overflow_drop_oldest',
  'overflow_drop_newest',
  'larger_than_buffer',
  'stopped',
  'deliver_failed',
];

export type QuiesceState = 'open' | 'quiesced' | 'draining' | 'stopped';
export type OfferResult = 'delivered' | 'buffered' | 'dropped';

export interface QuiesceBufferOptions<T> {
  policy: BufferingPolicy;
  /** Bytes an item counts against MAX SIZE (the payload length). */
  sizeOf: (item: T) => number;
  deliver: (item: T) => void;
  /** Called once per dropped item; counting and logging belong to the owner's telemetry. */
  onDrop?: (reason: QuiesceDropReason, bytes: number) => void;
  /** Items delivered per turn while draining (default 1024); the rest follow on a later turn. */
  drainBatch?: number;
  /** How draining yields between batches (default `setImmediate`). */
  defer?: (continuation: () => void) => void;
}

interface Slot<T> {
  item: T;
  bytes: number;
}

export class QuiesceBuffer<T> {
  readonly #policy: BufferingPolicy;
  readonly #sizeOf: (item: T) => number;
  readonly #onDrop: (reason: QuiesceDropReason, bytes: number) => void;
  readonly #drainBatch: number;
  readonly #defer: (continuation: () => void) => void;
  #deliver: (item: T) => void;
  #state: QuiesceState = 'open';
  /** A queue: live items are `#slots[#head…]`. */
  #slots: Slot<T>[] = [];
  #head = 0;
  #bytes = 0;
  #drained: (() => void)[] = [];
  readonly #dropped = new Map<QuiesceDropReason, { items: number; bytes: number }>();

  constructor(options: QuiesceBufferOptions<T>) {
    this.#policy = options.policy;
    this.#sizeOf = options.sizeOf;
    this.#deliver = options.deliver;
    this.#onDrop = options.onDrop ?? (() => {});
    this.#drainBatch = Math.max(1, options.drainBatch ?? 1024);
    this.#defer = options.defer ?? ((continuation) => void setImmediate(continuation));
  }

  get state(): QuiesceState {
    return this.#state;
  }

  /** Items and bytes waiting for resume. */
  get buffered(): { items: number; bytes: number } {
    return { items: this.#slots.length - this.#head, bytes: this.#bytes };
  }

  /** Drops so far, by reason (reasons with none are absent). */
  get dropped(): ReadonlyMap<QuiesceDropReason, { items: number; bytes: number }> {
    return this.#dropped;
  }

  /** Delivers now when open; otherwise buffers or drops according to the policy. */
  offer(item: T): OfferResult {
    if (this.#state === 'open') {
      this.#deliver(item);
      return 'delivered';
    }
    const bytes = this.#sizeOf(item);
    if (this.#state === 'stopped') return this.#drop('stopped', bytes);
    if (this.#policy.action === 'DROP') return this.#drop('quiesce_drop', bytes);
    return this.#keep(item, bytes, this.#policy);
  }

  /** Stops delivering; later items are buffered or dropped. Also interrupts a drain in progress. */
  quiesce(): void {
    if (this.#state === 'open' || this.#state === 'draining') this.#state = 'quiesced';
  }

  /**
   * Delivers the buffer in arrival order, then opens. Resolves once the buffer is empty and the state is
   * open (or when a later `quiesce()` or `stop()` interrupts the drain).
   */
  resume(): Promise<void> {
    if (this.#state !== 'quiesced' && this.#state !== 'draining') return Promise.resolve();
    const done = new Promise<void>((resolve) => this.#drained.push(resolve));
    if (this.#state === 'quiesced') {
      this.#state = 'draining';
      this.#drainSome();
    }
    return done;
  }

  /** Delivers later items (and the buffer, on resume) to another function: a swapped component. */
  retarget(deliver: (item: T) => void): void {
    this.#deliver = deliver;
  }

  /** Drops the buffer (reason `stopped`) and refuses everything later. Returns the number dropped. */
  stop(): number {
    const count = this.#slots.length - this.#head;
    for (let slot = this.#shift(); slot !== undefined; slot = this.#shift())
      this.#count('stopped', slot.bytes);
    this.#state = 'stopped';
    this.#settleDrain();
    return count;
  }

  #keep(item: T, bytes: number, policy: Extract<BufferingPolicy, { action: 'BUFFER' }>): OfferResult {
    if (bytes > policy.maxBytes) return this.#drop('larger_than_buffer', bytes);
    if (this.#bytes + bytes > policy.maxBytes) {
      if (policy.onOverflow === 'DROP_NEWEST') return this.#drop('overflow_drop_newest', bytes);
      while (this.#bytes + bytes > policy.maxBytes) {
        const oldest = this.#shift();
        if (oldest === undefined) break;
        this.#count('overflow_drop_oldest', oldest.bytes);
      }
    }
    this.#slots.push({ item, bytes });
    this.#bytes += bytes;
    return 'buffered';
  }

  #drainSome(): void {
    for (let n = 0; n < this.#drainBatch && this.#state === 'draining'; n++) {
      const slot = this.#shift();
      if (slot === undefined) {
        this.#state = 'open';
        break;
      }
      this.#deliverDrained(slot);
    }
    if (this.#state === 'draining') this.#defer(() => this.#drainSome());
    else this.#settleDrain();
  }

  #deliverDrained(slot: Slot<T>): void {
    try {
      this.#deliver(slot.item);
    } catch {
      this.#count('deliver_failed', slot.bytes);
    }
  }

  #shift(): Slot<T> | undefined {
    const slot = this.#slots[this.#head];
    if (slot === undefined) return undefined;
    this.#head++;
    this.#bytes -= slot.bytes;
    if (this.#head === this.#slots.length) {
      this.#slots = [];
      this.#head = 0;
    } else if (this.#head > 1024 && this.#head * 2 > this.#slots.length) {
      this.#slots = this.#slots.slice(this.#head);
      this.#head = 0;
    }
    return slot;
  }

  #drop(reason: QuiesceDropReason, bytes: number): OfferResult {
    this.#count(reason, bytes);
    return 'dropped';
  }

  #count(reason: QuiesceDropReason, bytes: number): void {
    const entry = this.#dropped.get(reason);
    if (entry === undefined) this.#dropped.set(reason, { items: 1, bytes });
    else {
      entry.items++;
      entry.bytes += bytes;
    }
    this.#onDrop(reason, bytes);
  }

  #settleDrain(): void {
    const waiting = this.#drained;
    this.#drained = [];
    for (const resolve of waiting) resolve();
  }
}

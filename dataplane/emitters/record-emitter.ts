// What every emitter does with the records of its relay (docs/syslog-wire.md and docs/kafka.md, "Emitters"):
// takes them, encodes them in arrival order, checks that each can be carried by the transport, and queues
// them; delivery-loop.ts writes the queue in batches over one sender, rebuilding the sender whenever it
// fails. What is transport-specific — what a message weighs, what a batch becomes on the wire, how a sender
// is opened — is the emitter's EmitterTransport (syslog-emitter.ts, kafka-emitter.ts).
//
// Delivery is at-least-once per batch: a batch leaves the queue only when its write succeeded, so records
// of a batch that failed half-way may arrive twice, never not at all. The queue is bounded in bytes
// (maxQueuedBytes); beyond it the oldest record not being written is dropped ('emitter_queue_full').
// stop(graceMs): while connected, flush for up to graceMs → Stopped (what is still queued: drop 'stopped').
//
// Writes: without BATCH, everything encoded since the last write goes out in one write (a burst is a
// handful of syscalls, not one per record), up to MAX_WRITE_BYTES each. With BATCH MAX SIZE n MAX TIME d a
// batch closes at n records or d ms after its first record.
import type { Logger } from 'pino';
import type { Codec, EncodeResult } from '../codecs/codec.js';
import type { GraphEmitter } from '../graph/types.js';
import type { Clock } from '../core/clock.js';
import type { HandleFailure } from '../flow/error-policy.js';
import type { MessageError } from '../core/errors.js';
import type { ComponentTelemetry } from '../core/telemetry.js';
import { DEFAULT_DROP_LOG_INTERVAL_MS, ThrottledDrops } from '../core/throttled-drops.js';
import type { RecordValues } from '../core/values.js';
import { DeliveryLoop, type UnitKind } from './delivery-loop.js';
import { EmitterQueue, type Batch } from './emitter-queue.js';
import { emptyStats, type EmitterStats, type EmitterStatus } from './emitter-status.js';
import { OrderedEncoder } from './ordered-encoder.js';
import type { Sender } from './sender.js';

export type { EmitterStats, EmitterStatus } from './emitter-status.js';

export const DEFAULT_MAX_QUEUED_BYTES = 64 * 1024 * 1024;
export const DEFAULT_STOP_GRACE_MS = 2_000;
/** Largest single write without a BATCH clause. */
export const MAX_WRITE_BYTES = 1024 * 1024;

/** What an emitter's transport decides. */
export interface EmitterTransport<Unit> {
  /** The target as logs and errors name it (`host:port`, the brokers). */
  where: string;
  units: UnitKind<Unit>;
  /** Why an encoded message cannot be carried at all (too large for a datagram …), else undefined. */
  check(message: Uint8Array): MessageError | undefined;
  /** What a queued message weighs against the queue's bound. */
  bytesOf(message: Uint8Array): number;
  /** What one write of the batch sends. */
  unitsOf(batch: Batch): Promise<Unit[]>;
  open(log: Logger): Promise<Sender<Unit>>;
}

/** What the transport may call back into: the queue, and the message error policy. */
export interface TransportHooks {
  queue: EmitterQueue;
  messageError: (record: Readonly<RecordValues>, error: MessageError) => void;
}

export interface RecordEmitterOptions<Unit> {
  domain: string;
  name: string;
  spec: GraphEmitter;
  codec: Codec;
  transport(hooks: TransportHooks): EmitterTransport<Unit>;
  onMessageError: HandleFailure;
  telemetry: ComponentTelemetry;
  logger: Logger;
  clock: Clock;
  maxQueuedBytes?: number;
}

export class RecordEmitter<Unit> {
  readonly #o: RecordEmitterOptions<Unit>;
  readonly #log: Logger;
  readonly #where: string;
  readonly #queue: EmitterQueue;
  readonly #encoder: OrderedEncoder;
  readonly #wire: EmitterTransport<Unit>;
  readonly #maxQueuedBytes: number;
  readonly #overflow: ThrottledDrops;
  readonly #late: ThrottledDrops;
  readonly #stats: EmitterStats = emptyStats();
  readonly #loop: DeliveryLoop<Unit>;
  #started = false;
  #stopping: Promise<void> | undefined;
  #idleWaiters: (() => void)[] = [];

  constructor(options: RecordEmitterOptions<Unit>) {
    this.#o = options;
    const { spec, clock, telemetry, name } = options;
    this.#maxQueuedBytes = options.maxQueuedBytes ?? DEFAULT_MAX_QUEUED_BYTES;
    this.#encoder = new OrderedEncoder(options.codec, (record, result) => this.#accept(record, result));
    this.#queue = new EmitterQueue({
      clock,
      maxRecords: spec.batch?.maxSize ?? Number.POSITIVE_INFINITY,
      maxBytes: spec.batch === undefined ? MAX_WRITE_BYTES : Number.POSITIVE_INFINITY,
      maxTimeMs: spec.batch?.maxTimeMs,
      onTimeClose: () => this.#loop.schedulePump(),
    });
    this.#wire = options.transport({
      queue: this.#queue,
      messageError: (record, error) => this.#messageError(record, error),
    });
    this.#where = this.#wire.where;
    this.#log = options.logger.child({
      component: 'emitter',
      domain: options.domain,
      name,
      target: this.#where,
    });
    this.#loop = new DeliveryLoop({
      open: (log) => this.#wire.open(log),
      clock,
      units: this.#wire.units,
      spec,
      telemetry,
      log: this.#log,
      where: this.#where,
      queue: this.#queue,
      stats: this.#stats,
      unitsOf: (batch) => this.#wire.unitsOf(batch),
      holdsOpen: () => spec.batch !== undefined && this.#stopping === undefined,
      settled: () => this.#checkIdle(),
    });
    const timing = { clock, intervalMs: DEFAULT_DROP_LOG_INTERVAL_MS, extra: { target: this.#where } };
    this.#overflow = new ThrottledDrops(
      telemetry,
      'emitter_queue_full',
      `emitter ${name}: the queue for ${this.#where} was full; the oldest records went`,
      timing,
    );
    this.#late = new ThrottledDrops(telemetry, 'stopped', `emitter ${name} was stopped`, timing);
  }

  get status(): EmitterStatus {
    return {
      ...this.#loop.status(),
      queuedRecords: this.#encoder.pending + this.#queue.records,
      queuedBytes: this.#queue.bytes,
      stats: { ...this.#stats },
    };
  }

  readonly take = (record: Readonly<RecordValues>): void => {
    this.#o.telemetry.recordsIn(1);
    if (this.#stopping !== undefined) {
      this.#late.add(1);
      return;
    }
    this.#encoder.push(record);
  };

  /** Opens the sender now, so that a target that is down shows as Retrying before any record. */
  start(): void {
    if (this.#started || this.#stopping !== undefined) return;
    this.#started = true;
    this.#loop.open();
  }

  stop(graceMs = DEFAULT_STOP_GRACE_MS): Promise<void> {
    this.#stopping ??= this.#stop(graceMs);
    return this.#stopping;
  }

  async #stop(graceMs: number): Promise<void> {
    this.#queue.closeOpen();
    this.#loop.schedulePump();
    // The grace is for writing into a live connection; a target that is down gets no wait.
    const connected = this.#loop.state === 'Running';
    if (graceMs > 0 && this.#started && connected && !this.#idle()) await this.#drained(graceMs);
    this.#loop.close();
    const left = this.#encoder.clear() + this.#queue.clear();
    if (left > 0) {
      const message = `emitter ${this.#o.name} stopped with records not delivered`;
      this.#o.telemetry.dropMany('stopped', left, message, { target: this.#where });
    }
    this.#overflow.flush();
    this.#late.flush();
    this.#log.info({ event: 'emitter_stopped', undelivered: left }, 'emitter stopped');
  }

  // ── encoding ──────────────────────────────────────────────────────────────────────────────────────

  #accept(record: Readonly<RecordValues>, result: EncodeResult): void {
    if ('error' in result) {
      this.#messageError(record, result.error);
      return;
    }
    const message = result.bytes;
    const error = this.#wire.check(message);
    if (error !== undefined) {
      this.#messageError(record, error);
      return;
    }
    this.#queue.push({ record, message, bytes: this.#wire.bytesOf(message) });
    while (this.#queue.bytes > this.#maxQueuedBytes) {
      if (this.#queue.evictOldest(this.#loop.inFlight) === undefined) break;
      this.#stats.droppedQueueFull++;
      this.#overflow.add(1);
    }
    this.#loop.schedulePump();
    this.#checkIdle();
  }

  #messageError(record: Readonly<RecordValues>, error: MessageError): void {
    this.#stats.messageErrors++;
    this.#o.onMessageError({ error, scope: { input: record } });
    this.#checkIdle();
  }

  // ── draining on stop ──────────────────────────────────────────────────────────────────────────────

  #idle(): boolean {
    return this.#encoder.pending === 0 && this.#queue.records === 0 && this.#loop.inFlight === undefined;
  }

  #checkIdle(): void {
    if (this.#idleWaiters.length === 0 || !this.#idle()) return;
    const waiters = this.#idleWaiters;
    this.#idleWaiters = [];
    for (const resolve of waiters) resolve();
  }

  /** Resolves when the queue is empty, or after `graceMs`. */
  #drained(graceMs: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = this.#o.clock.setTimeout(resolve, graceMs);
      this.#idleWaiters.push(() => {
        this.#o.clock.clearTimeout(timer);
        resolve();
      });
    });
  }
}

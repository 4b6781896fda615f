// The syslog emitter (docs/syslog-wire.md, "Emitters"): takes the records of its relay, encodes them in
// arrival order, checks that each can be framed for the client's transport, and queues them; delivery-loop.ts
// writes the queue in batches over one sender, rebuilding the sender whenever it fails.
//
// Delivery is at-least-once per batch: a batch leaves the queue only when its write succeeded, so records
// of a batch that failed half-way may arrive twice, never not at all. The queue is bounded in bytes
// (maxQueuedBytes); beyond it the oldest record not being written is dropped ('emitter_queue_full').
// stop(graceMs): while connected, flush for up to graceMs → Stopped (what is still queued: drop 'stopped').
//
// Writes: without BATCH, everything encoded since the last write goes out in one write (a burst is a
// handful of syscalls, not one per record), up to MAX_WRITE_BYTES each; on TCP/TLS its frames are written
// into one buffer then (framing.ts). With BATCH MAX SIZE n MAX TIME d a batch closes at n records or d ms
// after its first record. UDP sends one datagram per record, or with BATCH and a SYSLOG codec one datagram
// per batch in the batch form (batch-units.ts: split in halves above the UDP limit; a single member still
// too large is SR3030, never sent bare, so every datagram of a batching emitter has the same shape).
import type { Logger } from 'pino';
import type { Codec, EncodeResult } from '../codecs/codec.js';
import type { GraphEmitter, GraphSyslogClient } from '../graph/types.js';
import type { Clock } from '../core/clock.js';
import type { HandleFailure } from '../flow/error-policy.js';
import type { MessageError } from '../core/errors.js';
import type { ComponentTelemetry } from '../core/telemetry.js';
import { DEFAULT_DROP_LOG_INTERVAL_MS, ThrottledDrops } from '../core/throttled-drops.js';
import type { RecordValues } from '../core/values.js';
import { DeliveryLoop } from './delivery-loop.js';
import type { Resolver } from './connect-budget.js';
import { EmitterQueue } from './emitter-queue.js';
import { emptyStats, type EmitterStats, type EmitterStatus } from './emitter-status.js';
import { OrderedEncoder } from './ordered-encoder.js';
import { hostPort } from './sender.js';
import type { EmitterTlsMaterial } from './stream-sender.js';
import { WireUnits } from './wire-units.js';

export type { ResolvedAddress, Resolver } from './connect-budget.js';
export type { EmitterStats, EmitterStatus } from './emitter-status.js';
export type { EmitterTlsMaterial } from './stream-sender.js';

export const DEFAULT_MAX_QUEUED_BYTES = 64 * 1024 * 1024;
export const DEFAULT_STOP_GRACE_MS = 2_000;
/** Largest single write without a BATCH clause. */
export const MAX_WRITE_BYTES = 1024 * 1024;

export interface SyslogEmitterOptions {
  domain: string;
  name: string;
  spec: GraphEmitter;
  client: GraphSyslogClient;
  codec: Codec;
  tls?: EmitterTlsMaterial;
  onMessageError: HandleFailure;
  telemetry: ComponentTelemetry;
  logger: Logger;
  clock: Clock;
  resolve?: Resolver;
  connectBudgetMs?: number;
  maxQueuedBytes?: number;
}

export class SyslogEmitter {
  readonly #o: SyslogEmitterOptions;
  readonly #log: Logger;
  readonly #where: string;
  readonly #queue: EmitterQueue;
  readonly #encoder: OrderedEncoder;
  readonly #wire: WireUnits;
  readonly #maxQueuedBytes: number;
  readonly #overflow: ThrottledDrops;
  readonly #late: ThrottledDrops;
  readonly #stats: EmitterStats = emptyStats();
  readonly #loop: DeliveryLoop;
  #started = false;
  #stopping: Promise<void> | undefined;
  #idleWaiters: (() => void)[] = [];

  constructor(options: SyslogEmitterOptions) {
    this.#o = options;
    const { client, spec, clock, telemetry, name } = options;
    this.#where = hostPort(client.host, client.port);
    this.#log = options.logger.child({
      component: 'emitter',
      domain: options.domain,
      name,
      target: this.#where,
    });
    this.#maxQueuedBytes = options.maxQueuedBytes ?? DEFAULT_MAX_QUEUED_BYTES;
    this.#encoder = new OrderedEncoder(options.codec, (record, result) => this.#accept(record, result));
    this.#queue = new EmitterQueue({
      clock,
      maxRecords: spec.batch?.maxSize ?? Number.POSITIVE_INFINITY,
      maxBytes: spec.batch === undefined ? MAX_WRITE_BYTES : Number.POSITIVE_INFINITY,
      maxTimeMs: spec.batch?.maxTimeMs,
      onTimeClose: () => this.#loop.schedulePump(),
    });
    this.#wire = new WireUnits({
      client,
      codec: options.codec,
      batching: spec.batch !== undefined,
      queue: this.#queue,
      onMemberError: (record, error) => this.#messageError(record, error),
    });
    this.#loop = new DeliveryLoop({
      target: options,
      spec,
      telemetry,
      log: this.#log,
      where: this.#where,
      queue: this.#queue,
      stats: this.#stats,
      unitsOf: (batch) => this.#wire.of(batch),
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

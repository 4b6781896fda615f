// The syslog emitter (spec §2.11, §4.4, §7): takes the records of its relay, encodes them in arrival
// order, frames them for the client's transport, and writes them in batches over one sender, rebuilding
// the sender whenever it fails.
//
//   Starting ─sender open→ Running ─write fails / peer resets / peer closes before any write─┐
//      ▲  │ open fails (DNS, refused, timeout, TLS)                                           │
//      │  ▼                                                                                   ▼
//      └─ Retrying ◀──────────────────────── keep the batch, close the sender, wait ──────────┘
//   backoff: RETRY POLICY BACKOFF, doubling up to MAX, reset by a successful write.
//   A peer that closes cleanly after the connection delivered is reopened at once, without waiting.
//   any ─stop(graceMs)→ while connected, flush for up to graceMs → Stopped (what is still queued: drop
//                       'stopped')
//
// Delivery is at-least-once per batch: a batch leaves the queue only when its write succeeded, so records
// of a batch that failed half-way may arrive twice, never not at all. The queue is bounded in bytes
// (maxQueuedBytes); beyond it the oldest record not being written is dropped ('emitter_queue_full').
//
// Writes: without BATCH, everything encoded since the last write goes out in one write (a burst is a
// handful of syscalls, not one per record), up to MAX_WRITE_BYTES each. With BATCH MAX SIZE n MAX TIME d a
// batch closes at n records or d ms after its first record. UDP sends one datagram per record, or with
// BATCH and a SYSLOG codec one datagram per batch in the batch form (codecs/syslog/syslog-batch.ts). A
// batch form above the UDP limit is split in halves, recursively, down to single members; a single member
// whose batch form is still too large is the message error SR3030 (it is not sent bare: every datagram of
// a batching emitter has the same shape for the receiver).
import type { Logger } from 'pino';
import type { Codec, EncodeResult } from '../codecs/codec.js';
import type { GraphEmitter, GraphSyslogClient } from '../graph/types.js';
import type { Clock, TimerHandle } from '../runtime/clock.js';
import type { HandleFailure } from '../runtime/error-policy.js';
import type { MessageError } from '../runtime/errors.js';
import type { ComponentTelemetry } from '../runtime/telemetry.js';
import { DEFAULT_DROP_LOG_INTERVAL_MS, ThrottledDrops } from '../runtime/throttled-drops.js';
import type { RecordValues } from '../runtime/values.js';
import { batchUnits } from './batch-units.js';
import type { Resolver } from './connect-budget.js';
import { EmitterQueue, type Batch } from './emitter-queue.js';
import { emptyStats, type EmitterStats, type EmitterStatus } from './emitter-status.js';
import { datagramFrame, isFramingError, nonTransparentFrame, octetCountedFrame } from './framing.js';
import { PEER_CLOSED, hostPort, senderError, type Sender, type SenderError } from './sender.js';
import { OrderedEncoder } from './ordered-encoder.js';
import { openSender } from './open-sender.js';
import type { EmitterTlsMaterial } from './stream-sender.js';

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
  readonly #frame: (payload: Uint8Array) => Uint8Array | MessageError;
  readonly #batchForm: boolean;
  readonly #maxQueuedBytes: number;
  readonly #overflow: ThrottledDrops;
  readonly #late: ThrottledDrops;
  readonly #stats: EmitterStats = emptyStats();
  #state: EmitterStatus['state'] = 'Starting';
  #started = false;
  #stopping: Promise<void> | undefined;
  #closed = false;
  #sender: Sender | undefined;
  #delivered = false;
  #generation = 0;
  #error: { code: string; message: string } | null = null;
  #since: number | null = null;
  #nextDelayMs: number | null = null;
  #backoffMs: number;
  #failures = 0;
  #retryTimer: TimerHandle | undefined;
  #inFlight: Batch | undefined;
  #pumpQueued = false;
  #pumping = false;
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
    this.#backoffMs = spec.retry.backoffMs;
    this.#maxQueuedBytes = options.maxQueuedBytes ?? DEFAULT_MAX_QUEUED_BYTES;
    this.#batchForm =
      client.protocol === 'udp' && spec.batch !== undefined && options.codec.kind === 'syslog';
    this.#frame = framerOf(client);
    this.#encoder = new OrderedEncoder(options.codec, (record, result) => this.#accept(record, result));
    this.#queue = new EmitterQueue({
      clock,
      maxRecords: spec.batch?.maxSize ?? Number.POSITIVE_INFINITY,
      maxBytes: spec.batch === undefined ? MAX_WRITE_BYTES : Number.POSITIVE_INFINITY,
      maxTimeMs: spec.batch?.maxTimeMs,
      onTimeClose: () => this.#schedulePump(),
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
      state: this.#state,
      error: this.#error === null ? null : { ...this.#error },
      since: this.#since,
      backoffMs: this.#state === 'Retrying' ? this.#nextDelayMs : null,
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
    this.#open();
  }

  stop(graceMs = DEFAULT_STOP_GRACE_MS): Promise<void> {
    this.#stopping ??= this.#stop(graceMs);
    return this.#stopping;
  }

  async #stop(graceMs: number): Promise<void> {
    this.#queue.closeOpen();
    this.#schedulePump();
    // The grace is for writing into a live connection; a target that is down gets no wait.
    const connected = this.status.state === 'Running';
    if (graceMs > 0 && this.#started && connected && !this.#idle()) await this.#drained(graceMs);
    this.#closed = true;
    this.#generation++;
    if (this.#retryTimer !== undefined) this.#o.clock.clearTimeout(this.#retryTimer);
    this.#retryTimer = undefined;
    this.#sender?.close();
    this.#sender = undefined;
    const left = this.#encoder.clear() + this.#queue.clear();
    this.#inFlight = undefined;
    if (left > 0) {
      this.#o.telemetry.dropMany(
        'stopped',
        left,
        `emitter ${this.#o.name} stopped with records not delivered`,
        {
          target: this.#where,
        },
      );
    }
    this.#overflow.flush();
    this.#late.flush();
    this.#state = 'Stopped';
    this.#nextDelayMs = null;
    this.#log.info({ event: 'emitter_stopped', undelivered: left }, 'emitter stopped');
  }

  // ── encoding ──────────────────────────────────────────────────────────────────────────────────────

  #accept(record: Readonly<RecordValues>, result: EncodeResult): void {
    if ('error' in result) {
      this.#messageError(record, result.error);
      return;
    }
    const frame = this.#frame(result.bytes);
    if (isFramingError(frame)) {
      this.#messageError(record, frame);
      return;
    }
    this.#queue.push({ record, frame });
    while (this.#queue.bytes > this.#maxQueuedBytes) {
      if (this.#queue.evictOldest(this.#inFlight) === undefined) break;
      this.#stats.droppedQueueFull++;
      this.#overflow.add(1);
    }
    this.#schedulePump();
    this.#checkIdle();
  }

  #messageError(record: Readonly<RecordValues>, error: MessageError): void {
    this.#stats.messageErrors++;
    this.#o.onMessageError({ error, scope: { input: record } });
    this.#checkIdle();
  }

  // ── writing ───────────────────────────────────────────────────────────────────────────────────────

  #schedulePump(): void {
    if (this.#pumpQueued) return;
    this.#pumpQueued = true;
    queueMicrotask(() => {
      this.#pumpQueued = false;
      void this.#pump();
    });
  }

  async #pump(): Promise<void> {
    if (this.#pumping) return;
    this.#pumping = true;
    try {
      while (await this.#writeNext());
    } finally {
      this.#pumping = false;
      this.#checkIdle();
    }
  }

  /** Writes the front batch when it can; true when another may follow at once. */
  async #writeNext(): Promise<boolean> {
    const sender = this.#sender;
    const batch = this.#writable();
    if (this.#state !== 'Running' || sender === undefined || batch === undefined) return false;
    this.#inFlight = batch;
    const units = await this.#unitsOf(batch);
    if (units.length === 0) {
      this.#inFlight = undefined;
      if (this.#queue.front() === batch) this.#queue.removeFront();
      return true;
    }
    if (sender !== this.#sender) {
      this.#inFlight = undefined;
      return false;
    }
    const sent = await this.#send(sender, batch, units);
    this.#inFlight = undefined;
    if (!sent || this.#closed) return false;
    this.#written(batch, units);
    return true;
  }

  /** The front batch when it may be written now: closed, or open without a BATCH clause (closed now). */
  #writable(): Batch | undefined {
    const batch = this.#queue.front();
    if (batch === undefined || batch.closed) return batch;
    if (this.#o.spec.batch !== undefined && this.#stopping === undefined) return undefined;
    this.#queue.close(batch);
    return batch;
  }

  /** One write of a batch; a failure closes the sender and schedules the retry. */
  async #send(sender: Sender, batch: Batch, units: readonly Uint8Array[]): Promise<boolean> {
    if (batch.attempts++ > 0) this.#stats.retriedBatches++;
    this.#stats.writes += this.#o.client.protocol === 'udp' ? units.length : 1;
    try {
      await sender.send(units);
      return true;
    } catch (error: unknown) {
      this.#stats.writeFailures++;
      this.#inFlight = undefined;
      this.#failed(sender, senderError(error, this.#where), 'write');
      return false;
    }
  }

  /** What one write of `batch` sends (made once per batch content). */
  async #unitsOf(batch: Batch): Promise<Uint8Array[]> {
    if (batch.units !== undefined) return batch.units;
    const entries = batch.live();
    if (!this.#batchForm) {
      batch.units =
        this.#o.client.protocol === 'udp' ? entries.map((entry) => entry.frame) : [concat(entries)];
      return batch.units;
    }
    const made = await batchUnits(this.#o.codec, entries);
    if (made.failed.length > 0) {
      const failed = new Set(made.failed.map((failure) => failure.entry));
      const before = { records: batch.size, bytes: batch.bytes };
      batch.retain((entry) => !failed.has(entry));
      this.#queue.shrunk(before.records - batch.size, before.bytes - batch.bytes);
      for (const { entry, error } of made.failed) this.#messageError(entry.record, error);
    }
    batch.units = made.units;
    return made.units;
  }

  #written(batch: Batch, units: readonly Uint8Array[]): void {
    if (this.#queue.front() === batch) this.#queue.removeFront();
    const records = batch.size;
    this.#stats.recordsSent += records;
    this.#stats.framesSent += this.#o.client.protocol === 'udp' ? units.length : records;
    for (const unit of units) this.#stats.bytesSent += unit.length;
    this.#o.telemetry.recordsOut(records);
    this.#delivered = true;
    if (this.#failures > 0) {
      this.#log.info(
        { event: 'emitter_recovered', failures: this.#failures },
        `emitter recovered after ${this.#failures} failures`,
      );
    }
    this.#failures = 0;
    this.#backoffMs = this.#o.spec.retry.backoffMs;
    this.#error = null;
    this.#since = null;
  }

  // ── the sender's life ─────────────────────────────────────────────────────────────────────────────

  #open(): void {
    this.#retryTimer = undefined;
    if (this.#closed) return;
    this.#state = 'Starting';
    this.#nextDelayMs = null;
    const generation = ++this.#generation;
    openSender(this.#o, this.#log).then(
      (sender) => {
        if (generation !== this.#generation || this.#closed) {
          sender.close();
          return;
        }
        this.#sender = sender;
        this.#delivered = false;
        this.#state = 'Running';
        this.#stats.connects++;
        sender.onLost((error) => this.#lost(sender, error));
        this.#log.info(
          { event: 'emitter_connected', remote: sender.remote },
          `connected to ${this.#where} (${sender.remote})`,
        );
        this.#schedulePump();
      },
      (error: unknown) => {
        if (generation !== this.#generation || this.#closed) return;
        this.#stats.connectFailures++;
        this.#failed(undefined, senderError(error, this.#where), 'connect');
      },
    );
  }

  /** The sender went away on its own (peer closed or reset). */
  #lost(sender: Sender, error: SenderError): void {
    if (sender !== this.#sender || this.#closed) return;
    // A write in flight fails with it and handles the failure.
    if (this.#inFlight !== undefined) return;
    if (error.code === PEER_CLOSED && this.#delivered) {
      this.#sender = undefined;
      this.#log.info(
        { event: 'emitter_peer_closed', remote: sender.remote },
        'the peer closed the connection; reconnecting',
      );
      this.#open();
      return;
    }
    this.#failed(sender, error, 'lost');
  }

  #failed(sender: Sender | undefined, error: SenderError, phase: 'connect' | 'write' | 'lost'): void {
    if (sender !== undefined && sender !== this.#sender) return;
    this.#sender?.close();
    this.#sender = undefined;
    if (this.#closed) return;
    this.#failures++;
    this.#error = { code: error.code, message: error.message };
    this.#since ??= this.#o.clock.now();
    const wait = this.#backoffMs;
    this.#nextDelayMs = wait;
    this.#backoffMs = Math.min(wait * 2, this.#o.spec.retry.maxMs);
    this.#state = 'Retrying';
    this.#o.telemetry.generalError(error.code, error.message);
    const what = phase === 'connect' ? 'connection failed' : 'connection lost';
    this.#log.info(
      { event: 'emitter_retrying', code: error.code, retryInMs: wait },
      `${what} (${error.code}); retrying in ${wait} ms`,
    );
    this.#retryTimer = this.#o.clock.setTimeout(() => this.#open(), wait);
  }

  // ── draining on stop ──────────────────────────────────────────────────────────────────────────────

  #idle(): boolean {
    return this.#encoder.pending === 0 && this.#queue.records === 0 && this.#inFlight === undefined;
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

function framerOf(client: GraphSyslogClient): (payload: Uint8Array) => Uint8Array | MessageError {
  if (client.protocol === 'udp') return (payload) => datagramFrame(payload);
  if (client.protocol === 'tcp' && client.framing === 'non-transparent') return nonTransparentFrame;
  return (payload) => octetCountedFrame(payload);
}

function concat(entries: readonly { frame: Uint8Array }[]): Uint8Array {
  if (entries.length === 1) return (entries[0] as { frame: Uint8Array }).frame;
  return Buffer.concat(entries.map((entry) => entry.frame));
}

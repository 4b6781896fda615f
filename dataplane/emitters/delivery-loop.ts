// The delivery half of the syslog emitter (syslog-emitter.ts takes and encodes; this writes): the write
// pump that sends the queue's front batch over the sender, and the sender's life around it — open,
// Running, lost, Retrying with backoff — with the state and the transient error that `status` shows.
//
//   Starting ─sender open→ Running ─write fails / peer resets / peer closes before any write─┐
//      ▲  │ open fails (DNS, refused, timeout, TLS)                                           │
//      │  ▼                                                                                   ▼
//      └─ Retrying ◀──────────────────────── keep the batch, close the sender, wait ──────────┘
//   backoff: RETRY POLICY BACKOFF, doubling up to MAX, reset by a successful write.
//   A peer that closes cleanly after the connection delivered is reopened at once, without waiting.
// A batch leaves the queue only when its write succeeded (at-least-once per batch).
import type { Logger } from 'pino';
import type { GraphEmitter } from '../graph/types.js';
import type { TimerHandle } from '../core/clock.js';
import type { ComponentTelemetry } from '../core/telemetry.js';
import type { Batch, EmitterQueue } from './emitter-queue.js';
import type { EmitterStats, EmitterStatus } from './emitter-status.js';
import type { Clock } from '../core/clock.js';
import { PEER_CLOSED, senderError, type Sender, type SenderError } from './sender.js';

/** How a unit of a write is counted: syslog frames and datagrams are bytes, Kafka messages carry a key. */
export interface UnitKind<Unit> {
  /** Each unit is a write of its own (UDP datagrams, Kafka messages), rather than one write per batch. */
  writePerUnit: boolean;
  bytesOf(unit: Unit): number;
}

export interface DeliveryOptions<Unit = Uint8Array> {
  /** Opens a sender to the target (resolving, connecting, handshaking); rejects with a SenderError. */
  open(log: Logger): Promise<Sender<Unit>>;
  clock: Clock;
  units: UnitKind<Unit>;
  spec: GraphEmitter;
  telemetry: ComponentTelemetry;
  log: Logger;
  /** `host:port` of the client, for logs and errors. */
  where: string;
  queue: EmitterQueue;
  /** The emitter's counters; the loop counts writes, connects and failures in them. */
  stats: EmitterStats;
  /** What one write of `batch` sends (the emitter makes it from the batch's frames). */
  unitsOf(batch: Batch): Promise<Unit[]>;
  /** True while an open batch must wait for its BATCH limits (a BATCH clause, not stopping). */
  holdsOpen(): boolean;
  /** After each pump round: the emitter checks whether it is idle. */
  settled(): void;
}

export class DeliveryLoop<Unit = Uint8Array> {
  readonly #o: DeliveryOptions<Unit>;
  #state: EmitterStatus['state'] = 'Starting';
  #closed = false;
  #sender: Sender<Unit> | undefined;
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

  constructor(options: DeliveryOptions<Unit>) {
    this.#o = options;
    this.#backoffMs = options.spec.retry.backoffMs;
  }

  get state(): EmitterStatus['state'] {
    return this.#state;
  }

  /** The state, error, since and backoff parts of the emitter's status. */
  status(): Pick<EmitterStatus, 'state' | 'error' | 'since' | 'backoffMs'> {
    return {
      state: this.#state,
      error: this.#error === null ? null : { ...this.#error },
      since: this.#since,
      backoffMs: this.#state === 'Retrying' ? this.#nextDelayMs : null,
    };
  }

  /** The batch being written, which eviction must spare. */
  get inFlight(): Batch | undefined {
    return this.#inFlight;
  }

  /** Closes the sender and stops retrying for good; the state becomes Stopped. */
  close(): void {
    this.#closed = true;
    this.#generation++;
    if (this.#retryTimer !== undefined) this.#o.clock.clearTimeout(this.#retryTimer);
    this.#retryTimer = undefined;
    this.#sender?.close();
    this.#sender = undefined;
    this.#inFlight = undefined;
    this.#state = 'Stopped';
    this.#nextDelayMs = null;
  }

  // ── writing ───────────────────────────────────────────────────────────────────────────────────────

  schedulePump(): void {
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
      this.#o.settled();
    }
  }

  /** Writes the front batch when it can; true when another may follow at once. */
  async #writeNext(): Promise<boolean> {
    const sender = this.#sender;
    const batch = this.#writable();
    if (this.#state !== 'Running' || sender === undefined || batch === undefined) return false;
    this.#inFlight = batch;
    const units = await this.#o.unitsOf(batch);
    if (units.length === 0) {
      this.#inFlight = undefined;
      if (this.#o.queue.front() === batch) this.#o.queue.removeFront();
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
    const batch = this.#o.queue.front();
    if (batch === undefined || batch.closed) return batch;
    if (this.#o.holdsOpen()) return undefined;
    this.#o.queue.close(batch);
    return batch;
  }

  /** One write of a batch; a failure closes the sender and schedules the retry. */
  async #send(sender: Sender<Unit>, batch: Batch, units: readonly Unit[]): Promise<boolean> {
    const { stats } = this.#o;
    if (batch.attempts++ > 0) stats.retriedBatches++;
    stats.writes += this.#o.units.writePerUnit ? units.length : 1;
    try {
      await sender.send(units);
      return true;
    } catch (error: unknown) {
      stats.writeFailures++;
      this.#inFlight = undefined;
      this.#failed(sender, senderError(error, this.#o.where), 'write');
      return false;
    }
  }

  #written(batch: Batch, units: readonly Unit[]): void {
    const { queue, stats } = this.#o;
    if (queue.front() === batch) queue.removeFront();
    const records = batch.size;
    stats.recordsSent += records;
    stats.framesSent += this.#o.units.writePerUnit ? units.length : records;
    for (const unit of units) stats.bytesSent += this.#o.units.bytesOf(unit);
    this.#o.telemetry.recordsOut(records);
    this.#delivered = true;
    if (this.#failures > 0) {
      this.#o.log.info(
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

  open(): void {
    this.#retryTimer = undefined;
    if (this.#closed) return;
    this.#state = 'Starting';
    this.#nextDelayMs = null;
    const generation = ++this.#generation;
    this.#o.open(this.#o.log).then(
      (sender) => {
        if (generation !== this.#generation || this.#closed) {
          sender.close();
          return;
        }
        this.#sender = sender;
        this.#delivered = false;
        this.#state = 'Running';
        this.#o.stats.connects++;
        sender.onLost((error) => this.#lost(sender, error));
        this.#o.log.info(
          { event: 'emitter_connected', remote: sender.remote },
          `connected to ${this.#o.where} (${sender.remote})`,
        );
        this.schedulePump();
      },
      (error: unknown) => {
        if (generation !== this.#generation || this.#closed) return;
        this.#o.stats.connectFailures++;
        this.#failed(undefined, senderError(error, this.#o.where), 'connect');
      },
    );
  }

  /** The sender went away on its own (peer closed or reset). */
  #lost(sender: Sender<Unit>, error: SenderError): void {
    if (sender !== this.#sender || this.#closed) return;
    // A write in flight fails with it and handles the failure.
    if (this.#inFlight !== undefined) return;
    if (error.code === PEER_CLOSED && this.#delivered) {
      this.#sender = undefined;
      this.#o.log.info(
        { event: 'emitter_peer_closed', remote: sender.remote },
        'the peer closed the connection; reconnecting',
      );
      this.open();
      return;
    }
    this.#failed(sender, error, 'lost');
  }

  #failed(sender: Sender<Unit> | undefined, error: SenderError, phase: 'connect' | 'write' | 'lost'): void {
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
    this.#o.telemetry.transportError(error.code, error.message);
    const what = phase === 'connect' ? 'connection failed' : 'connection lost';
    this.#o.log.info(
      { event: 'emitter_retrying', code: error.code, retryInMs: wait },
      `${what} (${error.code}); retrying in ${wait} ms`,
    );
    this.#retryTimer = this.#o.clock.setTimeout(() => this.open(), wait);
  }
}

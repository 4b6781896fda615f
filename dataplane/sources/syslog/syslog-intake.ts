// Where a syslog listener's frames go: the ingestor's entry behind its ON QUIESCE policy
// (docs/syslog-wire.md, "Listeners", ON QUIESCE) and a bound on deliveries still in flight
// (docs/syslog-wire.md, "Listeners", Intake). The intake decides whether the transport should read; the
// transport applies it to its sockets:
//
//   reading = not stopped, not SUSPENDed, and not overloaded
//   overloaded: more than maxInFlight deliver() promises unsettled; cleared again at half of that
//
// SUSPEND stops reading (the kernel keeps what arrives). Frames already read from a chunk when SUSPEND
// comes are held here and delivered first on resume, so nothing is delivered while suspended. A transport
// that cannot stop reading (no dgram recvStop) drops them instead, counted as 'quiesce_drop'. BUFFER and
// DROP keep reading and use QuiesceBuffer. A synchronous deliver (the SYSLOG codec) costs a call and a
// try; only an asynchronous one is tracked.
import type { Logger } from 'pino';
import type { GraphQuiesce } from '../../graph/types.js';
import type { Clock } from '../../core/clock.js';
import type { ComponentTelemetry } from '../../core/telemetry.js';
import { DEFAULT_DROP_LOG_INTERVAL_MS, ThrottledDrops } from '../../core/throttled-drops.js';
import type { IngestFn, IngestMetadata } from '../../core/ingest.js';
import { QuiesceBuffer, type QuiesceDropReason } from '../quiesce-buffer.js';

export const DEFAULT_MAX_IN_FLIGHT = 1024;

export interface SyslogIntakeOptions {
  /** `<domain>/<ingestor>`, for log lines. */
  name: string;
  quiesce: GraphQuiesce;
  deliver: IngestFn;
  drops: Pick<ComponentTelemetry, 'countDrops' | 'logDrops' | 'dropMany' | 'generalError'>;
  logger: Logger;
  clock: Clock;
  maxInFlight?: number;
  /** Called when reading should stop (false) or start again (true). */
  readingChanged: (reading: boolean) => void;
}

interface Held {
  payload: Uint8Array;
  metadata: IngestMetadata;
}

export class SyslogIntake {
  readonly #options: SyslogIntakeOptions;
  readonly #buffer: QuiesceBuffer<Held> | undefined;
  readonly #maxInFlight: number;
  readonly #drops = new Map<QuiesceDropReason, ThrottledDrops>();
  #deliver: IngestFn;
  #suspended = false;
  #overloaded = false;
  #stopped = false;
  #emptying = false;
  #reading = true;
  #inFlight = 0;
  /** SUSPEND: frames of a chunk read before reading stopped. */
  #held: Held[] = [];
  /** Whether the transport can stop reading; if not, SUSPEND drops. */
  canPause = true;

  constructor(options: SyslogIntakeOptions) {
    this.#options = options;
    this.#deliver = options.deliver;
    this.#maxInFlight = Math.max(1, options.maxInFlight ?? DEFAULT_MAX_IN_FLIGHT);
    const policy = options.quiesce;
    this.#buffer =
      policy.action === 'SUSPEND'
        ? undefined
        : new QuiesceBuffer<Held>({
            policy,
            sizeOf: (held) => held.payload.byteLength,
            deliver: (held) => this.#deliverNow(held.payload, held.metadata),
            // Emptying the buffer on stop is counted as one batch (stop()).
            onDrop: (reason) => {
              if (!this.#emptying) this.#throttled(reason).add();
            },
          });
  }

  get reading(): boolean {
    return this.#reading;
  }

  get suspended(): boolean {
    return this.#suspended;
  }

  get inFlight(): number {
    return this.#inFlight;
  }

  get buffered(): { items: number; bytes: number } {
    if (this.#buffer !== undefined) return this.#buffer.buffered;
    let bytes = 0;
    for (const held of this.#held) bytes += held.payload.byteLength;
    return { items: this.#held.length, bytes };
  }

  /** One frame. `metadata` may be shared by every frame of a connection. */
  offer(payload: Uint8Array, metadata: IngestMetadata): void {
    const buffer = this.#buffer;
    if (buffer === undefined ? !this.#suspended && !this.#stopped : buffer.state === 'open') {
      this.#deliverNow(payload, metadata);
    } else if (buffer !== undefined) {
      buffer.offer({ payload, metadata });
    } else if (this.#stopped) {
      this.#throttled('stopped').add();
    } else if (this.canPause) {
      this.#held.push({ payload, metadata });
    } else {
      this.#throttled('quiesce_drop').add();
    }
  }

  quiesce(): void {
    if (this.#stopped) return;
    if (this.#buffer !== undefined) {
      this.#buffer.quiesce();
      return;
    }
    if (!this.#suspended && !this.canPause)
      this.#options.logger.warn(
        { listener: this.#options.name },
        'SUSPEND cannot stop reading on this socket: frames are dropped (quiesce_drop) until resume',
      );
    this.#suspended = true;
    this.#update();
  }

  async resume(): Promise<void> {
    if (this.#buffer !== undefined) return this.#buffer.resume();
    if (!this.#suspended) return;
    this.#suspended = false;
    const held = this.#held;
    this.#held = [];
    for (const frame of held) this.#deliverNow(frame.payload, frame.metadata);
    this.#update();
  }

  retarget(deliver: IngestFn): void {
    this.#deliver = deliver;
  }

  /** Drops what is buffered or held (counted 'stopped') and refuses later frames. Returns the count. */
  stop(): number {
    if (this.#stopped) return 0;
    this.#stopped = true;
    this.#emptying = true;
    const count = (this.#buffer?.stop() ?? 0) + this.#held.length;
    this.#emptying = false;
    this.#held = [];
    for (const drops of this.#drops.values()) drops.flush();
    this.#options.drops.dropMany('stopped', count, 'the listener stopped with frames buffered', {
      listener: this.#options.name,
    });
    this.#update();
    return count;
  }

  #deliverNow(payload: Uint8Array, metadata: IngestMetadata): void {
    let result: void | Promise<void>;
    try {
      result = this.#deliver(payload, metadata);
    } catch (error: unknown) {
      this.#failed(error);
      return;
    }
    if (result === undefined) return;
    this.#inFlight++;
    if (this.#inFlight > this.#maxInFlight && !this.#overloaded) {
      this.#overloaded = true;
      this.#update();
    }
    result.then(this.#settled, this.#rejected);
  }

  readonly #settled = (): void => {
    this.#inFlight--;
    if (this.#overloaded && this.#inFlight <= this.#maxInFlight / 2) {
      this.#overloaded = false;
      this.#update();
    }
  };

  readonly #rejected = (error: unknown): void => {
    this.#failed(error);
    this.#settled();
  };

  #failed(error: unknown): void {
    const name = error instanceof Error ? error.name : typeof error;
    this.#options.drops.generalError('deliver_failed', `the ingestor's entry failed (${name})`);
  }

  #update(): void {
    const reading = !this.#stopped && !this.#suspended && !this.#overloaded;
    if (reading === this.#reading) return;
    this.#reading = reading;
    this.#options.readingChanged(reading);
  }

  #throttled(reason: QuiesceDropReason): ThrottledDrops {
    let drops = this.#drops.get(reason);
    if (drops === undefined) {
      drops = new ThrottledDrops(
        this.#options.drops,
        reason,
        `frames were dropped by ON QUIESCE (${reason})`,
        {
          clock: this.#options.clock,
          intervalMs: DEFAULT_DROP_LOG_INTERVAL_MS,
          extra: { listener: this.#options.name },
        },
      );
      this.#drops.set(reason, drops);
    }
    return drops;
  }
}

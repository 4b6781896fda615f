// An HTTP ingestor as the listener sees it: the runtime's `ingest(payload, metadata)` behind the ingestor's
// ON QUIESCE policy. While quiesced the listener keeps answering 202 (reading continues:
// docs/http-ingestion.md, "ON QUIESCE") and the bodies are buffered up to MAX SIZE or dropped, each drop
// counted with its reason; on resume the buffer is delivered in order. Hot reload can `retarget` the buffer
// to the swapped component before resuming. Losses are counted where every other loss of the ingestor is: its
// `streamroute_drops_total`, at once; they are logged per reason at most once per interval (ThrottledDrops),
// not a line per body, since a busy ingestor can drop thousands of bodies while it is quiesced.
import type { GraphHttpIngestor } from '../../graph/types.js';
import { systemClock, type Clock } from '../../core/clock.js';
import type { ComponentTelemetry } from '../../core/telemetry.js';
import { DEFAULT_DROP_LOG_INTERVAL_MS, ThrottledDrops } from '../../core/throttled-drops.js';
import type { IngestFn } from '../../core/ingest.js';
import {
  QuiesceBuffer,
  type BufferingPolicy,
  type QuiesceDropReason,
  type QuiesceState,
} from '../quiesce-buffer.js';
import type { HttpMetadata, HttpTarget } from './target.js';
import type { HttpTelemetry } from './telemetry.js';

export interface IngestTarget extends HttpTarget {
  readonly state: QuiesceState;
  /** Bodies (and their bytes) waiting for resume. */
  readonly buffered: { items: number; bytes: number };
  quiesce(): void;
  /** Delivers what was buffered, in order; resolves when the buffer is empty. */
  resume(): Promise<void>;
  /** Later bodies, and the buffer on resume, go to `ingest` (a swapped component). */
  retarget(ingest: IngestFn): void;
  /** Drops the buffer (counted, reason `stopped`); later bodies are dropped too. */
  stop(): void;
}

export interface IngestTargetOptions {
  /** Unique per node, e.g. `<domain>/<ingestor>`. */
  name: string;
  /** The ingestor's domain and name, its labels on `/metrics`. */
  component?: HttpTarget['component'];
  ingestor: Pick<GraphHttpIngestor, 'maxBodyBytes' | 'quiesce'>;
  ingest: IngestFn;
  telemetry: HttpTelemetry;
  /** The ingestor's runtime telemetry (kind `http-ingestor`): every body lost here is a counted drop. */
  drops: DropCounter;
  /** Times the drop log interval (default: the system clock). */
  clock?: Clock;
  /** Drops of one reason are logged at most once per this interval (default 10 s). */
  dropLogIntervalMs?: number;
}

export type DropCounter = Pick<ComponentTelemetry, 'countDrops' | 'logDrops' | 'dropMany'>;

interface Pending {
  body: Uint8Array;
  metadata: HttpMetadata;
}

/**
 * SUSPEND (stop reading) has no meaning for HTTP and the compiler rejects it for HTTP ingestors (SR1013);
 * a graph that carries it anyway gets DROP, whose losses are counted, rather than an unbounded buffer.
 */
export function httpBufferingPolicy(quiesce: GraphHttpIngestor['quiesce']): BufferingPolicy {
  return quiesce.action === 'SUSPEND' ? { action: 'DROP' } : quiesce;
}

export function createIngestTarget(options: IngestTargetOptions): IngestTarget {
  const { name, telemetry, drops } = options;
  let ingest = options.ingest;
  let stopping = false;
  const throttled = throttledDrops(options);
  const buffer = new QuiesceBuffer<Pending>({
    policy: httpBufferingPolicy(options.ingestor.quiesce),
    sizeOf: (pending) => pending.body.byteLength,
    deliver: (pending) => void ingest(pending.body, pending.metadata),
    // Emptying the buffer on stop is counted as one batch below.
    onDrop: (reason) => {
      if (!stopping) throttled.of(reason).add();
    },
  });
  let droppedAtQuiesce = 0;
  return {
    name,
    ...(options.component === undefined ? {} : { component: options.component }),
    maxBodyBytes: options.ingestor.maxBodyBytes,
    get state() {
      return buffer.state;
    },
    get buffered() {
      return buffer.buffered;
    },
    deliver(body, metadata) {
      buffer.offer({ body, metadata });
    },
    quiesce() {
      if (buffer.state === 'open') droppedAtQuiesce = countDropped(buffer);
      buffer.quiesce();
    },
    async resume() {
      if (buffer.state !== 'quiesced') return buffer.resume();
      const buffered = buffer.buffered.items;
      await buffer.resume();
      telemetry.quiesceResumed(name, buffered, countDropped(buffer) - droppedAtQuiesce);
    },
    retarget(next) {
      ingest = next;
    },
    stop() {
      stopping = true;
      const count = buffer.stop();
      stopping = false;
      throttled.flush();
      drops.dropMany('stopped', count, 'the ingestor stopped with bodies buffered', { target: name });
    },
  };
}

/** One ThrottledDrops per reason, made when the first body of that reason is dropped. */
function throttledDrops(options: IngestTargetOptions): {
  of: (reason: QuiesceDropReason) => ThrottledDrops;
  flush: () => void;
} {
  const byReason = new Map<QuiesceDropReason, ThrottledDrops>();
  const timing = {
    clock: options.clock ?? systemClock,
    intervalMs: options.dropLogIntervalMs ?? DEFAULT_DROP_LOG_INTERVAL_MS,
    extra: { target: options.name },
  };
  return {
    of(reason) {
      let drops = byReason.get(reason);
      if (drops === undefined) {
        const detail = `bodies were dropped by ON QUIESCE (${reason})`;
        drops = new ThrottledDrops(options.drops, reason, detail, timing);
        byReason.set(reason, drops);
      }
      return drops;
    },
    flush() {
      for (const drops of byReason.values()) drops.flush();
    },
  };
}

function countDropped(buffer: QuiesceBuffer<Pending>): number {
  let total = 0;
  for (const entry of buffer.dropped.values()) total += entry.items;
  return total;
}

// One worker thread of the payload readers, seen from the event loop (a WorkerSlot): one payload at a
// time, a time limit on it and a heap limit on the thread. A thread past either limit is gone (terminated,
// or stopped by V8) and the pool is told; the payload's callback hears why.
import { Worker } from 'node:worker_threads';
import { WorkerSlot, type SlotFailure } from '../worker-slot.js';
import type { ReadReply, ReaderSpec } from './reader-spec.js';

export interface ReaderRequest {
  id: number;
  readerId: number;
  spec: ReaderSpec;
  payload: Uint8Array;
}

export type ThreadFailure = SlotFailure;
export type ThreadReply = { reply: ReadReply } | { failed: ThreadFailure };

export interface ThreadEvents {
  onReady: () => void;
  /** `started` is false when the thread died before it loaded. */
  onGone: (thread: ReaderThread, started: boolean) => void;
}

export interface ThreadLimits {
  timeLimitMs: number;
  heapLimitMb: number;
}

// Built, the worker is JavaScript beside this file; under tsx (tests, `npm run example`) it is TypeScript,
// and Node 20 does not pass tsx's loader to worker threads, so the worker registers it first.
const SCRIPT = new URL(
  import.meta.url.endsWith('.ts') ? './reader-worker.ts' : './reader-worker.js',
  import.meta.url,
);

/**
 * The young generation of a reader thread (MiB). A thread whose heap passes its limit is stopped when a full
 * collection ends with the old generation over the limit: Node's near-heap-limit callback then allows it
 * 16 MiB more to stop in, and if the old generation is already past that, V8 aborts the whole process
 * ("FATAL ERROR: Reached heap limit"). What a thread can overshoot by is what scavenges promote into the
 * old generation before that collection, bounded by the young generation. Left to V8 it is 48 MiB on
 * Node 20 but 192 MiB on Node 24, where a YAML flow sequence ended a collection 19 MiB over a 256 MiB limit
 * and aborted the process. At 24 MiB (8 MiB semi-spaces) the overshoot stays within Node's 16 MiB; the
 * yaml library read no slower with it than with V8's default.
 */
export const YOUNG_GENERATION_MB = 24;

/** A reader thread's limits: `heapLimitMb` of old generation and the young generation above. */
export function readerResourceLimits(heapLimitMb: number): {
  maxOldGenerationSizeMb: number;
  maxYoungGenerationSizeMb: number;
} {
  return { maxOldGenerationSizeMb: heapLimitMb, maxYoungGenerationSizeMb: YOUNG_GENERATION_MB };
}

function startWorker(heapLimitMb: number): Worker {
  const options = { env: {}, resourceLimits: readerResourceLimits(heapLimitMb) };
  if (!SCRIPT.pathname.endsWith('.ts')) return new Worker(SCRIPT, options);
  const boot = `import('tsx/esm/api').then((tsx) => { tsx.register(); return import(${JSON.stringify(SCRIPT.href)}); })`;
  return new Worker(boot, { ...options, eval: true });
}

export class ReaderThread {
  readonly #slot: WorkerSlot<Omit<ReaderRequest, 'id'>, { reply: ReadReply }>;

  constructor(limits: ThreadLimits, events: ThreadEvents) {
    this.#slot = new WorkerSlot(startWorker(limits.heapLimitMb), limits.timeLimitMs, {
      onReady: events.onReady,
      onGone: (started) => events.onGone(this, started),
    });
  }

  get busy(): boolean {
    return this.#slot.busy;
  }

  get idle(): boolean {
    return this.#slot.idle;
  }

  read(readerId: number, spec: ReaderSpec, payload: Uint8Array, done: (reply: ThreadReply) => void): void {
    this.#slot.run({ readerId, spec, payload }, (answer) => done('failed' in answer ? answer : answer.reply));
  }

  /** Stops the thread; a payload it was reading is answered `stopped`. */
  terminate(): Promise<void> {
    return this.#slot.terminate();
  }
}

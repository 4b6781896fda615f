// One worker thread of the payload readers, seen from the event loop: one payload at a time, a time limit
// on it and a heap limit on the thread. A thread past either limit is gone (terminated, or stopped by V8)
// and the pool is told; the payload's callback hears why. A new thread takes nothing until it has loaded,
// so start-up never counts against the time limit.
import { Worker } from 'node:worker_threads';
import type { ReadReply, ReaderSpec } from './reader-spec.js';

export interface ReaderRequest {
  id: number;
  readerId: number;
  spec: ReaderSpec;
  payload: Uint8Array;
}

export type ThreadFailure = 'time_limit' | 'memory_limit' | 'crashed' | 'stopped';
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

interface Running {
  id: number;
  timer: NodeJS.Timeout;
  done: (reply: ThreadReply) => void;
}

export class ReaderThread {
  readonly #worker: Worker;
  readonly #limits: ThreadLimits;
  readonly #events: ThreadEvents;
  #ready = false;
  #running: Running | undefined;
  #nextId = 1;
  #gone = false;

  constructor(limits: ThreadLimits, events: ThreadEvents) {
    this.#limits = limits;
    this.#events = events;
    this.#worker = startWorker(limits.heapLimitMb);
    this.#worker.unref();
    this.#worker.on('message', (message: { id: number; reply: ReadReply } | 'ready') => {
      if (message !== 'ready') this.#answer(message);
      else {
        this.#ready = true;
        this.#events.onReady();
      }
    });
    this.#worker.on('error', (error: unknown) => {
      const outOfMemory = (error as { code?: unknown }).code === 'ERR_WORKER_OUT_OF_MEMORY';
      this.#lose(outOfMemory ? 'memory_limit' : 'crashed');
    });
    this.#worker.on('exit', () => this.#lose('crashed'));
  }

  get busy(): boolean {
    return !this.#ready || this.#running !== undefined || this.#gone;
  }

  get idle(): boolean {
    return this.#ready && this.#running === undefined && !this.#gone;
  }

  read(readerId: number, spec: ReaderSpec, payload: Uint8Array, done: (reply: ThreadReply) => void): void {
    const id = this.#nextId++;
    const timer = setTimeout(() => this.#lose('time_limit'), this.#limits.timeLimitMs);
    this.#running = { id, timer, done };
    this.#worker.ref();
    const request: ReaderRequest = { id, readerId, spec, payload };
    this.#worker.postMessage(request);
  }

  /** Stops the thread; a payload it was reading is answered `stopped`. */
  async terminate(): Promise<void> {
    this.#gone = true;
    const running = this.#running;
    if (running !== undefined) this.#settle(running, { failed: 'stopped' });
    await this.#worker.terminate();
  }

  #answer({ id, reply }: { id: number; reply: ReadReply }): void {
    const running = this.#running;
    if (running?.id === id) this.#settle(running, { reply });
  }

  #settle(running: Running, reply: ThreadReply): void {
    clearTimeout(running.timer);
    this.#running = undefined;
    if (!this.#gone) this.#worker.unref();
    running.done(reply);
  }

  #lose(why: Exclude<ThreadFailure, 'stopped'>): void {
    if (this.#gone) return;
    this.#gone = true;
    const running = this.#running;
    void this.#worker.terminate();
    this.#events.onGone(this, this.#ready);
    if (running !== undefined) this.#settle(running, { failed: why });
  }
}

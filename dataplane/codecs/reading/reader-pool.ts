// The payload readers: worker threads that read the payloads too large to read on the event loop
// (reader-spec.ts, INLINE_BYTES), shared by every codec of the node. A YAML, TOML or XML parser, or a
// protobuf message of empty sub-messages, can spend seconds and hundreds of MB on one payload within the
// body limit; here that costs one worker thread, never the event loop that serves every ingestor, domain
// and the admin API. Each read has a time limit and each thread a heap limit: a payload past either fails
// alone (SR3018) and its thread is replaced. Payloads wait in one queue per codec, taken in turn, so a
// flood on one ingestor delays another ingestor's large payloads by at most one read per thread; beyond
// `maxQueuedBytes` waiting they are refused at once (SR3019). Threads start on the first large payload and
// stop after `idleStopMs` without one, so a node that never sees one never pays for them.
import { availableParallelism } from 'node:os';
import { messageError, type MessageError } from '../../core/errors.js';
import type { ReadReply, Reader } from './reader-spec.js';
import { ReaderThread, type ThreadFailure, type ThreadReply } from './reader-thread.js';

export interface ReaderPoolOptions {
  /** Worker threads (default: the cores less one for the event loop, 1–2). */
  workers: number;
  /** How long reading one payload may take (default 2000 ms). */
  timeLimitMs: number;
  /** Heap (old generation) each thread may use (default 256 MiB; the young generation is capped too, reader-thread.ts). */
  heapLimitMb: number;
  /** Payload bytes allowed to wait for a thread, over all codecs (default 32 MiB). */
  maxQueuedBytes: number;
  /** Threads stop after this long without a payload (default 30 s). */
  idleStopMs: number;
}

export const DEFAULT_READER_OPTIONS: ReaderPoolOptions = {
  workers: Math.max(1, Math.min(2, availableParallelism() - 1)),
  timeLimitMs: 2000,
  heapLimitMb: 256,
  maxQueuedBytes: 32 << 20,
  idleStopMs: 30_000,
};

/** What the pool has done since it started (for /metrics and tests). */
export interface ReaderPoolStats {
  /** Payloads given to a worker thread. */
  reads: number;
  timeLimits: number;
  memoryLimits: number;
  crashes: number;
  /** Payloads refused because too much was waiting. */
  refused: number;
  threadsStarted: number;
}

/** Threads that die before loading, one after another, before waiting payloads are failed. */
const MAX_START_FAILURES = 3;

interface Waiting {
  reader: Reader;
  payload: Uint8Array;
  resolve: (reply: ReadReply) => void;
}

export class ReaderPool {
  readonly options: ReaderPoolOptions;
  readonly stats: ReaderPoolStats = {
    reads: 0,
    timeLimits: 0,
    memoryLimits: 0,
    crashes: 0,
    refused: 0,
    threadsStarted: 0,
  };
  /** Waiting payloads per reader id, in arrival order; readers are taken in turn. */
  readonly #queues = new Map<number, Waiting[]>();
  readonly #threads: ReaderThread[] = [];
  #queuedBytes = 0;
  #startFailures = 0;
  #idleTimer: NodeJS.Timeout | undefined;
  #closed = false;

  constructor(options: Partial<ReaderPoolOptions> = {}) {
    this.options = { ...DEFAULT_READER_OPTIONS, ...options };
  }

  /** Reads `payload` on a worker thread; never rejects (a failure is a message error). */
  read(reader: Reader, payload: Uint8Array): Promise<ReadReply> {
    if (this.#closed) return Promise.resolve({ error: failureError('stopped', reader, this.options) });
    if (this.#queuedBytes + payload.byteLength > this.options.maxQueuedBytes) {
      this.stats.refused += 1;
      return Promise.resolve({ error: overloaded(this.options) });
    }
    this.#queuedBytes += payload.byteLength;
    return new Promise((resolve) => {
      let queue = this.#queues.get(reader.id);
      if (queue === undefined) this.#queues.set(reader.id, (queue = []));
      queue.push({ reader, payload, resolve });
      this.#dispatch();
    });
  }

  /** Stops every thread; payloads being read or waiting fail. */
  async close(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#idleTimer);
    await Promise.all(this.#threads.map((thread) => thread.terminate()));
    this.#threads.length = 0;
    this.#failWaiting('stopped');
  }

  #dispatch(): void {
    if (this.#closed) return;
    clearTimeout(this.#idleTimer);
    while (this.#queues.size > 0 && this.#threads.length < this.options.workers)
      this.#threads.push(this.#spawn());
    for (const thread of this.#threads) {
      if (thread.busy) continue;
      const next = this.#next();
      if (next === undefined) break;
      this.#queuedBytes -= next.payload.byteLength;
      this.stats.reads += 1;
      const { reader, payload, resolve } = next;
      thread.read(reader.id, reader.spec, payload, (reply) => {
        resolve(this.#outcome(reply, reader));
        this.#dispatch();
      });
    }
    if (this.#queues.size === 0 && this.#threads.every((thread) => thread.idle)) this.#stopWhenIdle();
  }

  /** The first waiting payload of the next reader in turn (the reader moves to the back of the line). */
  #next(): Waiting | undefined {
    for (const [id, queue] of this.#queues) {
      const first = queue.shift();
      this.#queues.delete(id);
      if (queue.length > 0) this.#queues.set(id, queue);
      if (first !== undefined) return first;
    }
    return undefined;
  }

  #outcome(reply: ThreadReply, reader: Reader): ReadReply {
    if ('reply' in reply) return reply.reply;
    if (reply.failed === 'time_limit') this.stats.timeLimits += 1;
    else if (reply.failed === 'memory_limit') this.stats.memoryLimits += 1;
    else if (reply.failed === 'crashed') this.stats.crashes += 1;
    return { error: failureError(reply.failed, reader, this.options) };
  }

  #spawn(): ReaderThread {
    this.stats.threadsStarted += 1;
    const limits = { timeLimitMs: this.options.timeLimitMs, heapLimitMb: this.options.heapLimitMb };
    return new ReaderThread(limits, {
      onReady: () => {
        this.#startFailures = 0;
        this.#dispatch();
      },
      onGone: (dead, started) => {
        const index = this.#threads.indexOf(dead);
        if (index >= 0) this.#threads.splice(index, 1);
        this.#startFailures = started ? 0 : this.#startFailures + 1;
        if (this.#startFailures < MAX_START_FAILURES) setImmediate(() => this.#dispatch());
        else this.#failWaiting('crashed');
      },
    });
  }

  #failWaiting(why: ThreadFailure): void {
    this.#startFailures = 0;
    for (const queue of this.#queues.values()) {
      for (const { reader, payload, resolve } of queue) {
        this.#queuedBytes -= payload.byteLength;
        resolve({ error: failureError(why, reader, this.options) });
      }
    }
    this.#queues.clear();
  }

  #stopWhenIdle(): void {
    if (this.#threads.length === 0) return;
    this.#idleTimer = setTimeout(() => {
      const threads = this.#threads.splice(0);
      for (const thread of threads) void thread.terminate();
    }, this.options.idleStopMs);
    this.#idleTimer.unref();
  }
}

function failureError(why: ThreadFailure, reader: Reader, options: ReaderPoolOptions): MessageError {
  const what = `reading the ${reader.label} payload`;
  switch (why) {
    case 'time_limit':
      return messageError('SR3018', `${what} ran past its time limit of ${options.timeLimitMs} ms`);
    case 'memory_limit':
      return messageError(
        'SR3018',
        `${what} needed more than the reader's memory limit of ${options.heapLimitMb} MiB`,
      );
    case 'crashed':
      return messageError('SR3009', `${what} failed: its worker thread stopped unexpectedly`);
    case 'stopped':
      return messageError('SR3009', `${what} failed: the node is stopping`);
  }
}

function overloaded(options: ReaderPoolOptions): MessageError {
  return messageError(
    'SR3019',
    `the payload readers have ${options.maxQueuedBytes} bytes of payloads waiting already`,
  );
}

let shared: ReaderPool | undefined;

/** The node's pool, created on first use (its threads start on the first large payload). */
export function sharedReaderPool(): ReaderPool {
  shared ??= new ReaderPool();
  return shared;
}

/** The node's pool if anything has used it yet (for metrics, which must not create it). */
export function startedReaderPool(): ReaderPool | undefined {
  return shared;
}

// One worker thread of the JAQ pool, seen from the event loop: at most one batch at a time, a time limit
// on it, and a replacement story — a worker that runs past the limit is terminated, one that crashes is
// gone, and either way the pool is told (`onGone`) and the batch's callback hears why. A new worker takes
// no batch until jq has loaded in it (`onReady`), so start-up never counts against the time limit.
import { Worker } from 'node:worker_threads';
import type { Failure } from './program-queue.js';

/**
 * To jaq-worker.js: the wrapped program (jaq-program.ts) and the batch's inputs, which the worker joins into
 * one JSON array (joining here would hold a second copy of every input on the event loop's heap).
 */
interface JaqRequest {
  id: number;
  program: string;
  inputs: string[];
}

/** From jaq-worker.js: jq's result; stderr only for a compile error (anything else may hold values). */
interface JaqReply {
  id: number;
  exitCode: number;
  stdout: string;
  stderr: string;
}

/** jq's answer with how long the call took, or why there is none (`stopped`: the pool was closed). */
export type BatchReply =
  | (Omit<JaqReply, 'id'> & { elapsedMs: number })
  | { failed: Extract<Failure, 'time_limit' | 'crashed'> | 'stopped' };

/** Plain JavaScript beside this file (copied into dist by the build), so no loader is needed. */
const SCRIPT = new URL('./jaq-worker.js', import.meta.url);

export interface WorkerEvents {
  onReady: () => void;
  /** `started` is false when the worker died before jq loaded in it. */
  onGone: (worker: EngineWorker, started: boolean) => void;
}

interface Running {
  id: number;
  startedAt: number;
  timer: NodeJS.Timeout;
  done: (reply: BatchReply) => void;
}

export class EngineWorker {
  readonly #worker: Worker;
  readonly #timeLimitMs: number;
  readonly #events: WorkerEvents;
  #ready = false;
  #running: Running | undefined;
  #nextId = 1;
  #gone = false;

  constructor(timeLimitMs: number, events: WorkerEvents) {
    this.#timeLimitMs = timeLimitMs;
    this.#events = events;
    // No environment for the thread, as a second guard: jq-wasm shows Emscripten's own, not the node's.
    this.#worker = new Worker(SCRIPT, { env: {} });
    this.#worker.unref();
    this.#worker.on('message', (message: JaqReply | 'ready') => {
      if (message !== 'ready') this.#answer(message);
      else {
        this.#ready = true;
        this.#events.onReady();
      }
    });
    this.#worker.on('error', () => this.#lose('crashed'));
    this.#worker.on('exit', () => this.#lose('crashed'));
  }

  get busy(): boolean {
    return !this.#ready || this.#running !== undefined || this.#gone;
  }

  run(program: string, batch: readonly { input: string }[], done: (reply: BatchReply) => void): void {
    const id = this.#nextId++;
    const timer = setTimeout(() => this.#lose('time_limit'), this.#timeLimitMs);
    this.#running = { id, startedAt: performance.now(), timer, done };
    this.#worker.ref();
    const request: JaqRequest = { id, program, inputs: batch.map((submission) => submission.input) };
    this.#worker.postMessage(request);
  }

  /** Stops the thread; a batch it was running is answered `stopped`. */
  async terminate(): Promise<void> {
    this.#gone = true;
    const running = this.#running;
    if (running !== undefined) this.#settle(running, { failed: 'stopped' });
    await this.#worker.terminate();
  }

  #answer({ id, ...reply }: JaqReply): void {
    const running = this.#running;
    if (running?.id !== id) return;
    this.#settle(running, { ...reply, elapsedMs: performance.now() - running.startedAt });
  }

  #settle(running: Running, reply: BatchReply): void {
    clearTimeout(running.timer);
    this.#running = undefined;
    if (!this.#gone) this.#worker.unref();
    running.done(reply);
  }

  #lose(why: 'time_limit' | 'crashed'): void {
    if (this.#gone) return;
    this.#gone = true;
    const running = this.#running;
    if (why === 'time_limit') void this.#worker.terminate();
    this.#events.onGone(this, this.#ready);
    if (running !== undefined) this.#settle(running, { failed: why });
  }
}

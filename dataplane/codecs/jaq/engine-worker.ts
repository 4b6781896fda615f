// One worker thread of the JAQ pool, seen from the event loop (a WorkerSlot): at most one batch at a time,
// a time limit on it; a worker past it or crashed is gone, the pool is told and the batch's callback hears
// why. A new worker takes no batch until jq has loaded in it.
import { Worker } from 'node:worker_threads';
import { WorkerSlot } from '../worker-slot.js';
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

export class EngineWorker {
  readonly #slot: WorkerSlot<Omit<JaqRequest, 'id'>, Omit<JaqReply, 'id'>>;

  constructor(timeLimitMs: number, events: WorkerEvents) {
    // No environment for the thread, as a second guard: jq-wasm shows Emscripten's own, not the node's.
    this.#slot = new WorkerSlot(new Worker(SCRIPT, { env: {} }), timeLimitMs, {
      onReady: events.onReady,
      onGone: (started) => events.onGone(this, started),
    });
  }

  get busy(): boolean {
    return this.#slot.busy;
  }

  run(program: string, batch: readonly { input: string }[], done: (reply: BatchReply) => void): void {
    const inputs = batch.map((submission) => submission.input);
    this.#slot.run({ program, inputs }, (answer) => {
      if (!('failed' in answer)) done({ ...answer.reply, elapsedMs: answer.elapsedMs });
      // a thread out of heap is a crash to the pool (jq's own memory is its WebAssembly memory)
      else done({ failed: answer.failed === 'memory_limit' ? 'crashed' : answer.failed });
    });
  }

  /** Stops the thread; a batch it was running is answered `stopped`. */
  terminate(): Promise<void> {
    return this.#slot.terminate();
  }
}

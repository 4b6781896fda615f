// One worker thread of the JAQ compile check, called synchronously: the caller posts the program and
// blocks on a shared flag (Atomics.wait) until the reply is there or the time limit passes, then reads
// the reply off the port (receiveMessageOnPort). The caller's thread never runs jq; a call past the limit
// terminates the thread. A thread is started with a time limit of its own, so a start never counts
// against a program's.
import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from 'node:worker_threads';
import type { JqWasmModule } from './jq-wasm-module.js';

/** Plain JavaScript beside this file (built into dist with it), so no loader is needed. */
const SCRIPT = new URL('./check-worker.js', import.meta.url);

/** Atomics.waitAsync (Node 16 and later; the project's TypeScript libs predate it). */
interface WaitAsync {
  waitAsync(
    array: Int32Array,
    index: number,
    value: number,
    timeoutMs: number,
  ): { async: false; value: 'not-equal' | 'timed-out' } | { async: true; value: Promise<'ok' | 'timed-out'> };
}

/** Why a check has no answer from jq. */
export type CheckFailure = 'out_of_memory' | 'time_limit' | 'too_deep' | 'crashed' | 'unavailable';

export type ThreadReply =
  { exitCode: number; stderr: string; retire: boolean } | { failure: CheckFailure; retire: true };

export interface ThreadLimits {
  /** WebAssembly memory jq may grow to while compiling. */
  maxMemoryBytes: number;
  /** Memory above which a thread is replaced after a call (WebAssembly memory never shrinks). */
  keepMemoryBytes: number;
}

interface WorkerReply {
  id: number;
  exitCode?: number;
  stderr?: string;
  failure?: CheckFailure;
  retire: boolean;
}

export class CheckThread {
  readonly #worker: Worker;
  readonly #port: MessagePort;
  readonly #flag = new Int32Array(new SharedArrayBuffer(4));
  #nextId = 1;
  #dead = false;
  #started = false;

  constructor(jq: JqWasmModule, limits: ThreadLimits) {
    const { port1, port2 } = new MessageChannel();
    this.#port = port1;
    this.#worker = new Worker(SCRIPT, {
      env: {},
      workerData: {
        module: jq.module,
        port: port2,
        signal: this.#flag.buffer,
        maxMemoryBytes: limits.maxMemoryBytes,
        keepMemoryBytes: limits.keepMemoryBytes,
        guard: jq.guard,
      },
      transferList: [port2],
      // jq's own memory is WebAssembly memory, which these do not count (maxMemoryBytes bounds it). The
      // small stack makes a deeply recursive compile stop with a RangeError before jq's own stack, which
      // nothing checks, overflows into its static data (that may loop instead of stopping).
      resourceLimits: { maxOldGenerationSizeMb: 48, maxYoungGenerationSizeMb: 8, stackSizeMb: 1 },
    });
    this.#worker.unref();
    // Heard only when the caller's event loop runs, between calls: a thread that died is not asked again.
    this.#worker.on('error', () => (this.#dead = true));
    this.#worker.on('exit', () => (this.#dead = true));
  }

  /** Whether the thread can take a call: not dead, not retired. */
  get usable(): boolean {
    return !this.#dead;
  }

  /** Waits, without blocking, until jq has loaded in the thread; false when it did not within the limit. */
  async ready(limitMs: number): Promise<boolean> {
    if (this.#started) return true;
    const waited = (Atomics as unknown as WaitAsync).waitAsync(this.#flag, 0, 0, limitMs);
    const exited = new Promise<'timed-out'>((resolve) =>
      this.#worker.once('exit', () => resolve('timed-out')),
    );
    this.#worker.ref(); // a pending waitAsync does not keep the process alive by itself
    try {
      return this.#startedUnless(waited.async ? await Promise.race([waited.value, exited]) : waited.value);
    } finally {
      this.#worker.unref();
    }
  }

  /** jq's answer for the (wrapped) program, or why there is none; blocks the caller up to the limits. */
  check(program: string, startLimitMs: number, timeLimitMs: number): ThreadReply {
    if (!this.#started && !this.#startedUnless(Atomics.wait(this.#flag, 0, 0, startLimitMs))) {
      return { failure: 'unavailable', retire: true };
    }
    const id = this.#nextId++;
    Atomics.store(this.#flag, 0, 0);
    this.#port.postMessage({ id, program });
    if (Atomics.wait(this.#flag, 0, 0, timeLimitMs) === 'timed-out') {
      this.retire();
      return { failure: 'time_limit', retire: true };
    }
    for (
      let message = receiveMessageOnPort(this.#port);
      message;
      message = receiveMessageOnPort(this.#port)
    ) {
      const reply = message.message as WorkerReply;
      if (reply.id !== id) continue;
      if (reply.failure !== undefined) return { failure: reply.failure, retire: true };
      return { exitCode: reply.exitCode ?? 3, stderr: reply.stderr ?? '', retire: reply.retire };
    }
    this.retire();
    return { failure: 'crashed', retire: true };
  }

  /** Ends the thread (its memory goes with it); it takes no more calls. */
  retire(): void {
    this.#dead = true;
    this.#port.close();
    void this.#worker.terminate();
  }

  #startedUnless(outcome: string): boolean {
    if (outcome === 'timed-out') {
      this.retire();
      return false;
    }
    this.#started = true;
    return true;
  }
}

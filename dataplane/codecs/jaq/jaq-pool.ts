// The JAQ engine: a pool of worker threads running jq (WebAssembly), shared by every JAQ and protobuf
// codec of the node. jq compiles its program on every call, so calling it once per message manages under
// a thousand messages a second; the pool instead gathers the inputs that wait for the same program at the
// same moment into one call (the wrapper in jaq-program.ts keeps each input's outputs apart). Batches grow
// by themselves under load — inputs wait while every worker is busy — and stay single when traffic is
// light, so an idle node adds no latency. A call is sized from what the program's inputs have cost so far,
// so that it takes about a quarter of the time limit: cheap programs get big batches, costly ones small.
//
// The event loop never runs jq. A call past its time limit (a runaway `repeat(.)`) has its worker
// terminated and replaced; its inputs run again one by one, so only the runaway input fails. A worker
// that crashes is handled the same way. Inputs beyond `maxQueuedBytes` are refused at once.
import { availableParallelism } from 'node:os';
import { parseJsonValue, type JsonObject } from '../json-value.js';
import { EngineWorker, type BatchReply } from './engine-worker.js';
import { batchProgram, compileProblem } from './jaq-program.js';
import { ProgramQueue, type InputOutcome, type Submission } from './program-queue.js';

export interface JaqPoolOptions {
  /** Worker threads (default: the cores less one for the event loop, 1–4). */
  workers: number;
  /** How long one call of jq may run (default 1000 ms). */
  timeLimitMs: number;
  maxBatchInputs: number;
  maxBatchBytes: number;
  /** Input bytes allowed to wait for a worker, over all programs (default 64 MiB). */
  maxQueuedBytes: number;
}

export const DEFAULT_POOL_OPTIONS: JaqPoolOptions = {
  workers: Math.max(1, Math.min(4, availableParallelism() - 1)),
  timeLimitMs: 1000,
  maxBatchInputs: 1024,
  maxBatchBytes: 1 << 20,
  maxQueuedBytes: 64 << 20,
};

/** What the pool has done since it started (for metrics and tests). */
export interface JaqPoolStats {
  /** Calls of jq, each with a batch of inputs (re-runs included). */
  calls: number;
  /** Inputs given to the pool. */
  inputs: number;
  /** Calls that ran past the time limit (their worker was replaced). */
  timeLimits: number;
  /** Workers that died on their own. */
  crashes: number;
  /** Inputs refused because too much was waiting. */
  refused: number;
  /** Worker threads started. */
  workersStarted: number;
}

/** Workers that die before jq loads, one after another, before waiting inputs are failed. */
const MAX_START_FAILURES = 3;
/** A call is sized to last about this share of the time limit (the estimate includes a call's fixed cost). */
const CALL_SHARE_OF_LIMIT = 0.25;
/** Programs whose measured cost is kept while idle; beyond this the idle ones are forgotten. */
const KEPT_PROGRAMS = 256;
const STOPPED: InputOutcome = { failed: 'crashed', detail: 'the JAQ engine is stopped' };

export class JaqPool {
  readonly options: JaqPoolOptions;
  readonly stats: JaqPoolStats = {
    calls: 0,
    inputs: 0,
    timeLimits: 0,
    crashes: 0,
    refused: 0,
    workersStarted: 0,
  };
  readonly #queues = new Map<string, ProgramQueue>();
  readonly #workers: EngineWorker[] = [];
  #queuedBytes = 0;
  #startFailures = 0;
  #dispatchScheduled = false;
  #closed = false;
  /** Where round-robin over the programs resumes. */
  #turn = 0;

  constructor(options: Partial<JaqPoolOptions> = {}) {
    this.options = { ...DEFAULT_POOL_OPTIONS, ...options };
  }

  /** Runs `program` on one input (JSON text); never rejects. */
  run(program: string, input: string): Promise<InputOutcome> {
    const queue = this.#queue(program);
    if (this.#closed) return queue.refuse(input, STOPPED);
    if (this.#queuedBytes + input.length > this.options.maxQueuedBytes) {
      this.stats.refused += 1;
      return queue.refuse(input, { failed: 'overloaded' });
    }
    this.stats.inputs += 1;
    this.#queuedBytes += input.length;
    const outcome = queue.submit(input);
    this.#scheduleDispatch();
    return outcome;
  }

  /** Stops every worker; inputs still running or waiting fail. */
  async close(): Promise<void> {
    this.#closed = true;
    await Promise.all(this.#workers.map((worker) => worker.terminate()));
    this.#workers.length = 0;
    this.#failWaiting(STOPPED);
  }

  /** Fails every input waiting for a worker; the next `run` tries to start workers again. */
  #failWaiting(outcome: InputOutcome): void {
    this.#startFailures = 0;
    for (const queue of this.#queues.values()) {
      const waiting = queue.take({ maxInputs: Infinity, maxBytes: Infinity, ignoreSolo: true });
      this.#queuedBytes -= sizeOf(waiting);
      for (const submission of waiting) queue.settle(submission, outcome);
    }
  }

  #queue(program: string): ProgramQueue {
    let queue = this.#queues.get(program);
    if (queue === undefined) {
      queue = new ProgramQueue(batchProgram(program));
      this.#queues.set(program, queue);
    }
    return queue;
  }

  #scheduleDispatch(): void {
    if (this.#dispatchScheduled) return;
    this.#dispatchScheduled = true;
    // Later in this turn of the event loop more inputs may arrive (several bodies read in one poll).
    setImmediate(() => {
      this.#dispatchScheduled = false;
      this.#dispatch();
    });
  }

  #dispatch(): void {
    if (this.#closed) return;
    while (this.#workers.length < this.options.workers) this.#workers.push(this.#spawn());
    for (const worker of this.#workers) {
      if (worker.busy) continue;
      const queue = this.#nextQueue();
      if (queue === undefined) return;
      const batch = queue.take({
        maxInputs: Math.min(
          this.options.maxBatchInputs,
          queue.inputsFor(this.options.timeLimitMs * CALL_SHARE_OF_LIMIT),
        ),
        maxBytes: this.options.maxBatchBytes,
      });
      this.#queuedBytes -= sizeOf(batch);
      this.stats.calls += 1;
      worker.run(queue.program, batch, (reply) => this.#finish(queue, batch, reply));
    }
  }

  #nextQueue(): ProgramQueue | undefined {
    const queues = [...this.#queues.values()];
    for (let step = 0; step < queues.length; step += 1) {
      const queue = queues[(this.#turn + step) % queues.length];
      if (queue?.hasWaiting === true) {
        this.#turn = (this.#turn + step + 1) % queues.length;
        return queue;
      }
    }
    return undefined;
  }

  #spawn(): EngineWorker {
    this.stats.workersStarted += 1;
    return new EngineWorker(this.options.timeLimitMs, {
      onReady: () => this.#scheduleDispatch(),
      onGone: (dead, started) => {
        const index = this.#workers.indexOf(dead);
        if (index >= 0) this.#workers.splice(index, 1);
        this.#startFailures = started ? 0 : this.#startFailures + 1;
        if (this.#startFailures < MAX_START_FAILURES) this.#scheduleDispatch();
        else this.#failWaiting({ failed: 'crashed', detail: 'a JAQ worker thread cannot start' });
      },
    });
  }

  #finish(queue: ProgramQueue, batch: Submission[], reply: BatchReply): void {
    if ('failed' in reply) this.#retryOrFail(queue, batch, reply.failed);
    else if (reply.stderr !== '') {
      // Only a compile error reaches here with stderr (jaq-worker.js); programs are checked when the
      // codec is created, so this is a graph that skipped the check.
      const detail = compileProblem(reply.stderr, queue.program);
      for (const submission of batch) queue.settle(submission, { failed: 'not_compiled', detail });
    } else {
      queue.observe(reply.elapsedMs, batch.length);
      this.#settleLines(queue, batch, reply.stdout);
    }
    this.#forgetIdlePrograms();
    this.#scheduleDispatch();
  }

  /** Programs no codec runs any more (reloads replaced them) are forgotten once there are many. */
  #forgetIdlePrograms(): void {
    if (this.#queues.size <= KEPT_PROGRAMS) return;
    for (const [program, queue] of this.#queues) if (queue.idle) this.#queues.delete(program);
  }

  #retryOrFail(queue: ProgramQueue, batch: Submission[], failure: Failed): void {
    if (failure === 'stopped') {
      for (const submission of batch) queue.settle(submission, STOPPED);
      return;
    }
    if (failure === 'time_limit') {
      this.stats.timeLimits += 1;
      queue.observe(this.options.timeLimitMs, batch.length);
    } else this.stats.crashes += 1;
    const [only] = batch;
    if (batch.length === 1 && only !== undefined) queue.settle(only, { failed: failure });
    else this.#putBack(queue, batch, true);
  }

  /**
   * One line per input that finished. A shorter answer means the program stopped jq (`halt`,
   * `halt_error`, whatever its exit status) at the next input; the inputs after it run again.
   */
  #settleLines(queue: ProgramQueue, batch: Submission[], stdout: string): void {
    const lines = stdout.split('\n').filter((line) => line.length > 0);
    batch.slice(0, lines.length).forEach((submission, index) => {
      queue.settle(submission, outcomeOf(lines[index] ?? ''));
    });
    const halted = batch[lines.length];
    if (halted === undefined) return;
    queue.settle(halted, { failed: 'halted' });
    this.#putBack(queue, batch.slice(lines.length + 1), false);
  }

  #putBack(queue: ProgramQueue, submissions: Submission[], alone: boolean): void {
    queue.putBack(submissions, alone);
    this.#queuedBytes += sizeOf(submissions);
  }
}

type Failed = Extract<BatchReply, { failed: unknown }>['failed'];

function sizeOf(submissions: readonly Submission[]): number {
  return submissions.reduce((sum, { input }) => sum + input.length, 0);
}

function outcomeOf(line: string): InputOutcome {
  const parsed = parseJsonValue(line) as JsonObject;
  const outputs = parsed.ok;
  return Array.isArray(outputs) ? { outputs } : { raised: parsed.error ?? null };
}

let shared: JaqPool | undefined;

/** The node's pool, started on first use. */
export function sharedJaqPool(): JaqPool {
  shared ??= new JaqPool();
  return shared;
}

/** The node's pool if anything has used it yet (for metrics, which must not start it). */
export function startedJaqPool(): JaqPool | undefined {
  return shared;
}

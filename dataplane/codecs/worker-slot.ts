// One worker thread seen from the event loop, as the payload readers and the JAQ pool use theirs: one task
// at a time, a time limit on it, and a replacement story — a thread that runs past the limit is
// terminated, one that runs out of heap or crashes is gone, and either way its owner is told (`onGone`)
// and the task's callback hears why. A new thread takes no task until it says 'ready' (its libraries have
// loaded), so start-up never counts against the time limit. While idle the thread does not keep the
// process alive.
import type { Worker } from 'node:worker_threads';

export type SlotFailure = 'time_limit' | 'memory_limit' | 'crashed' | 'stopped';

/** The thread's answer with how long the task took, or why there is none (`stopped`: the owner closed it). */
export type SlotReply<Reply> = { reply: Reply; elapsedMs: number } | { failed: SlotFailure };

export interface SlotEvents {
  onReady: () => void;
  /** `started` is false when the thread died before it said 'ready'. */
  onGone: (started: boolean) => void;
}

interface Running<Reply> {
  id: number;
  startedAt: number;
  timer: NodeJS.Timeout;
  done: (reply: SlotReply<Reply>) => void;
}

/** Tasks go out as `{ id, ...task }`; the thread answers `{ id, ...reply }` or, once loaded, 'ready'. */
export class WorkerSlot<Task extends object, Reply extends object> {
  readonly #worker: Worker;
  readonly #timeLimitMs: number;
  readonly #events: SlotEvents;
  #ready = false;
  #running: Running<Reply> | undefined;
  #nextId = 1;
  #gone = false;

  constructor(worker: Worker, timeLimitMs: number, events: SlotEvents) {
    this.#worker = worker;
    this.#timeLimitMs = timeLimitMs;
    this.#events = events;
    worker.unref();
    worker.on('message', (message: ({ id: number } & Reply) | 'ready') => {
      if (message !== 'ready') this.#answer(message);
      else {
        this.#ready = true;
        this.#events.onReady();
      }
    });
    worker.on('error', (error: unknown) => {
      const outOfMemory = (error as { code?: unknown }).code === 'ERR_WORKER_OUT_OF_MEMORY';
      this.#lose(outOfMemory ? 'memory_limit' : 'crashed');
    });
    worker.on('exit', () => this.#lose('crashed'));
  }

  get busy(): boolean {
    return !this.#ready || this.#running !== undefined || this.#gone;
  }

  get idle(): boolean {
    return this.#ready && this.#running === undefined && !this.#gone;
  }

  run(task: Task, done: (reply: SlotReply<Reply>) => void): void {
    const id = this.#nextId++;
    const timer = setTimeout(() => this.#lose('time_limit'), this.#timeLimitMs);
    this.#running = { id, startedAt: performance.now(), timer, done };
    this.#worker.ref();
    this.#worker.postMessage({ id, ...task });
  }

  /** Stops the thread; a task it was running is answered `stopped`. */
  async terminate(): Promise<void> {
    this.#gone = true;
    const running = this.#running;
    if (running !== undefined) this.#settle(running, { failed: 'stopped' });
    await this.#worker.terminate();
  }

  #answer({ id, ...reply }: { id: number } & Reply): void {
    const running = this.#running;
    if (running?.id !== id) return;
    this.#settle(running, {
      reply: reply as unknown as Reply,
      elapsedMs: performance.now() - running.startedAt,
    });
  }

  #settle(running: Running<Reply>, reply: SlotReply<Reply>): void {
    clearTimeout(running.timer);
    this.#running = undefined;
    if (!this.#gone) this.#worker.unref();
    running.done(reply);
  }

  #lose(why: Exclude<SlotFailure, 'stopped'>): void {
    if (this.#gone) return;
    this.#gone = true;
    const running = this.#running;
    void this.#worker.terminate();
    this.#events.onGone(this.#ready);
    if (running !== undefined) this.#settle(running, { failed: why });
  }
}

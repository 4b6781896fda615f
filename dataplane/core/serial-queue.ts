// One thing at a time: a data plane's applies, domain removals and stop, and the embedded node's statement
// requests and manifest reloads, run one after another in call order, so each sees the state the previous
// one left and two changes never interleave. When its owner stops, the queue can close: the task running
// finishes, and every task whose turn comes after that is refused with ShuttingDownError (the control API
// answers 503 shutting_down), so nothing touches the data dir or the data plane once they are being shut.

/** The queue is closed: the node is stopping and runs no new work. */
export class ShuttingDownError extends Error {
  override readonly name = 'ShuttingDownError';

  constructor() {
    super('the node is stopping and runs no new statements or reloads');
  }
}

export class SerialQueue {
  #tail: Promise<unknown> = Promise.resolve();
  #closed = false;

  /** Whether close() was called. */
  get closed(): boolean {
    return this.#closed;
  }

  /**
   * Runs `task` after every task queued before it; a failing task does not stop the ones after it. Once
   * the queue is closed, a task whose turn comes is refused with ShuttingDownError instead.
   */
  run<T>(task: () => Promise<T>): Promise<T> {
    const result = this.#tail.then(() => {
      if (this.#closed) throw new ShuttingDownError();
      return task();
    });
    this.#tail = result.then(
      () => undefined,
      () => undefined,
    );
    return result;
  }

  /** Refuses every task not yet started; resolves once the running one (if any) has finished. */
  close(): Promise<void> {
    this.#closed = true;
    return this.#tail.then(() => undefined);
  }
}

// One thing at a time: statement requests and manifest reloads of a node run one after another, so each
// sees the store as the previous one left it and concurrent clients never interleave their changes.

export class SerialQueue {
  #tail: Promise<unknown> = Promise.resolve();

  /** Runs `task` after every task queued before it; a failing task does not stop the ones after it. */
  run<T>(task: () => Promise<T>): Promise<T> {
    const result = this.#tail.then(task);
    this.#tail = result.then(
      () => undefined,
      () => undefined,
    );
    return result;
  }
}

// SIGINT and SIGTERM end a long-running command quietly (exit 0), as Ctrl-C ends `tail -f`: a
// subscription, and `streamroute node` (which then stops cleanly: its lock released, its temporary data
// dir deleted). Listening only while such a command runs, so every other command keeps the default
// (Ctrl-C stops it at once). Tests pass their own AbortSignal instead.

export interface Interrupt {
  signal: AbortSignal;
  /** Stops listening for the signals. */
  dispose(): void;
}

/** `signal` when given (a test's), else one that SIGINT or SIGTERM aborts until dispose(). */
export function untilInterrupted(signal?: AbortSignal): Interrupt {
  if (signal !== undefined) return { signal, dispose: () => undefined };
  const controller = new AbortController();
  const stop = (): void => controller.abort();
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  return {
    signal: controller.signal,
    dispose: () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
    },
  };
}

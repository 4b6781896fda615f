// SIGINT and SIGTERM end a subscription quietly (exit 0), as Ctrl-C ends `tail -f`. Listening only while
// a subscription runs, so every other command keeps the default (Ctrl-C stops it at once).

export interface Interrupt {
  signal: AbortSignal;
  /** Stops listening for the signals. */
  dispose(): void;
}

export function untilInterrupted(): Interrupt {
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

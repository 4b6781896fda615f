// Waits of the real-cluster suites: every one has a deadline and says what it waited for, and what the
// last check saw, when it gives up.

export async function waitUntil<T>(
  what: string,
  check: () => Promise<T | false | undefined> | T | false | undefined,
  timeoutMs: number,
  intervalMs = 250,
): Promise<T> {
  const started = Date.now();
  let last = 'no check finished';
  for (;;) {
    try {
      const result = await check();
      if (result !== false && result !== undefined) return result;
      last = `the last check said ${String(result)}`;
    } catch (error: unknown) {
      last = `the last check threw: ${error instanceof Error ? error.message : String(error)}`;
    }
    if (Date.now() - started > timeoutMs) {
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}; ${last}`);
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

/** Milliseconds since `start` (from performance.now()). */
export function since(start: number): number {
  return Math.round(performance.now() - start);
}

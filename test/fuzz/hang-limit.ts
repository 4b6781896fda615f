// How long one input may keep a fuzz worker busy before it is a hang: one second, plus a budget per MiB
// of input for the parsers that are linear but slow (YAML, statements). The budget is about twice the
// slowest rate measured for that parser on its worst inputs found (docs/benchmarks.md, "Fuzzing the
// parsers"), so a shared machine's noise is no hang, while super-linear work still is: a quadratic cost
// that is as fast as the parser at 64 KiB is 16 times slower than it at 1 MiB, past any such budget.

export const HANG_BASE_MS = 1000;
const MiB = 1024 * 1024;

/** Milliseconds an input of `bytes` may run for a target with budget `msPerMiB` before it is a hang. */
export function hangLimitMs(msPerMiB: number, bytes: number): number {
  return HANG_BASE_MS + (msPerMiB * bytes) / MiB;
}

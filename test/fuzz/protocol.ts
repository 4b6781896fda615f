// What the fuzz runner and its worker share: the worker's start data, its messages, and the layout of the
// shared memory that holds the input being run (so a hung worker's input survives its termination).

/** Int32 slots at the start of the shared buffer; the input's bytes follow them. */
export const Slot = {
  /** Inputs finished so far: the watchdog's heartbeat. */
  Progress: 0,
  /** Length of the input now running. */
  Length: 1,
  /** Its input seed (as int32). */
  InputSeed: 2,
  /** 1 while the worker runs inputs (not while it loads the target). */
  Running: 3,
} as const;
export const HEADER = 4;

/** Room for the largest input of any target (the payload formats' 1 MiB body limit, with margin). */
export const MAX_INPUT_BYTES = 2 * 1024 * 1024;

export interface WorkerData {
  target: string;
  seed: number;
  /** Epoch milliseconds when the worker stops. */
  deadline: number;
  shared: SharedArrayBuffer;
  /** Bytes of heap growth allowed beyond 4× the input's size before an input is a memory outlier. */
  memoryAllowance: number;
}

export interface Finding {
  kind: 'crash' | 'hang' | 'memory';
  input: Uint8Array;
  inputSeed: number;
  /** A stack, or what was measured. */
  detail: string;
}

/** The slowest input so far: its time and size (what a target's hang budget is measured from). */
export interface Slowest {
  ms: number;
  bytes: number;
}

export type ToMain =
  | { type: 'ready'; corpus: number; msPerMiB: number }
  | { type: 'progress'; count: number; peakHeap: number; corpus: number; slowest: Slowest }
  | { type: 'done'; count: number; peakHeap: number; corpus: number; slowest: Slowest }
  | { type: 'finding'; finding: Finding };

/** The seed of the generator a target's `run` gets for an input (a replay needs only the input and this). */
export function runSeed(inputSeed: number): number {
  return (inputSeed ^ 0x5bd1e995) >>> 0;
}

// The fuzz worker: runs one target's inputs in a loop until the deadline. Before each input it copies the
// input into shared memory and after it bumps a progress counter, so the main thread can kill a worker
// stuck on one input (a hang) and still know the input. Crashes and memory outliers are posted as found.
// A process warning emitted while an input runs is a crash (warnings.ts).
import { getHeapStatistics } from 'node:v8';
import { parentPort, workerData } from 'node:worker_threads';
import { Mutator, Rng } from './mutate.js';
import { loadTarget } from './target.js';
import { catchWarnings, takeWarnings } from './warnings.js';
import {
  HEADER,
  runSeed,
  Slot,
  type Finding,
  type Slowest,
  type ToMain,
  type WorkerData,
} from './protocol.js';

// Deep enough to show the product's frame below a library's recursion (a stack overflow fills the top).
Error.stackTraceLimit = 200;

catchWarnings();

const data = workerData as WorkerData;
const port = parentPort;
if (port === null) throw new Error('worker.ts runs in a worker thread');

const header = new Int32Array(data.shared, 0, HEADER);
const current = new Uint8Array(data.shared, HEADER * 4);

function post(message: ToMain): void {
  port?.postMessage(message);
}

/** Heap bytes in use, JavaScript objects and external (Buffer, ArrayBuffer) memory together. */
function heapBytes(): number {
  const stats = getHeapStatistics();
  return stats.used_heap_size + stats.external_memory;
}

function finding(kind: Finding['kind'], input: Uint8Array, inputSeed: number, detail: string): Finding {
  return { kind, input: input.slice(), inputSeed, detail };
}

function describe(error: unknown): string {
  return error instanceof Error
    ? (error.stack ?? `${error.name}: ${error.message}`)
    : `thrown: ${String(error)}`;
}

/** Runs inputs until the deadline. */
async function main(): Promise<void> {
  const load = loadTarget(data.target);
  if (load === undefined) throw new Error(`no target ${data.target}`);
  const target = await load();
  const mutator = new Mutator(target.seeds(), target);
  for (const warning of takeWarnings()) console.error(`[${data.target}] while loading: ${warning}`);
  const rng = new Rng(data.seed);
  const allowance = data.memoryAllowance;
  let count = 0;
  let peakHeap = 0;
  let lastPost = Date.now();
  const slowest: Slowest = { ms: 0, bytes: 0 };
  post({ type: 'ready', corpus: mutator.corpusSize, msPerMiB: target.msPerMiB ?? 0 });
  Atomics.store(header, Slot.Running, 1);
  while (Date.now() < data.deadline) {
    const inputSeed = rng.next();
    const input = mutator.next(new Rng(inputSeed));
    current.set(input);
    Atomics.store(header, Slot.Length, input.length);
    Atomics.store(header, Slot.InputSeed, inputSeed | 0);
    const before = heapBytes();
    const started = performance.now();
    let accepted = false;
    try {
      accepted = target.run(input, new Rng(runSeed(inputSeed)));
    } catch (error: unknown) {
      post({ type: 'finding', finding: finding('crash', input, inputSeed, describe(error)) });
    }
    for (const warning of takeWarnings())
      post({ type: 'finding', finding: finding('crash', input, inputSeed, warning) });
    const took = performance.now() - started;
    if (took > slowest.ms) Object.assign(slowest, { ms: took, bytes: input.length });
    const after = heapBytes();
    peakHeap = Math.max(peakHeap, after);
    if (after - before > 4 * input.length + allowance) {
      const detail = `heap grew by ${after - before} bytes for an input of ${input.length} bytes`;
      post({ type: 'finding', finding: finding('memory', input, inputSeed, detail) });
    }
    if (accepted && rng.chance(0.05)) mutator.keep(input, rng);
    count++;
    Atomics.add(header, Slot.Progress, 1);
    if (Date.now() - lastPost >= 250) {
      post({ type: 'progress', count, peakHeap, corpus: mutator.corpusSize, slowest });
      lastPost = Date.now();
    }
  }
  Atomics.store(header, Slot.Running, 0);
  post({ type: 'done', count, peakHeap, corpus: mutator.corpusSize, slowest });
}

await main();

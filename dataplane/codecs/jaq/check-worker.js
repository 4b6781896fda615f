// The worker thread of the JAQ compile check (check-thread.ts): one jq (WebAssembly) instance that only
// compiles. The caller blocks on `signal` until a reply is on `port`, so jq's compiler never runs on the
// caller's thread. Whatever goes wrong in here — jq aborting on a failed allocation, an assertion of its
// compiler, a stack overflow, a loop — stays in this thread: the caller stops waiting at its time limit,
// and a thread whose jq may be damaged is never asked again (`retire`). Plain JavaScript so that it starts
// the same under tsx and when built; started with an empty environment, like the engine's workers.
import { loadJq } from 'jq-wasm';
import { workerData } from 'node:worker_threads';

// What jq-wasm prints itself (`Aborted()`, jq's own "cannot allocate memory") is not the caller's output.
const silent = () => true;
process.stdout.write = silent;
process.stderr.write = silent;
for (const level of ['log', 'info', 'warn', 'error', 'debug']) console[level] = silent;

/**
 * @typedef {{ module: unknown, port: import('node:worker_threads').MessagePort,
 *   signal: SharedArrayBuffer, maxMemoryBytes: number, keepMemoryBytes: number,
 *   guard: { from: number, to: number } | undefined }} CheckWorkerData
 */
// eslint-disable-next-line @typescript-eslint/no-unsafe-assignment -- workerData is untyped; check-thread.ts sends this
const { module, port, signal, maxMemoryBytes, keepMemoryBytes, guard } = /** @type {CheckWorkerData} */ (
  workerData
);
const flag = new Int32Array(signal);

// The parts of WebAssembly's API used here (the project's TypeScript libs declare only its types).
/** @typedef {{ buffer: ArrayBuffer, grow(pages: number): number }} WasmMemory */
/** @typedef {{ exports: Record<string, unknown> }} WasmInstance */
/** @typedef {{ instantiate(module: unknown, imports: unknown): Promise<WasmInstance>, Memory: Function }} WasmApi */
// eslint-disable-next-line @typescript-eslint/no-unsafe-assignment -- the global, typed by the cast
const wasm = /** @type {WasmApi} */ (Reflect.get(globalThis, 'WebAssembly'));

/** Set when jq asked for more memory than the check allows during the current call. */
let refusedGrowth = false;
/** @type {WasmMemory | undefined} */
let memory;

const jq = await loadJq({
  instantiateWasm(imports, done) {
    // Emscripten grows jq's heap through this import; above the limit it answers no, so jq's malloc
    // fails and jq stops (WebAssembly memory is not counted by the thread's resourceLimits).
    // eslint-disable-next-line @typescript-eslint/no-unsafe-assignment -- Emscripten's imports: untyped
    const env = /** @type {Record<string, unknown>} */ (Reflect.get(imports, 'a') ?? {});
    for (const [name, grow] of Object.entries(env)) {
      if (typeof grow !== 'function' || grow.name !== '_emscripten_resize_heap') continue;
      const resize = /** @type {(bytes: number) => boolean} */ (grow);
      env[name] = (/** @type {number} */ bytes) => {
        if (bytes >>> 0 > maxMemoryBytes) {
          refusedGrowth = true;
          return false;
        }
        return resize(bytes);
      };
    }
    void wasm.instantiate(module, imports).then((instance) => {
      memory = /** @type {WasmMemory | undefined} */ (
        Object.values(instance.exports).find((value) => value instanceof wasm.Memory)
      );
      // Emscripten grows by a fifth more than asked when it can: the limit holds for that too.
      if (memory !== undefined) {
        const heap = memory;
        const grow = heap.grow.bind(heap);
        heap.grow = (pages) => {
          if (heap.buffer.byteLength + pages * 65536 <= maxMemoryBytes) return grow(pages);
          refusedGrowth = true;
          throw new RangeError('over the compile check’s memory limit');
        };
      }
      done(/** @type {never} */ (instance), module);
    });
  },
});

/**
 * The stack guard: bytes near the far end of jq's stack, all zero at start. jq's stack grows down toward
 * its static data, with no check of its own: a program nested deeply enough writes past it and damages
 * the instance without a word. A call that reached the guard is refused and the thread is retired.
 */
function guardTouched() {
  if (guard === undefined || memory === undefined) return false;
  const words = new BigUint64Array(memory.buffer, guard.from, (guard.to - guard.from) / 8);
  return words.some((word) => word !== 0n);
}
const guardUsable = guard !== undefined && !guardTouched();

/** @param {{ id: number, program: string }} request */
function check(request) {
  refusedGrowth = false;
  try {
    const { exitCode, stderr } = jq.raw(null, request.program, ['-n']);
    if (refusedGrowth) return { id: request.id, failure: 'out_of_memory', retire: true };
    if (guardUsable && guardTouched()) return { id: request.id, failure: 'too_deep', retire: true };
    const retire = (memory?.buffer.byteLength ?? 0) > keepMemoryBytes;
    return { id: request.id, exitCode, stderr: exitCode === 0 ? '' : stderr, retire };
  } catch (error) {
    // jq aborted (a failed allocation, an assertion) or overflowed a stack: its heap is in no known state.
    const failure = refusedGrowth ? 'out_of_memory' : error instanceof RangeError ? 'too_deep' : 'crashed';
    return { id: request.id, failure, retire: true };
  }
}

// The first compile of an instance is slower (jq's builtins, the engine's first pass over the code): done
// here, before the caller is told the thread is ready, so it never counts against a program's time limit.
jq.raw(null, '.', ['-n']);

port.on('message', (/** @type {{ id: number, program: string }} */ request) => {
  port.postMessage(check(request));
  Atomics.store(flag, 0, 1);
  Atomics.notify(flag, 0);
});
Atomics.store(flag, 0, 1);
Atomics.notify(flag, 0);

// A worker thread of the JAQ engine pool: one jq (WebAssembly) instance, one batch at a time. It only runs
// what the pool sends and answers with jq's raw result; every decision (splitting outputs per input, time
// limits, retries) is the pool's (engine-worker.ts holds the message types). Plain JavaScript so that it
// starts the same under tsx and when built. Started with an empty environment, so jq's `$ENV` has nothing
// of the node's even before the program wrapper hides it.
import { loadJq } from 'jq-wasm';
import { parentPort } from 'node:worker_threads';

// What jq-wasm prints itself (`Aborted()` when a program exhausts its memory) is not the node's log.
const silent = () => true;
process.stdout.write = silent;
process.stderr.write = silent;
for (const level of ['log', 'info', 'warn', 'error', 'debug']) console[level] = silent;

const jq = await loadJq();
const port = parentPort;
if (port === null) throw new Error('jaq-worker.js runs as a worker thread');

port.on('message', (/** @type {{ id: number, program: string, inputs: string[] }} */ request) => {
  const { exitCode, stdout, stderr } = jq.raw(`[${request.inputs.join(',')}]`, request.program, ['-c']);
  // stderr only for a compile error: whatever else is there came from halt_error, and may hold values.
  const compileError = /^jq: \d+ compile errors?$/m.test(stderr);
  port.postMessage({ id: request.id, exitCode, stdout, stderr: compileError ? stderr : '' });
});
port.postMessage('ready');

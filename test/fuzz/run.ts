// The fuzz runner for streamroute's parsers (a benchmark, not a timed test).
//
//   npm run fuzz -- --target <name>|all [--seconds N] [--seed N] [--out DIR]
//   npm run fuzz -- --list
//   npm run fuzz -- --target <name> --replay FILE [--input-seed N]
//
// Targets (test/fuzz/target.ts; one small file each under test/fuzz/targets/): statements, resource-yaml,
// format-json|yaml|toml|xml|cbor, syslog, syslog-framing, protobuf, admin-routes, jaq-compiled (compiled
// jq against jq-wasm: an input's bytes seed one generated program and its inputs). `--target` takes one
// name, a comma-separated list or `all`; `--seconds` is per target (default 10): seconds in CI, hours by
// hand.
//
// Inputs are mutations of seeds (the repo's examples/, test data, docs code blocks and a few hand-written
// ones per target): bit flips, byte sets, inserts, deletes, splices between seeds, dictionary tokens,
// repeated runs and deep nesting, up to each target's real size limit. Inputs the parser accepts join the
// corpus now and then. Everything follows from `--seed` (default 1): the same seed tries the same inputs
// (as long as the corpus of seeds is the same and no worker had to be restarted).
//
// Each target runs in a worker thread. Findings:
// - crash: an exception other than the parser's documented answer for bad input, or a broken invariant (a
//   round trip that changes the view, frames that depend on how the stream was split);
// - hang: one input that keeps the worker from reporting progress for longer than its limit: 1 s plus
//   the target's budget per MiB of input (`msPerMiB`, hang-limit.ts) for parsers that are linear but slow
//   at their 1 MiB limit: resource-yaml and format-yaml 10000 ms/MiB, statements 6000, the other payload
//   formats 2000, the rest none. Each is about twice the slowest rate measured for that parser on the
//   worst inputs found (docs/benchmarks.md). A quadratic cost as fast as the parser at 64 KiB is 16×
//   slower than it at 1 MiB: still a hang (hang-limit.test.ts). The main thread kills the worker, keeps
//   the input (it is in shared memory) and starts a fresh worker for the time left;
// - process warning: a warning emitted while an input runs (it may quote the input and would reach the
//   node's log) is a crash (warnings.ts);
// - memory outlier: an input after which the worker's heap (objects and external memory) is larger by
//   more than 4× the input's size plus a fixed allowance (16 MiB). This is measured between inputs, so a
//   parse's garbage collected mid-run is not seen; a worker that runs out of heap is a crash.
// Crash and hang inputs are saved (the first few of each distinct stack) under
// ~/.cache/streamroute/fuzz/<target>/ as <kind>-<hash>.bin with a .txt beside it: the finding's stack or
// measurement and a one-line command that reproduces it. The summary gives, per target: inputs tried,
// inputs/s, crashes, hangs, memory outliers, the slowest input (time and size), peak worker heap and peak
// process RSS. Exit code 1 when any target found a crash or hang; memory outliers are reported only (a
// heap measured between inputs is noisy; memory that grows without bound ends as an out-of-memory crash).
//
// CI: `npm run fuzz:ci` runs every target for 10 s with seed 1 (about 2.5 minutes on 2 cores); another
// seed with `npm run fuzz:ci -- --seed N`.
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Worker } from 'node:worker_threads';
import { YOUNG_GENERATION_MB } from '../../dataplane/codecs/reading/reader-thread.js';
import { hangLimitMs } from './hang-limit.js';
import { Rng } from './mutate.js';
import {
  HEADER,
  MAX_INPUT_BYTES,
  runSeed,
  Slot,
  type Finding,
  type Slowest,
  type ToMain,
  type WorkerData,
} from './protocol.js';
import { loadTarget, TARGETS } from './target.js';
import { catchWarnings, takeWarnings } from './warnings.js';

const WATCH_MS = 100;
const MEMORY_ALLOWANCE = 16 * 1024 * 1024;
/** Inputs saved per distinct stack (the rest are counted). */
const SAVED_PER_SIGNATURE = 3;
/** A worker's heap limit: an input that needs more is a crash (out of memory), not the machine's problem. */
const WORKER_HEAP_MB = 1024;

interface Options {
  targets: string[];
  seconds: number;
  seed: number;
  out: string;
}

interface Summary {
  target: string;
  inputs: number;
  seconds: number;
  crashes: number;
  hangs: number;
  memory: number;
  signatures: Map<string, { kind: Finding['kind']; count: number; saved: string[]; top: string }>;
  peakHeap: number;
  peakRss: number;
  corpus: number;
  slowest: Slowest;
}

function usage(message: string): never {
  console.error(
    `${message}\nusage: npm run fuzz -- --target <${Object.keys(TARGETS).join('|')}|all> [--seconds N] [--seed N]`,
  );
  process.exit(2);
}

function selectTargets(text: string): string[] {
  if (text === 'all') return Object.keys(TARGETS);
  const names = text.split(',').map((name) => name.trim());
  for (const name of names) if (loadTarget(name) === undefined) usage(`no fuzz target ${name}`);
  return names;
}

/** The first frames of a stack that are not the fuzzer's own or node's: what tells findings apart. */
function signature(finding: Finding): string {
  const lines = finding.detail.split('\n');
  const message = (lines[0] ?? '').replace(/\d+/g, 'N').slice(0, 120);
  const frames = lines
    .filter(
      (line) => line.trim().startsWith('at ') && !line.includes('/test/fuzz/') && !line.includes('node:'),
    )
    .slice(0, 3)
    .map((line) => line.trim().replace(/:\d+:\d+\)?$/, ''));
  return finding.kind === 'memory' ? 'memory' : `${finding.kind}: ${message} ${frames.join(' | ')}`;
}

/** The message, the top frames and the first frame in the product's code (its entry point), shortened. */
function headline(detail: string): string {
  const lines = detail.split('\n');
  const frames = lines.filter((line) => line.trim().startsWith('at '));
  const top = frames.slice(0, 3);
  const product = frames.find(
    (line) => /\/(operator|dataplane)\//.test(line) && !line.includes('node_modules'),
  );
  const entry = product !== undefined && !top.includes(product) ? ['    …', product] : [];
  return [lines[0] ?? '', ...top, ...entry]
    .map((line) => (line.length > 200 ? `${line.slice(0, 200)}…` : line))
    .join('\n');
}

function save(options: Options, target: string, finding: Finding): string {
  const dir = join(options.out, target);
  mkdirSync(dir, { recursive: true });
  const hash = createHash('sha256').update(finding.input).digest('hex').slice(0, 16);
  const path = join(dir, `${finding.kind}-${hash}.bin`);
  writeFileSync(path, finding.input);
  const replay = `npm run fuzz -- --target ${target} --replay ${path} --input-seed ${finding.inputSeed >>> 0}`;
  writeFileSync(
    `${path.slice(0, -4)}.txt`,
    `${replay}\n\n${finding.kind} (${finding.input.length} bytes)\n${finding.detail}\n`,
  );
  return path;
}

function record(options: Options, summary: Summary, finding: Finding): void {
  if (finding.kind === 'crash') summary.crashes++;
  else if (finding.kind === 'hang') summary.hangs++;
  else summary.memory++;
  const key = signature(finding);
  let entry = summary.signatures.get(key);
  if (entry === undefined) {
    entry = {
      kind: finding.kind,
      count: 0,
      saved: [],
      top: headline(finding.detail),
    };
    summary.signatures.set(key, entry);
    console.log(`[${summary.target}] new ${finding.kind}: ${entry.top.split('\n')[0] ?? ''}`);
  }
  entry.count++;
  if (entry.saved.length < SAVED_PER_SIGNATURE) entry.saved.push(save(options, summary.target, finding));
}

/** One worker from now until `deadline`; resolves when it finishes, crashes out or is killed for a hang. */
function runWorker(options: Options, summary: Summary, seed: number, deadline: number): Promise<void> {
  const shared = new SharedArrayBuffer(HEADER * 4 + MAX_INPUT_BYTES);
  const header = new Int32Array(shared, 0, HEADER);
  const data: WorkerData = {
    target: summary.target,
    seed,
    deadline,
    shared,
    memoryAllowance: MEMORY_ALLOWANCE,
  };
  // Node 20 does not pass tsx's loader to workers: the worker registers it before importing worker.ts.
  const boot = `import('tsx/esm/api').then((tsx) => { tsx.register(); return import(${JSON.stringify(new URL('./worker.ts', import.meta.url).href)}); })`;
  const worker = new Worker(boot, {
    eval: true,
    workerData: data,
    // a capped young generation: Node 24's default (192 MiB) can overshoot the limit and abort the runner
    resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB, maxYoungGenerationSizeMb: YOUNG_GENERATION_MB },
  });
  const currentInput = (detail: string, kind: Finding['kind']): Finding => {
    const length = Atomics.load(header, Slot.Length);
    const input = new Uint8Array(shared, HEADER * 4, length).slice();
    return { kind, input, inputSeed: Atomics.load(header, Slot.InputSeed), detail };
  };
  let counted = 0;
  let msPerMiB = 0;
  return new Promise((resolve) => {
    let lastProgress = Atomics.load(header, Slot.Progress);
    let lastChange = Date.now();
    let finished = false;
    const finish = (): void => {
      if (finished) return;
      finished = true;
      clearInterval(watch);
      summary.inputs += counted;
      resolve();
    };
    const watch = setInterval(() => {
      summary.peakRss = Math.max(summary.peakRss, process.memoryUsage.rss());
      const progress = Atomics.load(header, Slot.Progress);
      if (progress !== lastProgress || Atomics.load(header, Slot.Running) === 0) {
        lastProgress = progress;
        lastChange = Date.now();
        return;
      }
      const bytes = Atomics.load(header, Slot.Length);
      const limit = hangLimitMs(msPerMiB, bytes);
      if (Date.now() - lastChange < limit) return;
      const stuck = Date.now() - lastChange;
      const why = `no progress for ${stuck} ms on one input of ${bytes} bytes (limit ${Math.round(limit)} ms: 1 s + ${msPerMiB} ms/MiB); the worker was killed`;
      record(options, summary, currentInput(why, 'hang'));
      counted = progress;
      finish();
      void worker.terminate();
    }, WATCH_MS);
    worker.on('message', (message: ToMain) => {
      if (message.type === 'finding') record(options, summary, message.finding);
      else if (message.type === 'ready') msPerMiB = message.msPerMiB;
      else {
        counted = message.count;
        if (message.slowest.ms > summary.slowest.ms) summary.slowest = message.slowest;
        summary.peakHeap = Math.max(summary.peakHeap, message.peakHeap);
        summary.corpus = message.corpus;
      }
    });
    worker.on('error', (error: Error) => {
      const progress = Atomics.load(header, Slot.Progress);
      if (Atomics.load(header, Slot.Running) === 1) {
        record(options, summary, currentInput(`the worker died: ${error.stack ?? error.message}`, 'crash'));
      } else console.error(`[${summary.target}] the worker failed: ${error.stack ?? error.message}`);
      counted = progress;
      finish();
    });
    worker.on('exit', finish);
  });
}

async function fuzzTarget(options: Options, target: string): Promise<Summary> {
  const summary: Summary = {
    target,
    inputs: 0,
    seconds: 0,
    crashes: 0,
    hangs: 0,
    memory: 0,
    signatures: new Map(),
    peakHeap: 0,
    peakRss: 0,
    corpus: 0,
    slowest: { ms: 0, bytes: 0 },
  };
  const started = Date.now();
  const deadline = started + options.seconds * 1000;
  const seeds = new Rng(options.seed);
  let seed = options.seed;
  let workerFailures = 0;
  while (Date.now() < deadline - 200 && workerFailures < 50) {
    const before = summary.crashes + summary.hangs;
    await runWorker(options, summary, seed, deadline);
    if (summary.crashes + summary.hangs === before && Date.now() < deadline - 200) workerFailures++;
    seed = seeds.next(); // a restarted worker continues from a new seed, so it does not replay the hang
  }
  summary.seconds = (Date.now() - started) / 1000;
  return summary;
}

const MiB = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(0)} MiB`;

function printSummary(summaries: Summary[]): void {
  console.log(
    '\ntarget            inputs   inputs/s  crashes  hangs  memory  corpus  slowest input     peak heap  peak RSS',
  );
  for (const s of summaries) {
    const rate = s.seconds > 0 ? Math.round(s.inputs / s.seconds) : 0;
    const slowest = `${s.slowest.ms.toFixed(0)} ms/${(s.slowest.bytes / 1024).toFixed(0)} KiB`;
    console.log(
      `${s.target.padEnd(16)} ${String(s.inputs).padStart(8)} ${String(rate).padStart(9)} ${String(s.crashes).padStart(8)} ${String(s.hangs).padStart(6)} ${String(s.memory).padStart(7)} ${String(s.corpus).padStart(7)}  ${slowest.padEnd(16)} ${MiB(s.peakHeap).padStart(9)} ${MiB(s.peakRss).padStart(9)}`,
    );
  }
  for (const s of summaries) {
    for (const [, entry] of s.signatures) {
      console.log(
        `\n[${s.target}] ${entry.kind} ×${entry.count}\n${entry.top}\n  saved: ${entry.saved.join('\n         ') || '-'}`,
      );
    }
  }
}

/** Runs one saved input in this thread and says what happens (the reproduction of a finding). */
async function replay(target: string, file: string, inputSeed: number): Promise<number> {
  const load = loadTarget(target);
  if (load === undefined) usage(`no fuzz target ${target}`);
  const fuzzTarget = await load();
  const input = new Uint8Array(readFileSync(file));
  catchWarnings();
  const started = performance.now();
  const heapBefore = process.memoryUsage().heapUsed;
  try {
    const accepted = fuzzTarget.run(input, new Rng(runSeed(inputSeed)));
    const took = performance.now() - started;
    const grew = process.memoryUsage().heapUsed - heapBefore;
    const limit = hangLimitMs(fuzzTarget.msPerMiB ?? 0, input.length);
    console.log(
      `${target}: ${input.length} bytes ${accepted ? 'accepted' : 'refused'} in ${took.toFixed(0)} ms (hang limit ${limit.toFixed(0)} ms), heap +${MiB(grew)}`,
    );
    const warnings = takeWarnings();
    for (const warning of warnings) console.log(`CRASH: ${warning}`);
    return took > limit || warnings.length > 0 ? 1 : 0;
  } catch (error: unknown) {
    console.log(
      `${target}: ${input.length} bytes: CRASH after ${(performance.now() - started).toFixed(0)} ms`,
    );
    console.log(error);
    return 1;
  }
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      target: { type: 'string' },
      seconds: { type: 'string', default: '10' },
      seed: { type: 'string', default: '1' },
      out: { type: 'string', default: join(homedir(), '.cache', 'streamroute', 'fuzz') },
      replay: { type: 'string' },
      'input-seed': { type: 'string', default: '0' },
      list: { type: 'boolean', default: false },
    },
  });
  if (values.list) {
    console.log(Object.keys(TARGETS).join('\n'));
    return 0;
  }
  if (values.target === undefined) usage('--target is required');
  if (values.replay !== undefined) return replay(values.target, values.replay, Number(values['input-seed']));
  const options: Options = {
    targets: selectTargets(values.target),
    seconds: Number(values.seconds),
    seed: Number(values.seed),
    out: values.out,
  };
  if (!(options.seconds > 0) || !Number.isInteger(options.seed))
    usage('--seconds must be > 0 and --seed an integer');
  const summaries: Summary[] = [];
  for (const target of options.targets) {
    console.log(`[${target}] fuzzing for ${options.seconds} s (seed ${options.seed})`);
    summaries.push(await fuzzTarget(options, target));
  }
  printSummary(summaries);
  return summaries.some((s) => s.crashes + s.hangs > 0) ? 1 : 0;
}

process.exitCode = await main();

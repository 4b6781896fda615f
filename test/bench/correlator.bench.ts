// Correlator benchmark (not a timed test): CORRELATE WHERE left.id = right.id, MATCH EARLIEST.
//   - index, 100k: 100,000 left records wait; then 100,000 right records arrive in random order, each
//     pairing with one of them (pending falls from 100k to 0). Matched pairs/s.
//   - index, steady 100k: 100,000 left records wait; each step a right record pairs with a random one and a
//     new left record arrives, so 100k stay pending. Pairs/s with both offers of a pair timed.
//   - the same with WHERE compiled by the runtime (dataplane/expr/expressions.ts), as a correlator runs it;
//   - baseline in the same run: the naive scan (the reference model of the property test) and the index
//     on 1,000 pending records, the same workload as the first row.
//   - memory per pending record: heap growth after GC when 100,000 records start waiting (the records
//     themselves exist before), and for comparison what one such record takes.
// Median of several runs after warm-up runs; the workloads take turns, so load on the machine hits all alike.
//
//   npx tsx --expose-gc test/bench/correlator.bench.ts
import { performance } from 'node:perf_hooks';
import { CorrelatorEngine, type Side } from '../../dataplane/correlator/engine.js';
import { systemClock } from '../../dataplane/core/clock.js';
import type { Expr } from '../../dataplane/graph/expression.js';
import { compileExpression } from '../../dataplane/expr/expressions.js';
import { Instant, type RecordValues } from '../../dataplane/core/values.js';
import { ReferenceCorrelator } from '../fixtures/correlator-reference.js';

const WARM_UP = 3;
const RUNS = 11;
const PENDING = 100_000;
const BASELINE_PENDING = 1_000;
const MAX_TIME_MS = 30_000;

const gc = (globalThis as { gc?: () => void }).gc;
if (gc === undefined) throw new Error('run with: npx tsx --expose-gc test/bench/correlator.bench.ts');

const where = (left: RecordValues, right: RecordValues): boolean => left.id === right.id;

/** The same WHERE as the runtime runs it: the typed expression tree compiled by dataplane/runtime. */
const field = (scope: 'left' | 'right'): Expr => ({
  kind: 'field',
  scope,
  name: 'id',
  type: 'STRING',
  nullable: false,
});
const compiled = compileExpression(
  { kind: 'binary', op: '=', left: field('left'), right: field('right'), type: 'BOOL', nullable: false },
  { now: () => Instant.fromMillis(Date.now()) },
);
const compiledWhere = (left: RecordValues, right: RecordValues): boolean =>
  compiled({ left, right }) === true;

/** A fixed permutation of 0..n-1 (mulberry32), so every run sees the same arrival order. */
function shuffled(n: number, seed = 42): number[] {
  const order = Array.from({ length: n }, (_, i) => i);
  let state = seed;
  for (let i = n - 1; i > 0; i -= 1) {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    const j = Math.floor((((t ^ (t >>> 14)) >>> 0) / 4294967296) * (i + 1));
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
  return order;
}

const lefts = (n: number, from = 0): RecordValues[] =>
  Array.from({ length: n }, (_, i) => ({ id: `order-${from + i}`, amount: 1000n + BigInt(i) }));
const rights = (n: number): RecordValues[] =>
  shuffled(n).map((i) => ({ id: `order-${i}`, payment: `pay-${i}` }));

interface Counter {
  pairs: number;
}

function engine(counter: Counter, predicate = where): CorrelatorEngine {
  return new CorrelatorEngine({
    match: 'EARLIEST',
    maxTimeMs: MAX_TIME_MS,
    maxPending: 2 * PENDING,
    keys: [{ left: 'id', right: 'id' }],
    where: predicate,
    clock: systemClock,
    onPair: () => (counter.pairs += 1),
    onTimeout: () => assert(false, 'no record may time out during the benchmark'),
    onOverflow: () => assert(false, 'no record may overflow during the benchmark'),
  });
}

function assert(ok: boolean, message: string): asserts ok {
  if (!ok) throw new Error(message);
}

interface Subject {
  offer(side: Side, record: RecordValues): void;
  pending(side: Side): number;
  readonly pairs: number;
  stop(): void;
}

function indexed(predicate = where): Subject {
  const counter = { pairs: 0 };
  const correlator = engine(counter, predicate);
  return {
    offer: (side, record) => correlator.offer(side, record),
    pending: (side) => correlator.pending(side),
    get pairs() {
      return counter.pairs;
    },
    stop: () => correlator.stop(),
  };
}

/** The reference model: every arrival scans every pending record. */
function naive(): Subject {
  const model = new ReferenceCorrelator({
    match: 'EARLIEST',
    maxTimeMs: MAX_TIME_MS,
    maxPending: 2 * PENDING,
    where,
  });
  const now = performance.now();
  return {
    offer: (side, record) => model.offer(side, record, now),
    pending: (side) => model.pending(side),
    get pairs() {
      return model.events.length;
    },
    stop: () => undefined,
  };
}

/**
 * Pairs/s of `pending` right arrivals, each meeting one of `pending` waiting left records; repeated
 * `cycles` times with a fresh correlator (only the arrivals are timed), so small sets are timed long enough.
 */
function drainRun(subject: () => Subject, pending: number, cycles: number): number {
  const [waiting, arriving] = [lefts(pending), rights(pending)];
  let elapsed = 0;
  for (let cycle = 0; cycle < cycles; cycle += 1) {
    const correlator = subject();
    for (const record of waiting) correlator.offer('left', record);
    gc!();
    const start = performance.now();
    for (const record of arriving) correlator.offer('right', record);
    elapsed += performance.now() - start;
    assert(correlator.pairs === pending && correlator.pending('left') === 0, 'every right record must pair');
    correlator.stop();
  }
  return (pending * cycles) / (elapsed / 1000);
}

/** Pairs/s with 100k pending throughout: each step one right arrival pairs, one left arrival waits. */
function steadyRun(): number {
  const counter = { pairs: 0 };
  const correlator = engine(counter);
  const [waiting, arriving, newcomers] = [lefts(PENDING), rights(PENDING), lefts(PENDING, PENDING)];
  for (const record of waiting) correlator.offer('left', record);
  gc!();
  const start = performance.now();
  for (let i = 0; i < PENDING; i += 1) {
    correlator.offer('right', arriving[i]!);
    correlator.offer('left', newcomers[i]!);
  }
  const seconds = (performance.now() - start) / 1000;
  assert(counter.pairs === PENDING && correlator.pending('left') === PENDING, 'steady state must hold');
  correlator.stop();
  return PENDING / seconds;
}

/** Heap growth per record when 100,000 existing records start waiting in a new engine. */
function bytesPerPending(): number {
  const records = lefts(PENDING);
  gc!();
  const before = process.memoryUsage().heapUsed;
  const correlator = engine({ pairs: 0 });
  for (const record of records) correlator.offer('left', record);
  gc!();
  const after = process.memoryUsage().heapUsed;
  assert(correlator.pending('left') === PENDING, 'every record must wait');
  correlator.stop();
  return (after - before) / PENDING;
}

/** Heap growth per record when 100,000 records are built (for comparison). */
function recordSize(): number {
  gc!();
  const before = process.memoryUsage().heapUsed;
  const records = lefts(PENDING);
  gc!();
  const after = process.memoryUsage().heapUsed;
  assert(records.length === PENDING, 'records must stay alive while measured');
  return (after - before) / PENDING;
}

/** Runs every workload once per round, interleaved so that load on the machine hits all of them alike. */
function medians(workloads: (() => number)[]): number[] {
  const results = workloads.map((): number[] => []);
  for (let round = 0; round < WARM_UP + RUNS; round += 1)
    workloads.forEach((run, i) => {
      const value = run();
      if (round >= WARM_UP) results[i]!.push(value);
    });
  return results.map((values) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)]!);
}

const [naive1k, index1k, index100k, compiled100k, steady100k, engineBytes, recordBytes] = medians([
  () => drainRun(naive, BASELINE_PENDING, 10),
  () => drainRun(indexed, BASELINE_PENDING, 100),
  () => drainRun(indexed, PENDING, 1),
  () => drainRun(() => indexed(compiledWhere), PENDING, 1),
  steadyRun,
  bytesPerPending,
  recordSize,
]) as [number, number, number, number, number, number, number];

const rows: [string, number, number][] = [
  ['naive scan (reference model)', BASELINE_PENDING, naive1k],
  ['hash index', BASELINE_PENDING, index1k],
  ['hash index', PENDING, index100k],
  ['hash index, WHERE compiled by the runtime', PENDING, compiled100k],
  ['hash index, steady (left + right per pair)', PENDING, steady100k],
];
console.log(
  `correlator: left.id = right.id, MATCH EARLIEST; median of ${RUNS} runs after ${WARM_UP} warm-up runs`,
);
console.log(
  `${'workload'.padEnd(44)}${'pending'.padStart(9)}${'pairs/s'.padStart(12)}${'vs naive'.padStart(10)}`,
);
for (const [name, pending, rate] of rows)
  console.log(
    `${name.padEnd(44)}${pending.toLocaleString('en-US').padStart(9)}` +
      `${Math.round(rate).toLocaleString('en-US').padStart(12)}${`${(rate / naive1k).toFixed(1)}x`.padStart(10)}`,
  );
console.log(
  `memory per pending record (heap growth after GC): ${engineBytes.toFixed(0)} B in the engine; ` +
    `the record itself ${recordBytes.toFixed(0)} B`,
);

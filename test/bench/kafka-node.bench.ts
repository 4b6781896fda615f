// A Kafka topic through streamroute nodes against a real Apache Kafka 4.4 broker, in the same run, on one
// topic of 4 partitions prefilled with JSON orders: Kafka's own ConsumerPerformance (the ceiling); the
// client library alone (@platformatic/kafka, as kafka-clients.bench.ts reads); one node (a topic ingestor,
// MODE ACK, → JSON wire codec → relay); the same with a JAQ JSON codec; two nodes in one group; and the
// latency from produce to relay at a steady rate (each order carries its send time). Each node is a
// process of its own (kafka-node/node-child.ts: tsc's output of the embedded node, the system clock) that
// counts the records on its relay in-process, by distinct partition and offset.
//
//   bash test/kafka/build.sh && npx tsx test/bench/kafka-node.bench.ts [--rounds 3] [--records 1000000]
//     [--rate 2000] [--latency-seconds 10] [--only wire,jaq,two,latency] [--cpu-prof <dir>]
//
// A round takes about two minutes at 1,000,000 records. Two nodes need a topic that lasts longer than the
// group's rebalance (the first member reads alone until its next heartbeat, up to 3 s). `--cpu-prof`
// writes a V8 CPU profile of each node process into the directory when it stops (the compiled node is
// kept in <dir>/dist, whose source maps lead back to the TypeScript).
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { startKafkaBroker, type KafkaBroker } from '../fixtures/kafka-broker.js';
import { baseStatements, type Codec } from './kafka-node/graph.js';
import {
  consumeThrough,
  latencyThrough,
  startNodeProcess,
  type ConsumeRun,
  type NodeProcess,
} from './kafka-node/node-runs.js';
import { prefill, steady } from './kafka-node/producers.js';
import { platformatic } from './kafka-clients/platformatic.js';
import { consumeAll } from './kafka-clients/scenarios.js';
import { compileNode } from './syslog-wire-node.js';

const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '3' },
    records: { type: 'string', default: '1000000' },
    rate: { type: 'string', default: '2000' },
    'latency-seconds': { type: 'string', default: '10' },
    only: { type: 'string', default: 'wire,jaq,two,latency' },
    'cpu-prof': { type: 'string' },
  },
});
const rounds = Number(values.rounds);
const records = Number(values.records);
const rate = Number(values.rate);
const latencySeconds = Number(values['latency-seconds']);
const cpuProfileDir = values['cpu-prof'];
const only = new Set(values.only.split(','));
const TOPIC = 'bench-4p';
const PARTITIONS = 4;
const WARMUP_MS = 2_000;

const median = (xs: number[]) => {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
};
const k = (n: number) => `${Math.round(n / 1000)}k`;
const ms = (n: number) => n.toFixed(1);

/** Each measure's value per round. */
const results = new Map<string, number[]>();
function record(what: string, value: number): void {
  results.set(what, [...(results.get(what) ?? []), value]);
}
const medianOf = (what: string) => median(results.get(what) ?? []);

async function withNodes<T>(
  count: number,
  codec: Codec,
  broker: KafkaBroker,
  run: (nodes: NodeProcess[]) => Promise<T>,
): Promise<T> {
  const statements = baseStatements(broker.bootstrap, codec);
  const nodes = await Promise.all(
    Array.from({ length: count }, () => startNodeProcess(statements, { dist, cpuProfileDir })),
  );
  try {
    return await run(nodes);
  } finally {
    await Promise.all(nodes.map((node) => node.stop()));
  }
}

function noteConsume(what: string, run: ConsumeRun): string {
  record(what, run.recordsPerSec);
  record(`${what} after first`, run.afterFirstPerSec);
  record(`${what} cpu`, run.cpuUsPerRecord);
  record(`${what} duplicates`, run.duplicates);
  if (run.shares.length > 1) record(`${what} all delivering`, run.allDeliveringPerSec);
  const shares =
    run.shares.length > 1
      ? ` shares ${run.shares.join('/')}, once all delivered ${k(run.allDeliveringPerSec)}/s`
      : '';
  return (
    `${k(run.recordsPerSec)}/s (after first ${k(run.afterFirstPerSec)}/s, ` +
    `${run.cpuUsPerRecord.toFixed(1)} µs CPU/record${shares}, dup ${run.duplicates})`
  );
}

async function round(broker: KafkaBroker, index: number, ends: Map<number, number>): Promise<void> {
  const ceiling = await broker.consumerPerformance(TOPIC, { records });
  record('ceiling', ceiling.recordsPerSec);
  record('ceiling after first', ceiling.fetchRecordsPerSec);
  // The client library alone, as kafka-clients.bench.ts reads (in this process, auto-commit).
  const cpuBefore = process.cpuUsage();
  const library = await consumeAll(platformatic, broker, {
    topic: TOPIC,
    consumers: 1,
    group: `lib-${index}`,
  });
  const { user, system } = process.cpuUsage(cpuBefore);
  record('library', library.recordsPerSec);
  record('library after first', library.fetchRecordsPerSec);
  record('library cpu', (user + system) / records);
  const lines = [
    `ConsumerPerformance ${k(ceiling.recordsPerSec)}/s (fetch ${k(ceiling.fetchRecordsPerSec)}/s)`,
    `library alone ${k(library.recordsPerSec)}/s (after first ${k(library.fetchRecordsPerSec)}/s, ` +
      `${((user + system) / records).toFixed(1)} µs CPU/record)`,
  ];
  for (const [what, codec, count] of [
    ['wire', 'wire', 1],
    ['jaq', 'jaq', 1],
    ['two', 'wire', 2],
  ] as const) {
    if (!only.has(what)) continue;
    const group = `bench-${what}-${index}`;
    const run = await withNodes(count, codec, broker, (nodes) =>
      consumeThrough(nodes, { topic: TOPIC, group, ends }),
    );
    lines.push(`${what} ${noteConsume(what, run)}`);
  }
  if (only.has('latency')) lines.push(await latencyRound(broker, index));
  console.log(`round ${index}:\n  ${lines.join('\n  ')}`);
}

async function latencyRound(broker: KafkaBroker, index: number): Promise<string> {
  const topic = `latency-${index}`;
  await broker.createTopic(topic, { partitions: PARTITIONS });
  const latency = await withNodes(1, 'wire', broker, ([node]) =>
    latencyThrough(node!, {
      topic,
      group: `bench-latency-${index}`,
      warmupMs: WARMUP_MS,
      produce: () => steady(broker.bootstrap, topic, { rate, seconds: WARMUP_MS / 1000 + latencySeconds }),
    }),
  );
  record('p50', latency.p50Ms);
  record('p99', latency.p99Ms);
  record('max', latency.maxMs);
  record('ack p50', latency.ackP50Ms);
  record('ack p99', latency.ackP99Ms);
  return (
    `latency at ${rate}/s: p50 ${ms(latency.p50Ms)} ms, p99 ${ms(latency.p99Ms)} ms, ` +
    `max ${ms(latency.maxMs)} ms (${latency.records} records; produce acks p50 ` +
    `${ms(latency.ackP50Ms)} ms, p99 ${ms(latency.ackP99Ms)} ms)`
  );
}

function report(): void {
  const each = (what: string, format: (n: number) => string) =>
    `${format(medianOf(what))} (${(results.get(what) ?? []).map(format).join(', ')})`;
  const ratios = (what: string) =>
    `${(medianOf(what) / medianOf('ceiling')).toFixed(2)} | ${(medianOf(what) / medianOf('library')).toFixed(2)}`;
  console.log(
    '\n| | records/s | after the first record | CPU µs/record | ÷ ConsumerPerformance | ÷ library alone |',
  );
  console.log('|---|---:|---:|---:|---:|---:|');
  console.log(
    `| Kafka ConsumerPerformance | ${each('ceiling', k)} | ${k(medianOf('ceiling after first'))} | – | ` +
      `${ratios('ceiling')} |`,
  );
  for (const [what, label] of [
    ['library', '@platformatic/kafka alone, no node'],
    ['wire', 'one node, JSON wire codec'],
    ['jaq', 'one node, JAQ JSON codec'],
    ['two', 'two nodes in one group, JSON wire codec'],
  ] as const) {
    if (!results.has(what)) continue;
    console.log(
      `| ${label} | ${each(what, k)} | ${k(medianOf(`${what} after first`))} | ` +
        `${medianOf(`${what} cpu`).toFixed(1)} | ${ratios(what)} |`,
    );
  }
  if (results.has('two'))
    console.log(
      `\ntwo nodes, once both delivered: ${each('two all delivering', k)} records/s; records delivered ` +
        `twice per round: ${results.get('two duplicates')?.join(', ')}`,
    );
  if (results.has('p50'))
    console.log(
      `\nproduce → relay at ${rate} records/s (one node, JSON wire codec): p50 ${each('p50', ms)} ms, ` +
        `p99 ${each('p99', ms)} ms, max ${each('max', ms)} ms; the producer's send → ack p50 ` +
        `${each('ack p50', ms)} ms, p99 ${each('ack p99', ms)} ms`,
    );
  console.log(
    `(medians of ${rounds} rounds, each round's in brackets; ${records} records of about 110 B on ` +
      `${PARTITIONS} partitions)`,
  );
}

// The nodes run tsc's output, as `streamroute node` does; kept beside a profile to map it to the TypeScript.
const build = compileNode(cpuProfileDir === undefined ? undefined : join(cpuProfileDir, 'dist'));
const dist = join(build.entry, '../../..');
const broker = await startKafkaBroker({ profile: 'throughput' });
try {
  console.log(
    `broker ${broker.bootstrap} (format ${broker.timings.formatMs} ms, start ${broker.timings.startMs} ms)`,
  );
  await broker.createTopic(TOPIC, { partitions: PARTITIONS });
  const produced = await prefill(broker.bootstrap, TOPIC, records);
  const ends = await broker.endOffsets(TOPIC);
  const stored = [...ends.values()].reduce((a, b) => a + b, 0);
  if (stored !== records) throw new Error(`${stored} of ${records} records stored`);
  console.log(
    `prefilled ${records} JSON orders (${k(produced)} records/s), by partition ${[...ends.values()].join(', ')}`,
  );
  for (let index = 1; index <= rounds; index++) await round(broker, index, ends);
  report();
} finally {
  await broker.stop();
  build.remove();
}

// The measured runs of the Kafka node benchmark, driven from the benchmark's process: node processes
// (node-child.ts) are forked fresh for each run, the topic ingestor is added over each node's control API
// (`POST /v1/domains/default/statements`) and its records are counted from the nodes' batches by distinct
// partition and offset.
import { fork, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sendAdmin } from '../../fixtures/admin-client.js';
import { Seen } from '../kafka-clients/scenarios.js';
import { ingestorStatement } from './graph.js';
import type { Batch } from './node-child.js';
import type { SteadyRun } from './producers.js';

const CHILD = fileURLToPath(new URL('./node-child.ts', import.meta.url));
const RUN_TIMEOUT_MS = 300_000;
const wallMs = () => performance.timeOrigin + performance.now();

export interface NodeProcess {
  /** Runs statements on the node's domain `default`; throws with the diagnostics unless all ran. */
  statements(script: string): Promise<void>;
  onBatch(listener: (batch: Batch) => void): void;
  /** The node's CPU time so far (µs). */
  cpu(): Promise<number>;
  /** Ages of records (produce → relay) are noted from now on. */
  noteLatency(): void;
  stop(): Promise<void>;
}

/**
 * A node process whose manifests are `statements`, from the compiled operator/ and dataplane/ in `dist`;
 * `cpuProfileDir` writes its CPU profile there.
 */
export async function startNodeProcess(
  statements: string,
  { dist, cpuProfileDir }: { dist: string; cpuProfileDir?: string | undefined },
): Promise<NodeProcess> {
  const dir = mkdtempSync(join(tmpdir(), 'streamroute-kafka-bench-'));
  mkdirSync(join(dir, 'manifests'));
  writeFileSync(join(dir, 'manifests', 'graph.sql'), statements);
  const log = join(dir, 'node.log');
  const profile = cpuProfileDir === undefined ? [] : ['--cpu-prof', '--cpu-prof-dir', cpuProfileDir];
  const child = fork(CHILD, [dir, dist], {
    execArgv: [...process.execArgv, ...profile],
    serialization: 'advanced',
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const ready = await new Promise<{ adminPort: number }>((resolve, reject) => {
    child.once('message', (message: { type: string; adminPort: number }) => resolve(message));
    child.once('exit', (code) => reject(new Error(`the node exited (${code}):\n${tailOf(log)}`)));
  });
  return {
    statements: (script) => runStatements(ready.adminPort, script),
    onBatch: (listener) =>
      child.on('message', (message: Batch) => (message.type === 'batch' ? listener(message) : undefined)),
    cpu: () => askCpu(child),
    noteLatency: () => child.send('latency'),
    stop: async () => {
      await stopChild(child);
      const warnings = tailOf(log).trim();
      if (warnings !== '') console.log(`node log (warn and above):\n${warnings}`);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function runStatements(adminPort: number, script: string): Promise<void> {
  const answer = await sendAdmin(adminPort, {
    method: 'POST',
    path: '/v1/domains/default/statements',
    body: JSON.stringify({ script, source: 'kafka-node-bench' }),
    contentType: 'application/json',
  });
  const parsed = JSON.parse(answer.body) as { ok?: boolean };
  if (answer.status !== 200 || parsed.ok !== true) throw new Error(`statements refused: ${answer.body}`);
}

function askCpu(child: ChildProcess): Promise<number> {
  return new Promise((resolve) => {
    const answer = (message: { type: string; us: number }) => {
      if (message.type !== 'cpu') return;
      child.off('message', answer);
      resolve(message.us);
    };
    child.on('message', answer);
    child.send('cpu');
  });
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.send('stop');
  const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
  await exited;
  clearTimeout(timer);
}

function tailOf(log: string): string {
  try {
    return readFileSync(log, 'utf8').split('\n').slice(-20).join('\n');
  } catch {
    return '';
  }
}

export interface ConsumeRun {
  /** Distinct records ÷ time from adding the ingestor until the last of them reached a relay. */
  recordsPerSec: number;
  /** The same from the first record on (the group join and first fetch excluded). */
  afterFirstPerSec: number;
  /**
   * With several nodes: distinct records that arrived once every node was delivering ÷ that time (the
   * group's first member may read alone until its next heartbeat tells it of the rebalance).
   */
  allDeliveringPerSec: number;
  /** Records that reached a relay again (a rebalance re-delivers what was not committed). */
  duplicates: number;
  /** Records each node placed on its relay. */
  shares: number[];
  /** The nodes' CPU time for the run ÷ distinct records. */
  cpuUsPerRecord: number;
}

/** The nodes add the ingestor of a fresh group at once; until every offset of `ends` reached a relay. */
export async function consumeThrough(
  nodes: readonly NodeProcess[],
  { topic, group, ends }: { topic: string; group: string; ends: Map<number, number> },
): Promise<ConsumeRun> {
  const seen = new Seen(ends);
  const shares = nodes.map(() => 0);
  const cpuBefore = await Promise.all(nodes.map((node) => node.cpu()));
  const cpuLast = [...cpuBefore];
  let first = Infinity;
  let doneAt = 0;
  const firstOf = nodes.map(() => Infinity);
  /** When each batch arrived and how many records it added. */
  const progress: { at: number; added: number }[] = [];
  const done = new Promise<void>((resolve) => {
    nodes.forEach((node, index) =>
      node.onBatch((batch) => {
        shares[index] = (shares[index] ?? 0) + batch.partitions.length;
        cpuLast[index] = batch.cpuUs;
        first = Math.min(first, batch.firstAt);
        firstOf[index] = Math.min(firstOf[index] ?? Infinity, batch.firstAt);
        const before = seen.distinct;
        for (let at = 0; at < batch.partitions.length; at++)
          seen.mark(batch.partitions[at] ?? -1, BigInt(batch.offsets[at] ?? -1));
        progress.push({ at: batch.at, added: seen.distinct - before });
        if (doneAt === 0 && seen.distinct === seen.total) {
          doneAt = batch.at;
          resolve();
        }
      }),
    );
  });
  const started = wallMs();
  await Promise.all(nodes.map((node) => node.statements(ingestorStatement(topic, group))));
  await Promise.race([done, timeout(RUN_TIMEOUT_MS, () => `${seen.distinct} of ${seen.total} records`)]);
  const cpuUs = cpuLast.reduce((sum, last, index) => sum + last - (cpuBefore[index] ?? 0), 0);
  const allAt = Math.max(...firstOf);
  const addedSince = progress.filter(({ at }) => at > allAt).reduce((sum, { added }) => sum + added, 0);
  return {
    allDeliveringPerSec: allAt < doneAt ? addedSince / ((doneAt - allAt) / 1000) : NaN,
    recordsPerSec: seen.total / ((doneAt - started) / 1000),
    afterFirstPerSec: seen.total / ((doneAt - first) / 1000),
    duplicates: seen.duplicates,
    shares,
    cpuUsPerRecord: cpuUs / seen.total,
  };
}

function timeout(ms: number, what: () => string): Promise<never> {
  return new Promise((_, reject) => {
    const timer = setTimeout(() => reject(new Error(`timed out with ${what()}`)), ms);
    timer.unref();
  });
}

export interface LatencyRun {
  records: number;
  /** The producer's send → acknowledgement over the whole run, for comparison. */
  ackP50Ms: number;
  ackP99Ms: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
}

/**
 * The node reads `topic` (empty, fresh) while `produce` writes steadily; ages are noted from `warmupMs`
 * after the producer started (the group joined and the first records arrived by then) to its end.
 */
export async function latencyThrough(
  node: NodeProcess,
  {
    topic,
    group,
    warmupMs,
    produce,
  }: {
    topic: string;
    group: string;
    warmupMs: number;
    produce: () => Promise<SteadyRun>;
  },
): Promise<LatencyRun> {
  const ages: number[] = [];
  let arrived = 0;
  let noting = false;
  node.onBatch((batch) => {
    arrived += batch.partitions.length;
    if (noting) for (const age of batch.ages) ages.push(age);
  });
  await node.statements(ingestorStatement(topic, group));
  const producing = produce();
  await new Promise((resolve) => setTimeout(resolve, warmupMs));
  if (arrived === 0) throw new Error(`no record reached the relay within the warm-up of ${warmupMs} ms`);
  node.noteLatency();
  noting = true;
  const { sent, ackP50Ms, ackP99Ms } = await producing;
  const deadline = Date.now() + 30_000;
  while (arrived < sent && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
  if (arrived < sent) throw new Error(`${arrived} of ${sent} records reached the relay`);
  ages.sort((a, b) => a - b);
  const at = (q: number) => (ages[Math.min(ages.length - 1, Math.floor(q * ages.length))] ?? NaN) / 1000;
  return { records: ages.length, ackP50Ms, ackP99Ms, p50Ms: at(0.5), p99Ms: at(0.99), maxMs: at(1) };
}

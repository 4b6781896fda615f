// Consumer group faults of topic ingestors against a real broker.
//
// A node killed between decode and commit: `streamroute node` runs as a process of its own (real clock: it
// commits every second) and is frozen (SIGSTOP) while records stream, at a moment it has put records on
// its relay whose offsets are not committed yet; then it is SIGKILLed. A new node in the same group reads
// exactly the offsets from the group's committed ones to the end, each once: what the dead node had
// delivered past the last commit is delivered again (at-least-once), nothing before it, and nothing lost.
//
// Two nodes in one group: the four partitions split between them (DESCRIBE shows disjoint sets covering
// all), each record arrives once on one of them; once one node stops, the other takes every partition and
// records keep arriving, none lost.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../../operator/cli/program.js';
import { StreamClient } from '../fixtures/admin-client.js';
import { requireKafkaOrSkip, startKafkaBroker, type KafkaBroker } from '../fixtures/kafka-broker.js';
import { startNodeHarnessWithGraph, until, type NodeHarness } from '../fixtures/node-harness.js';
import {
  assertLogsFreeOf,
  describe as describeComponent,
  kafkaGraph,
  makeItems,
  partitionsOf,
  readItems,
  TEST_GROUP_TIMING,
  type ReadItem,
} from '../fixtures/kafka-node.js';
import { CapturedOutput } from '../support/canned-node.js';

const ROOT = join(import.meta.dirname, '..', '..');

/** `streamroute node` as a process (operator/cli/main.ts through tsx, as the e2e tests run it). */
interface NodeProcess {
  child: ChildProcess;
  adminPort: number;
  stderr: () => string;
  exited: Promise<void>;
}

async function startNodeProcess(manifests: string): Promise<NodeProcess> {
  const args = ['node', '--manifests', manifests];
  for (const flag of ['--http-listen-addr', '--https-listen-addr', '--admin-listen-addr'])
    args.push(flag, '127.0.0.1:0');
  const child = spawn(process.execPath, ['--import', 'tsx', 'operator/cli/main.ts', ...args], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout?.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
  child.stderr?.on('data', (chunk: Buffer) => (err += chunk.toString('utf8')));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await until(
    () => /admin http:\/\/127\.0\.0\.1:\d+/.test(out) || child.exitCode !== null,
    'the node process serving',
    30_000,
  );
  const port = /admin http:\/\/127\.0\.0\.1:(\d+)/.exec(out)?.[1];
  if (port === undefined) throw new Error(`the node process did not start:\n${out}\n${err}`);
  return { child, adminPort: Number(port), stderr: () => err, exited };
}

async function describeOverAdmin(port: number, name: string): Promise<string> {
  const output = new CapturedOutput();
  const code = await runCli(
    ['--server', `http://127.0.0.1:${port}`, '-c', `DESCRIBE INGESTOR ${name}`],
    output,
    { env: {} },
  );
  assert.equal(code, 0, output.stderr);
  return output.stdout;
}

/** `partition@offset` of each item. */
const placesOf = (items: readonly ReadItem[]): string[] =>
  items.map((item) => `${item.partition}@${item.offset}`);

describe('Kafka consumer group faults through nodes', function () {
  this.timeout(120_000);
  let broker: KafkaBroker;
  const cleanups: (() => Promise<void> | void)[] = [];

  before(async function () {
    await requireKafkaOrSkip(this);
    broker = await startKafkaBroker();
  });

  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  after(async () => {
    await broker?.stop();
  });

  async function harness(topic: string, group: string): Promise<NodeHarness> {
    const node = await startNodeHarnessWithGraph(kafkaGraph({ bootstrap: broker.bootstrap, topic, group }), {
      kafkaGroup: TEST_GROUP_TIMING,
    });
    cleanups.push(() => node.close()); // closing twice is fine: a second stop waits for the first
    return node;
  }

  it('a node killed between decode and commit: the next one reads exactly the uncommitted offsets, each once', async () => {
    const topic = 'crash';
    const group = 'g-crash';
    await broker.createTopic(topic, { partitions: 2 });
    const root = mkdtempSync(join(tmpdir(), 'streamroute-kafka-crash-'));
    cleanups.push(() => rmSync(root, { recursive: true, force: true }));
    const manifests = join(root, 'manifests');
    mkdirSync(manifests);
    writeFileSync(join(manifests, 'graph.sql'), kafkaGraph({ bootstrap: broker.bootstrap, topic, group }));
    const doomed = await startNodeProcess(manifests);
    cleanups.push(async () => {
      if (doomed.child.exitCode === null && doomed.child.signalCode === null) doomed.child.kill('SIGKILL');
      await doomed.exited;
    });
    await until(
      async () => /state: Running/.test(await describeOverAdmin(doomed.adminPort, 'items_in')),
      'the node process consuming',
      30_000,
    );
    const seen = await StreamClient.open(
      doomed.adminPort,
      '/v1/domains/default/relays/items/subscriptions/crash?buffer=100000',
    );
    cleanups.push(() => seen.disconnect());

    // A first batch is read and committed, so that the crash comes after commits.
    const produced = makeItems(200, 'committed');
    await broker.produce(topic, produced);
    const warmEnd = await broker.endOffsets(topic);
    await until(
      async () => {
        const done = await broker.committedOffsets(group, topic);
        return [...warmEnd].every(([partition, offset]) => done.get(partition) === offset);
      },
      'the first batch committed',
      30_000,
    );
    assert.equal(seen.lines.length, produced.length);

    // Freeze the node while records stream; it is killed once it holds a delivered, uncommitted record.
    let committed = new Map<number, number>();
    for (let attempt = 1; ; attempt++) {
      const batch = makeItems(2_000, `crash${attempt}`);
      produced.push(...batch);
      const before = seen.lines.length;
      await broker.produce(topic, batch);
      await until(() => seen.lines.length > before, 'records streaming', 30_000);
      doomed.child.kill('SIGSTOP');
      await new Promise((resolve) => setTimeout(resolve, 300)); // lines already on their way
      committed = await broker.committedOffsets(group, topic);
      const uncommitted = readItems(seen).filter(
        (item) => item.offset >= (committed.get(item.partition) ?? 0),
      );
      if (uncommitted.length > 0) break;
      assert.ok(attempt < 3, 'three times, every delivered record was already committed when frozen');
      doomed.child.kill('SIGCONT');
    }
    doomed.child.kill('SIGKILL');
    await doomed.exited;
    const afterKill = await broker.committedOffsets(group, topic);
    assert.deepEqual(afterKill, committed, 'a frozen node commits nothing more');
    const end = await broker.endOffsets(topic);
    const delivered = readItems(seen);
    assertLogsFreeOf(
      doomed
        .stderr()
        .split('\n')
        .filter((line) => line !== '')
        .map((line) => ({ level: 0, msg: line })),
      produced.map((item) => item.key!),
    );

    // Everything before the committed offsets was delivered by the dead node (MODE ACK commits only that).
    const deliveredPlaces = new Set(placesOf(delivered));
    for (const [partition, offset] of committed)
      for (let at = 0; at < offset; at++)
        assert.ok(
          deliveredPlaces.has(`${partition}@${at}`),
          `${partition}@${at} committed but never delivered`,
        );

    // The next node in the group: it waits for the dead member's session (30 s, the CLI's default) to end.
    const next = await harness(topic, group);
    const items = await next.subscribe('items');
    const expected: string[] = [];
    for (const [partition, last] of end)
      for (let at = committed.get(partition) ?? 0; at < last; at++) expected.push(`${partition}@${at}`);
    await until(
      () => {
        next.clock.advance(250);
        return items.lines.length >= expected.length;
      },
      `${expected.length} uncommitted records re-read (have ${items.lines.length})`,
      60_000,
    );
    // Nothing more arrives: the commit point of each partition is where the new node began.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const reread = readItems(items);
    assert.deepEqual(placesOf(reread).sort(), expected.sort(), 'exactly the uncommitted offsets, each once');
    const redelivered = delivered.filter((item) => item.offset >= (committed.get(item.partition) ?? 0));
    assert.ok(redelivered.length > 0);
    const rereadIds = new Set(reread.map((item) => item.id));
    for (const item of redelivered) assert.ok(rereadIds.has(item.id), `${item.id} delivered again`);
    const all = new Set([...delivered, ...reread].map((item) => item.id));
    assert.deepEqual(
      produced.filter((item) => !all.has(item.key!)),
      [],
      'no record lost',
    );
    assertLogsFreeOf(
      next.logs,
      produced.map((item) => item.key!),
    );
  });

  it('two nodes in one group split the partitions; when one stops the other takes them all', async () => {
    const topic = 'shared';
    const group = 'g-shared';
    await broker.createTopic(topic, { partitions: 4 });
    const first = await harness(topic, group);
    const second = await harness(topic, group);
    const nodes = [first, second];
    const advanceBoth = (): void => {
      for (const node of nodes) node.clock.advance(250);
    };
    const partitions = async (node: NodeHarness): Promise<number[]> =>
      partitionsOf(await describeComponent(node, 'INGESTOR', 'items_in'));

    let split: number[][] = [];
    await until(
      async () => {
        advanceBoth();
        split = await Promise.all(nodes.map(partitions));
        return split.every((mine) => mine.length > 0) && [...split[0]!, ...split[1]!].length === 4;
      },
      'the four partitions split between the two nodes',
      60_000,
    );
    assert.deepEqual(
      [...split[0]!, ...split[1]!].sort(),
      [0, 1, 2, 3],
      `disjoint, all: ${JSON.stringify(split)}`,
    );

    const streams = await Promise.all(nodes.map((node) => node.subscribe('items')));
    const steady = makeItems(60, 'steady');
    await broker.produce(topic, steady);
    const count = (): number => streams[0]!.lines.length + streams[1]!.lines.length;
    await until(
      () => {
        advanceBoth();
        return count() >= steady.length;
      },
      'every record on one of the nodes',
      30_000,
    );
    await new Promise((resolve) => setTimeout(resolve, 500));
    const read = streams.map(readItems);
    assert.deepEqual(
      read
        .flat()
        .map((item) => item.id)
        .sort(),
      steady.map((item) => item.key).sort(),
      'each record exactly once across the two nodes',
    );
    read.forEach((items, index) => {
      for (const item of items)
        assert.ok(split[index]!.includes(item.partition), `node ${index} read ${item.partition}`);
    });

    // A graceful stop commits what is done and leaves the group: the first node takes every partition.
    await second.close();
    nodes.pop();
    await until(
      async () => {
        advanceBoth();
        return (await partitions(first)).length === 4;
      },
      'the remaining node owning every partition',
      60_000,
    );
    const after = makeItems(40, 'after');
    await broker.produce(topic, after);
    const onFirst = streams[0]!;
    const wanted = [...steady, ...after].map((item) => item.key!);
    await until(
      () => {
        advanceBoth();
        const ids = new Set(
          readItems(onFirst)
            .map((item) => item.id)
            .concat(read[1]!.map((item) => item.id)),
        );
        return wanted.every((id) => ids.has(id));
      },
      'every record, the later ones on the remaining node',
      30_000,
    );
    await new Promise((resolve) => setTimeout(resolve, 500));
    const total = readItems(onFirst).length + read[1]!.length;
    assert.equal(total, wanted.length, 'none twice: the stopped node had committed what it read');
    assertLogsFreeOf([...first.logs, ...second.logs], wanted);
  });
});

// Faults of Kafka ingestion and emission through a real node and a real broker (auto-creation off):
// - a topic that does not exist yet: the ingestor and the emitter are Retrying with UNKNOWN_TOPIC_OR_PARTITION
//   naming it; once it exists the ingestor consumes and the emitter delivers the records it kept;
// - a message larger than the consumer's fetch limit is consumed all the same; the emitter, keying it by its
//   11 MiB id, has it refused by a topic that takes 64 KiB: SR3033 to its policy, the others sent;
// - a record whose KEY cannot be computed (SR3101) is the emitter's message error and leaves its queue;
// - a message that does not decode, under MODE ACK and NO ACK: its error policy applies, later messages
//   flow, the offsets commit;
// - the broker killed mid-stream: both sides Retrying, then every record arrives at least once (those read
//   and not committed again) and the emitter's kept batch is delivered after the restart.
// No log line carries a payload value.
import assert from 'node:assert/strict';
import { requireKafkaOrSkip, startKafkaBroker, type KafkaBroker } from '../fixtures/kafka-broker.js';
import { startNodeHarnessWithGraph, until, type NodeHarness } from '../fixtures/node-harness.js';
import {
  advancing,
  assertLogsFreeOf,
  describe as describeComponent,
  describedWhen,
  ITEMS_IN,
  ITEMS_OUT,
  kafkaGraph,
  linesAtLeast,
  makeItems,
  metricOf,
  readItems,
  TEST_GROUP_TIMING,
  type KafkaGraphOptions,
} from '../fixtures/kafka-node.js';

/** Larger than the consumer's fetch limit (the library's maxBytes and maxBytesPerPartition: 10 MiB). */
const HUGE_BYTES = 11 * 1024 * 1024;

describe('Kafka faults through a node and a real broker', function () {
  this.timeout(90_000);
  let broker: KafkaBroker;
  const nodes: NodeHarness[] = [];

  before(async function () {
    await requireKafkaOrSkip(this);
    broker = await startKafkaBroker({ messageMaxBytes: 12 * 1024 * 1024 });
  });

  afterEach(async () => {
    for (const node of nodes.splice(0)) await node.close();
  });

  after(async () => {
    await broker?.stop();
  });

  async function startNode(options: Omit<KafkaGraphOptions, 'bootstrap'>): Promise<NodeHarness> {
    const node = await startNodeHarnessWithGraph(kafkaGraph({ bootstrap: broker.bootstrap, ...options }), {
      kafkaGroup: TEST_GROUP_TIMING,
    });
    nodes.push(node);
    return node;
  }

  async function committedAtEnd(node: NodeHarness, group: string, topic: string): Promise<void> {
    const end = await broker.endOffsets(topic);
    await advancing(
      node,
      async () => {
        const committed = await broker.committedOffsets(group, topic);
        return [...end].every(([partition, offset]) => committed.get(partition) === offset);
      },
      `group ${group} committed every offset of ${topic}`,
    );
  }

  it('a topic that does not exist: the ingestor and the emitter are Retrying naming it, and recover once it exists', async () => {
    const node = await startNode({ topic: 'late-in', group: 'g-late', emitTo: 'late-out' });
    const ingestor = await describedWhen(
      node,
      ITEMS_IN,
      (d) => d.state === 'Retrying' && d.error?.code === 'UNKNOWN_TOPIC_OR_PARTITION',
      'the ingestor Retrying with UNKNOWN_TOPIC_OR_PARTITION',
    );
    assert.match(
      ingestor.error!.message,
      /cannot consume topic late-in of kafka client kafka: the topic does not exist/,
    );
    const emitter = await describedWhen(
      node,
      ITEMS_OUT,
      (d) => d.state === 'Retrying' && d.error?.code === 'UNKNOWN_TOPIC_OR_PARTITION',
      'the emitter Retrying with UNKNOWN_TOPIC_OR_PARTITION',
    );
    assert.match(emitter.error!.message, /cannot produce to topic late-out: the topic does not exist/);

    const items = await node.subscribe('items');
    const errors = await node.subscribe('errors');
    const produced = makeItems(12, 'late');
    await broker.createTopic('late-in', { partitions: 2 });
    await broker.produce('late-in', produced);
    await linesAtLeast(node, items, produced.length, 'items read once the topic exists');
    assert.deepEqual(
      readItems(items)
        .map((item) => item.id)
        .sort(),
      produced.map((item) => item.key).sort(),
    );
    await describedWhen(node, ITEMS_IN, (d) => d.state === 'Running', 'the ingestor Running');

    // The emitter's topic still does not exist: it keeps every record (no message error, nothing dropped).
    // (Each retry opens a producer: between the attempts the emitter is Starting for a moment.)
    const waiting = await describedWhen(
      node,
      ITEMS_OUT,
      (d) => d.state === 'Retrying' && metricOf(d, 'queued_records') === produced.length,
      'the emitter Retrying, holding every record',
    );
    assert.equal(metricOf(waiting, 'message_errors'), 0);
    assert.equal(metricOf(waiting, 'drops'), 0);

    await broker.createTopic('late-out', { partitions: 1 });
    await describedWhen(
      node,
      ITEMS_OUT,
      (d) => d.state === 'Running' && metricOf(d, 'records_sent') === produced.length,
      'the emitter sent every record once its topic exists',
    );
    const emitted = await broker.consume('late-out', produced.length);
    assert.deepEqual(
      emitted.map((message) => message.key!.toString('utf8')).sort(),
      produced.map((item) => item.key).sort(),
    );
    assert.deepEqual(errors.lines, []);
    await committedAtEnd(node, 'g-late', 'late-in');
    assertLogsFreeOf(
      node.logs,
      produced.map((item) => item.key!),
    );
  });

  it('a message larger than the fetch limit is consumed; a record larger than the topic takes is SR3033', async () => {
    await broker.createTopic('huge-in', { partitions: 1 });
    // The emitter's topic takes messages of at most 64 KiB: the huge record is refused by the broker.
    await broker.createTopic('huge-out', { partitions: 1, config: { 'max.message.bytes': '65536' } });
    const before = makeItems(2, 'before');
    const after = makeItems(2, 'after');
    const hugeId = `huge-${'x'.repeat(HUGE_BYTES)}`;
    const huge = { key: 'huge', value: JSON.stringify({ id: hugeId, n: 7 }) };
    await broker.produce('huge-in', [...before, huge, ...after], {
      props: { 'max.request.size': String(12 * 1024 * 1024) },
    });

    const node = await startNode({ topic: 'huge-in', group: 'g-huge', emitTo: 'huge-out' });
    const items = await node.subscribe('items');
    const errors = await node.subscribe('errors');
    await linesAtLeast(node, items, 5, 'items, the huge one among them');
    const read = readItems(items);
    assert.deepEqual(
      read.map((item) => item.offset),
      [0, 1, 2, 3, 4],
      'every message of the partition, in order',
    );
    assert.equal(read[2]!.id, hugeId);
    const ingestor = await describeComponent(node, 'INGESTOR', 'items_in');
    assert.ok(metricOf(ingestor, 'payload_bytes') > HUGE_BYTES, ingestor.text);
    await committedAtEnd(node, 'g-huge', 'huge-in');

    // The emitter: the huge record is the emitter's message error (SR3033), the others are sent.
    await linesAtLeast(node, errors, 1, 'the refused record on errors');
    const [refused] = errors.lines.map(
      (line) => JSON.parse(line) as { code: string; ref: string; message: string },
    );
    assert.equal(refused!.code, 'SR3033');
    assert.match(refused!.message, /refused the record \((MESSAGE_TOO_LARGE|RECORD_LIST_TOO_LARGE)\)/);
    const emitter = await describedWhen(
      node,
      ITEMS_OUT,
      (d) => metricOf(d, 'queued_records') === 0 && metricOf(d, 'message_errors') === 1,
      'the emitter done with the five',
    );
    assert.equal(emitter.state, 'Running');
    // bug: the refused record was counted as sent too (records_sent 5, records_out 5).
    assert.equal(metricOf(emitter, 'records_sent'), 4, emitter.text);
    assert.equal(metricOf(emitter, 'records_out'), 4, emitter.text);
    const emitted = await broker.consume('huge-out', 4);
    assert.deepEqual(
      emitted.map((message) => message.key!.toString('utf8')),
      [...before, ...after].map((item) => item.key),
    );
    assertLogsFreeOf(node.logs, ['x'.repeat(64), ...[...before, ...after].map((item) => item.key!)]);
  });

  it("a record whose KEY cannot be computed is the emitter's message error and leaves its queue", async () => {
    await broker.createTopic('keyed-in', { partitions: 1 });
    await broker.createTopic('keyed-out', { partitions: 1 });
    // n = 0 makes the KEY a division by zero (SR3101).
    const produced = makeItems(4, 'keyed');
    await broker.produce('keyed-in', produced);
    const node = await startNode({
      topic: 'keyed-in',
      group: 'g-keyed',
      emitTo: 'keyed-out',
      emitKey: 'to_string(100 / input.n)',
    });
    const errors = await node.subscribe('errors');
    await linesAtLeast(node, errors, 1, 'the KEY error on errors');
    const [error] = errors.lines.map((line) => JSON.parse(line) as { code: string; ref: string });
    assert.deepEqual({ code: error!.code, ref: error!.ref }, { code: 'SR3101', ref: 'emitter' });
    // bug: the record left its batch but not the queue's counts: queued_records stayed 1 for good.
    const emitter = await describedWhen(
      node,
      ITEMS_OUT,
      (d) => metricOf(d, 'records_sent') === 3,
      'the three others sent',
    );
    assert.equal(metricOf(emitter, 'queued_records'), 0, emitter.text);
    assert.equal(metricOf(emitter, 'queued_bytes'), 0, emitter.text);
    const emitted = await broker.consume('keyed-out', 3);
    assert.deepEqual(
      emitted.map((message) => message.key!.toString('utf8')),
      ['100', '50', '33'],
    );
  });

  for (const mode of ['ACK', 'NO ACK'] as const) {
    it(`MODE ${mode}: a message that does not decode goes to the error policy; the later ones flow`, async () => {
      const topic = `mixed-${mode === 'ACK' ? 'ack' : 'noack'}`;
      const group = `g-${topic}`;
      await broker.createTopic(topic, { partitions: 1 });
      const first = makeItems(3, 'first');
      const marker = `undecodable-${mode === 'ACK' ? 'a' : 'n'}-${Date.now()}`;
      const later = makeItems(3, 'later');
      await broker.produce(topic, [...first, { key: 'bad', value: `not json ${marker}` }, ...later]);
      const node = await startNode({ topic, group, mode });
      const items = await node.subscribe('items');
      const errors = await node.subscribe('errors');
      await linesAtLeast(node, items, 6, 'the six good items');
      await linesAtLeast(node, errors, 1, 'the message error');
      // In partition order; a rebalance may deliver a message again (at-least-once), so first sightings.
      const places = [...new Set(readItems(items).map((item) => `${item.id}@${item.offset}`))];
      assert.deepEqual(
        places,
        [...first, ...later].map((item, index) => `${item.key}@${index < 3 ? index : index + 1}`),
      );
      const refs = errors.lines.map((line) => JSON.parse(line) as { code: string; ref: string });
      assert.deepEqual([...new Set(refs.map(({ code, ref }) => `${code} ${ref}`))], ['SR3002 0@3']);
      // ACK commits through the ledger on the node's clock; NO ACK autocommits what it fetched.
      await committedAtEnd(node, group, topic);
      const ingestor = await describedWhen(node, ITEMS_IN, (d) => d.state === 'Running', 'Running');
      assert.equal(metricOf(ingestor, 'message_errors'), errors.lines.length, ingestor.text);
      assertLogsFreeOf(node.logs, [marker, ...[...first, ...later].map((item) => item.key!)]);
    });
  }

  it('the broker killed mid-stream: both sides Retrying, then every record arrives at least once', async () => {
    await broker.createTopic('flow-in', { partitions: 3 });
    await broker.createTopic('flow-out', { partitions: 1 });
    const node = await startNode({ topic: 'flow-in', group: 'g-flow', emitTo: 'flow-out' });
    const items = await node.subscribe('items');
    const early = makeItems(20, 'early');
    await broker.produce('flow-in', early);
    await linesAtLeast(node, items, early.length, 'the early items');
    await describedWhen(
      node,
      ITEMS_OUT,
      (d) => metricOf(d, 'records_sent') === early.length,
      'the early items emitted',
    );
    await committedAtEnd(node, 'g-flow', 'flow-in');

    // Without moving the clock, the next records wait in the emitter's open batch (MAX TIME 20ms) and
    // their offsets are not committed: the broker dies with both in flight.
    const held = makeItems(15, 'held');
    await broker.produce('flow-in', held);
    await until(() => items.lines.length >= early.length + held.length, 'the held items read', 30_000);
    const holding = await describeComponent(node, 'EMITTER', 'items_out');
    assert.equal(metricOf(holding, 'queued_records'), held.length, holding.text);
    await broker.kill();

    const down = await describedWhen(
      node,
      ITEMS_IN,
      (d) => d.state === 'Retrying',
      'the ingestor Retrying while the broker is down',
    );
    assert.match(down.error!.code, /^(PLT_KFK_NETWORK|ECONNREFUSED|ECONNRESET)$/);
    assert.match(down.error!.message, /cannot consume topic flow-in of kafka client kafka: /);
    const emitterDown = await describedWhen(
      node,
      ITEMS_OUT,
      (d) => d.state === 'Retrying' && metricOf(d, 'write_failures') + metricOf(d, 'connect_failures') > 0,
      'the emitter Retrying while the broker is down',
    );
    assert.equal(metricOf(emitterDown, 'queued_records'), held.length, 'the batch is kept');
    assert.match(emitterDown.error!.code, /^(PLT_KFK_NETWORK|ECONNREFUSED|ECONNRESET)$/);
    assert.match(emitterDown.error!.message, /kafka client kafka: cannot produce to topic flow-out: /);

    await broker.restart({ hard: true });
    const late = makeItems(10, 'late');
    await broker.produce('flow-in', late);
    const everything = [...early, ...held, ...late].map((item) => item.key!);
    // The held records were read but not committed when the broker died: they are read again.
    const times = (id: string): number => items.lines.filter((line) => line.includes(`"${id}"`)).length;
    await advancing(
      node,
      () => everything.every((id) => times(id) >= 1) && held.every(({ key }) => times(key!) >= 2),
      'every record read at least once after the restart, the held ones again',
    );
    await describedWhen(
      node,
      ITEMS_IN,
      (d) => d.state === 'Running' && d.error === null,
      'the ingestor Running again',
    );
    const sent = await describedWhen(
      node,
      ITEMS_OUT,
      (d) =>
        d.state === 'Running' &&
        metricOf(d, 'queued_records') === 0 &&
        metricOf(d, 'records_sent') >= everything.length,
      'the emitter delivered everything after the restart',
    );
    const total = [...(await broker.endOffsets('flow-out')).values()].reduce(
      (sum, offset) => sum + offset,
      0,
    );
    assert.equal(total, metricOf(sent, 'records_sent'), 'every record sent is in the topic');
    const emitted = await broker.consume('flow-out', total);
    const keys = new Set(emitted.map((message) => message.key!.toString('utf8')));
    assert.deepEqual(
      everything.filter((id) => !keys.has(id)),
      [],
      'no record lost on the way out',
    );
    await committedAtEnd(node, 'g-flow', 'flow-in');
    assertLogsFreeOf(node.logs, everything);
  });
});

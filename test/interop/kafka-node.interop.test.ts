// examples/kafka through a real node and a real Apache Kafka broker (test/fixtures/kafka-broker.ts): orders
// written by Kafka's console producer arrive on the relay `orders` with where they were read; a message
// that is not an order is a message error on `errors` naming its partition and offset, and its offset
// still commits; every record leaves through the emitter TO KAFKA and reaches Kafka's console consumer
// byte-exact, keyed by order; DESCRIBE and /metrics show the consumer's partitions and lag; a reload that
// changes only the ingestor's routes keeps its consumer (no rebalance).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { requireKafkaOrSkip, startKafkaBroker, type KafkaBroker } from '../fixtures/kafka-broker.js';
import { EXAMPLES } from '../fixtures/graph-from-statements.js';
import { samplesOf, startNodeHarnessWithGraph, until, type NodeHarness } from '../fixtures/node-harness.js';
import type { StreamClient } from '../fixtures/admin-client.js';

const ORDERS = 30;

interface ReadOrder {
  order_id: string;
  amount: number;
  topic: string;
  partition: number;
  offset: number;
  key: string | null;
}

describe('Kafka through a node: examples/kafka with a real broker', function () {
  this.timeout(180_000);
  let broker: KafkaBroker;
  let node: NodeHarness;
  let graphText: string;

  before(async function () {
    await requireKafkaOrSkip(this);
    broker = await startKafkaBroker();
    await broker.createTopic('orders', { partitions: 3 });
    await broker.createTopic('orders-read', { partitions: 3 });
    graphText = readFileSync(join(EXAMPLES, 'kafka', 'graph.sql'), 'utf8').replaceAll(
      '127.0.0.1:9092',
      broker.bootstrap,
    );
    node = await startNodeHarnessWithGraph(graphText);
  });

  after(async () => {
    await node?.close();
    await broker?.stop();
  });

  async function describeIt(kind: 'INGESTOR' | 'EMITTER', name: string): Promise<string> {
    const run = await node.sql(`DESCRIBE ${kind} ${name}`);
    assert.equal(run.code, 0, run.stderr);
    return run.stdout;
  }

  /** Moves the node's clock (commit, lag and batch timers) until `condition` holds. */
  function advancing(condition: () => boolean | Promise<boolean>, what: string): Promise<void> {
    return until(
      async () => {
        node.clock.advance(250);
        return await condition();
      },
      what,
      60_000,
    );
  }

  async function collect(stream: StreamClient, count: number, what: string): Promise<string[]> {
    await advancing(() => stream.lines.length >= count, `${count} ${what} (have ${stream.lines.length})`);
    return [...stream.lines];
  }

  it('consumes in its group, routes errors, commits past them, and emits byte-exact keyed messages', async () => {
    await advancing(
      async () => /state: Running/.test(await describeIt('INGESTOR', 'orders_in')),
      'the topic ingestor running',
    );
    const orders = await node.subscribe('orders');
    const errors = await node.subscribe('errors');
    const produced = Array.from({ length: ORDERS }, (_, index) => ({
      key: `o${index % 7}`,
      value: JSON.stringify({ order_id: `o${index % 7}`, amount: 100 + index }),
    }));
    await broker.produce('orders', [...produced, { key: 'bad', value: 'not an order' }]);

    const read = (await collect(orders, ORDERS, 'orders')).map((line) => JSON.parse(line) as ReadOrder);
    assert.deepEqual(
      read.map(({ order_id, amount }) => JSON.stringify({ order_id, amount })).sort(),
      produced.map(({ value }) => value).sort(),
    );
    for (const order of read) {
      assert.equal(order.topic, 'orders');
      assert.equal(order.key, order.order_id);
    }
    // One key's records share a partition and keep their order there.
    for (const key of new Set(read.map((order) => order.key))) {
      const mine = read.filter((order) => order.key === key);
      assert.equal(new Set(mine.map((order) => order.partition)).size, 1, `key ${key} in one partition`);
      assert.deepEqual(
        mine.map((order) => order.offset),
        mine.map((order) => order.offset).sort((a, b) => a - b),
      );
    }

    const [error] = (await collect(errors, 1, 'errors')).map(
      (line) => JSON.parse(line) as { code: string; ref: string },
    );
    assert.match(error!.ref, /^orders\/[0-2]@[0-9]+$/);

    // Every offset, the bad message's too, commits.
    const end = await broker.endOffsets('orders');
    await advancing(async () => {
      const committed = await broker.committedOffsets('streamroute-orders', 'orders');
      return [...end].every(([partition, offset]) => committed.get(partition) === offset);
    }, 'the group committed every offset');

    // The emitter: each record is one message keyed by order_id, its value the codec's JSON, byte-exact.
    await advancing(
      async () => /records_sent: 30\b/.test(await describeIt('EMITTER', 'orders_read_out')),
      'the emitter sent every record',
    );
    const emitted = await broker.consume('orders-read', ORDERS);
    const expected = read.map((order) => JSON.stringify(order)).sort();
    assert.deepEqual(emitted.map((message) => message.value!.toString('utf8')).sort(), expected);
    for (const message of emitted) {
      const value = JSON.parse(message.value!.toString('utf8')) as ReadOrder;
      assert.equal(message.key!.toString('utf8'), value.order_id);
      // Both topics have 3 partitions: a key goes where Kafka's Java console producer put it.
      assert.equal(
        message.partition,
        value.partition,
        `key ${value.order_id}: the Java producer's partition`,
      );
    }
  });

  it('DESCRIBE shows the partitions, mode and lag; /metrics has the lag of each partition', async () => {
    const shown = await describeIt('INGESTOR', 'orders_in');
    assert.match(shown, /^topic-ingestor orders_in /m);
    assert.match(shown, /topic: orders/);
    assert.match(shown, /group: streamroute-orders/);
    assert.match(shown, /mode: ACK/);
    assert.match(shown, /partitions:[\s\S]*0[\s\S]*1[\s\S]*2/);
    const emitter = await describeIt('EMITTER', 'orders_read_out');
    assert.match(emitter, /topic: orders-read/);
    assert.match(emitter, /client: local_kafka/);
    await advancing(async () => {
      const metrics = await fetchMetrics();
      const lag = samplesOf(metrics, 'streamroute_topic_lag_messages').filter(
        (sample) => sample.labels.get('name') === 'orders_in',
      );
      return lag.length === 3 && lag.every((sample) => sample.value === 0);
    }, 'a lag of 0 on each of the three partitions in /metrics');
  });

  it('a reload that changes only the routes keeps the consumer in its group (no rebalance)', async () => {
    const rebalances = async (): Promise<number> =>
      Number(/rebalances: (\d+)/.exec(await describeIt('INGESTOR', 'orders_in'))?.[1]);
    const before = await rebalances();
    assert.ok(before >= 1, `rebalances before: ${before}`);
    const version = await node.graphVersion();
    node.writeManifest(graphText.replace("metadata.topic || '/'", "metadata.topic || ':'"));
    await advancing(async () => (await node.graphVersion()) > version, 'the new graph version applied');
    const orders = await node.subscribe('orders');
    const errors = await node.subscribe('errors');
    await broker.produce('orders', [
      { key: 'o1', value: JSON.stringify({ order_id: 'o1', amount: 7 }) },
      { key: 'o1', value: '[]' },
    ]);
    const [order] = (await collect(orders, 1, 'orders')).map((line) => JSON.parse(line) as ReadOrder);
    assert.equal(order!.amount, 7);
    const [error] = (await collect(errors, 1, 'errors')).map((line) => JSON.parse(line) as { ref: string });
    assert.match(error!.ref, /^orders:[0-2]@[0-9]+$/, 'the new route handles the error');
    assert.equal(await rebalances(), before);
  });

  async function fetchMetrics(): Promise<string> {
    const response = await fetch(`http://127.0.0.1:${node.adminPort}/metrics`);
    return response.text();
  }
});

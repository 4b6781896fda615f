// The topic consumer against a real Kafka broker (test/fixtures/kafka-broker.ts): Kafka's console producer
// writes, the consumer hands each message on with its metadata, and under MODE ACK the group's committed
// offsets move only past messages whose delivery finished.
import assert from 'node:assert/strict';
import pino from 'pino';
import { Registry } from 'prom-client';
import { Telemetry } from '../../core/telemetry.js';
import { systemClock } from '../../core/clock.js';
import { Instant, systemNow, type Value } from '../../core/values.js';
import type { GraphKafkaClient, GraphTopicIngestor } from '../../graph/types.js';
import type { IngestMetadata } from '../../core/ingest.js';
import {
  requireKafkaOrSkip,
  startKafkaBroker,
  type KafkaBroker,
} from '../../../test/fixtures/kafka-broker.js';
import { until } from '../../../test/fixtures/node-harness.js';
import { TopicConsumer } from './topic-consumer.js';

interface Delivered {
  payload: string;
  metadata: IngestMetadata;
}

describe('TopicConsumer (real Apache Kafka broker)', function () {
  this.timeout(120_000);
  let broker: KafkaBroker;
  const consumers: TopicConsumer[] = [];

  before(async function () {
    await requireKafkaOrSkip(this);
    broker = await startKafkaBroker();
  });
  after(async () => {
    await Promise.all(consumers.map((consumer) => consumer.stop(0)));
    await broker?.stop();
  });

  function consumer(
    topic: string,
    group: string,
    mode: 'ACK' | 'NO_ACK',
    deliver: (payload: Uint8Array, metadata: IngestMetadata) => void | Promise<void>,
  ): TopicConsumer {
    const [host, port] = broker.bootstrap.split(':');
    const client: GraphKafkaClient = {
      brokers: [{ host: host!, port: Number(port) }],
      clientId: 'streamroute-test',
      securityProtocol: 'plaintext',
    };
    const spec: GraphTopicIngestor = {
      client: 'k',
      topic,
      group,
      startFrom: 'EARLIEST',
      mode,
      quiesce: { action: 'SUSPEND' },
      codec: 'c',
      routes: [],
      onGeneralError: 'LOG',
    };
    const logger = pino({ level: 'silent' });
    const telemetry = new Telemetry({ registry: new Registry(), logger, domain: 'd' });
    const made = new TopicConsumer(
      {
        spec,
        client,
        deliver,
        telemetry: telemetry.component('topic-ingestor', 'i'),
        shown: { ingestor: 'i', client: { client: 'k' } },
      },
      {
        domain: 'd',
        tls: undefined,
        logger,
        clock: systemClock,
        now: systemNow,
        group: { sessionTimeoutMs: 6_000, heartbeatIntervalMs: 500 },
      },
    );
    consumers.push(made);
    return made;
  }

  it('hands on every message with its topic, partition, offset, key and timestamp', async () => {
    await broker.createTopic('orders', { partitions: 1 });
    const before = Date.now();
    await broker.produce('orders', [
      { key: 'k1', value: '{"n":1}' },
      { key: null, value: '{"n":2}' },
    ]);
    const got: Delivered[] = [];
    const reader = consumer('orders', 'g-meta', 'NO_ACK', (payload, metadata) => {
      got.push({ payload: Buffer.from(payload).toString('utf8'), metadata });
    });
    await reader.start();
    await until(() => Promise.resolve(got.length === 2), 'two messages', 60_000);
    assert.deepEqual(
      got.map(({ payload, metadata }) => [
        payload,
        metadata.topic,
        metadata.partition,
        metadata.offset,
        metadata.key,
      ]),
      [
        ['{"n":1}', 'orders', 0, 0n, 'k1'],
        ['{"n":2}', 'orders', 0, 1n, null],
      ],
    );
    const stamp: Value | undefined = got[0]!.metadata.timestamp;
    assert.ok(stamp instanceof Instant);
    assert.ok(Number(stamp.epochNanos / 1_000_000n) >= before - 60_000, 'the producer’s timestamp');
    assert.equal(reader.view.state, 'Running');
    assert.deepEqual(reader.view.partitions, [0]);
  });

  it('MODE ACK commits a message only once its delivery finished, and on stop', async () => {
    await broker.createTopic('acked', { partitions: 1 });
    await broker.produce('acked', [{ value: 'a' }, { value: 'b' }, { value: 'c' }]);
    const pending: (() => void)[] = [];
    let seen = 0;
    const reader = consumer('acked', 'g-ack', 'ACK', () => {
      seen++;
      // The second message's records take their time (an asynchronous codec); the others are done at once.
      if (seen === 2) return new Promise<void>((resolve) => pending.push(resolve));
      return undefined;
    });
    await reader.start();
    await until(() => Promise.resolve(seen === 3), 'three messages', 60_000);
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    assert.deepEqual([...(await broker.committedOffsets('g-ack', 'acked'))], [[0, 1]], 'only past the first');
    pending.forEach((resolve) => resolve());
    await reader.stop();
    assert.deepEqual([...(await broker.committedOffsets('g-ack', 'acked'))], [[0, 3]]);
    assert.equal(reader.view.state, 'Stopped');
  });

  it('is Retrying with the broker’s reason on a topic that does not exist', async () => {
    const reader = consumer('no-such-topic', 'g-missing', 'ACK', () => undefined);
    await reader.start();
    await until(() => Promise.resolve(reader.view.state === 'Retrying'), 'Retrying', 60_000);
    const error = reader.view.transientError;
    assert.ok(error !== null);
    assert.match(error.message, /topic ingestor i cannot consume topic no-such-topic of kafka client k/);
    assert.ok(reader.view.backoffMs !== null && reader.view.backoffMs > 0);
  });
});

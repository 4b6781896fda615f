// The benchmark's adapter for kafkajs.
import { createRequire } from 'node:module';
import { Kafka, logLevel, type KafkaConfig, type Message } from 'kafkajs';
import {
  keyOf,
  type ConsumerSpec,
  type KafkaClient,
  type ProduceSpec,
  type RunningConsumer,
  type Security,
} from './client.js';

const version = (createRequire(import.meta.url)('kafkajs/package.json') as { version: string }).version;
process.env['KAFKAJS_NO_PARTITIONER_WARNING'] = '1';

function kafka(bootstrap: string, security: Security | undefined, clientId: string): Kafka {
  const config: KafkaConfig = { clientId, brokers: [bootstrap], logLevel: logLevel.NOTHING };
  if (security) {
    const { tlsCa, mechanism, username, password } = security;
    config.ssl = { ca: [tlsCa] };
    if (mechanism === 'PLAIN') config.sasl = { mechanism: 'plain', username, password };
    else if (mechanism === 'SCRAM-SHA-256') config.sasl = { mechanism: 'scram-sha-256', username, password };
    else config.sasl = { mechanism: 'scram-sha-512', username, password };
  }
  return new Kafka(config);
}

async function consume(spec: ConsumerSpec): Promise<RunningConsumer> {
  const client = kafka(spec.bootstrap, spec.security, `bench-${spec.group}`);
  const consumer = client.consumer({ groupId: spec.group, sessionTimeout: 10_000, heartbeatInterval: 1000 });
  const admin = client.admin();
  let assignments = 0;
  consumer.on(consumer.events.GROUP_JOIN, () => assignments++);
  await Promise.all([consumer.connect(), admin.connect()]);
  await consumer.subscribe({ topic: spec.topic, fromBeginning: true });
  await consumer.run({
    autoCommit: spec.autoCommit,
    eachMessage: async ({ partition, message }) => {
      const offset = BigInt(message.offset);
      const commit = () =>
        consumer.commitOffsets([{ topic: spec.topic, partition, offset: (offset + 1n).toString() }]);
      await spec.onRecord({ partition, offset, commit });
    },
  });
  return {
    get assignments() {
      return assignments;
    },
    close: async () => {
      await Promise.all([consumer.disconnect(), admin.disconnect()]);
    },
    pause: () => consumer.pause([{ topic: spec.topic }]),
    resume: () => consumer.resume([{ topic: spec.topic }]),
    lag: async () => {
      const [ends, [committed]] = await Promise.all([
        admin.fetchTopicOffsets(spec.topic),
        admin.fetchOffsets({ groupId: spec.group, topics: [spec.topic] }),
      ]);
      const done = new Map(committed?.partitions.map((p) => [p.partition, BigInt(p.offset)]) ?? []);
      return new Map(ends.map((e) => [e.partition, BigInt(e.high) - (done.get(e.partition) ?? 0n)]));
    },
  };
}

async function produce(spec: ProduceSpec): Promise<void> {
  const producer = kafka(spec.bootstrap, spec.security, 'bench-producer').producer();
  await producer.connect();
  const value = Buffer.alloc(spec.valueSize, 'v');
  let next = 0;
  const sendBatches = async () => {
    while (next < spec.count) {
      const messages: Message[] = [];
      for (const end = Math.min(next + spec.batch, spec.count); next < end; next++)
        messages.push({ key: keyOf(next), value });
      await producer.send({ topic: spec.topic, messages, acks: spec.acks });
    }
  };
  try {
    await Promise.all(Array.from({ length: spec.inFlight }, sendBatches));
  } finally {
    await producer.disconnect();
  }
}

async function unreachable(bootstrap: string): Promise<{ ms: number; error: string }> {
  const producer = kafka(bootstrap, undefined, 'bench-unreachable').producer();
  const started = Date.now();
  try {
    await producer.connect();
    await producer.send({ topic: 'nowhere', messages: [{ value: 'x' }] });
    return { ms: Date.now() - started, error: 'none' };
  } catch (error) {
    const e = error as Error & { retryCount?: number; originalError?: Error };
    const cause = e.originalError ? ` ← ${e.originalError.name} ${e.originalError.message}` : '';
    return { ms: Date.now() - started, error: `${e.name} ${e.message}${cause}` };
  } finally {
    await producer.disconnect().catch(() => undefined);
  }
}

export const kafkajs: KafkaClient = { name: 'kafkajs', version, consume, produce, unreachable };

// The benchmark's adapter for @platformatic/kafka.
import { Consumer, Producer, type MessageToProduce } from '@platformatic/kafka';
import {
  keyOf,
  type ConsumerSpec,
  type KafkaClient,
  type ProduceSpec,
  type RunningConsumer,
  type Security,
} from './client.js';

// The package exports no package.json; its own version constant is internal. Kept with package.json.
const version = '1.35.0';

function connection(bootstrap: string, security: Security | undefined) {
  const base = { bootstrapBrokers: [bootstrap] };
  if (!security) return base;
  const { tlsCa, mechanism, username, password } = security;
  return { ...base, tls: { ca: tlsCa }, sasl: { mechanism, username, password } };
}

async function consume(spec: ConsumerSpec): Promise<RunningConsumer> {
  const consumer = new Consumer({
    groupId: spec.group,
    clientId: `bench-${spec.group}`,
    ...connection(spec.bootstrap, spec.security),
    sessionTimeout: 10_000,
    heartbeatInterval: 1000,
  });
  let assignments = 0;
  consumer.on('consumer:group:join', () => assignments++);
  // 'committed' resumes from the group's offsets; a group without any starts at the earliest record.
  // (mode 'earliest' would ignore committed offsets and re-read everything.)
  const stream = await consumer.consume({
    topics: [spec.topic],
    mode: 'committed',
    fallbackMode: 'earliest',
    autocommit: spec.autoCommit,
  });
  let userPaused = false;
  stream.on('error', (error: Error) => console.error(`platformatic stream error: ${error.message}`));
  stream.on('data', (message) => {
    const pending = spec.onRecord({
      partition: message.partition,
      offset: message.offset,
      commit: async () => {
        await message.commit();
      },
    });
    if (pending) {
      // The next record waits until this one is processed.
      stream.pause();
      void pending.then(() => {
        if (!userPaused) stream.resume();
      });
    }
  });
  return {
    get assignments() {
      return assignments;
    },
    // force: close the stream at once instead of waiting for it to drain.
    close: () =>
      new Promise<void>((resolve, reject) =>
        consumer.close(true, (error) => (error ? reject(error) : resolve())),
      ),
    pause: () => {
      userPaused = true;
      stream.pause();
    },
    resume: () => {
      userPaused = false;
      stream.resume();
    },
    lag: async () => {
      const lags = await consumer.getLag({ topics: [spec.topic] });
      return new Map((lags.get(spec.topic) ?? []).map((lag, partition) => [partition, lag]));
    },
  };
}

async function produce(spec: ProduceSpec): Promise<void> {
  const producer = new Producer({
    clientId: 'bench-producer',
    ...connection(spec.bootstrap, spec.security),
    acks: spec.acks,
  });
  const value = Buffer.alloc(spec.valueSize, 'v');
  let next = 0;
  const sendBatches = async () => {
    while (next < spec.count) {
      const messages: MessageToProduce<Buffer, Buffer, Buffer, Buffer>[] = [];
      for (const end = Math.min(next + spec.batch, spec.count); next < end; next++)
        messages.push({ topic: spec.topic, key: keyOf(next), value });
      await producer.send({ messages });
    }
  };
  try {
    await Promise.all(Array.from({ length: spec.inFlight }, sendBatches));
  } finally {
    await producer.close();
  }
}

async function unreachable(bootstrap: string): Promise<{ ms: number; error: string }> {
  const producer = new Producer({ clientId: 'bench-unreachable', bootstrapBrokers: [bootstrap] });
  const started = Date.now();
  try {
    await producer.send({ messages: [{ topic: 'nowhere', value: Buffer.from('x') }] });
    return { ms: Date.now() - started, error: 'none' };
  } catch (error) {
    const e = error as Error & { code?: string; errors?: (Error & { code?: string })[] };
    const inner = e.errors?.[0];
    const detail = inner ? ` ← ${inner.constructor.name} ${inner.code ?? ''} ${inner.message}` : '';
    return { ms: Date.now() - started, error: `${e.constructor.name} ${e.code ?? ''} ${e.message}${detail}` };
  } finally {
    await producer.close().catch(() => undefined);
  }
}

export const platformatic: KafkaClient = {
  name: '@platformatic/kafka',
  version,
  consume,
  produce,
  unreachable,
};

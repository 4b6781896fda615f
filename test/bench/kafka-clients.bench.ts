// The Kafka client library against a real Apache Kafka 4.4 broker, in the same run: consume throughput
// (one consumer; two in one group) of records Kafka's ProducerPerformance wrote, batched produce
// throughput, Kafka's own ConsumerPerformance/ProducerPerformance as the ceiling, and correctness checks
// (rebalancing, at-least-once commits, pause/resume with lag, SASL SCRAM over TLS, an unreachable broker).
//
//   bash test/kafka/build.sh && npx tsx test/bench/kafka-clients.bench.ts [--rounds 3] [--records 1000000]
import { parseArgs } from 'node:util';
import { createServer } from 'node:net';
import { startKafkaBroker, type KafkaBroker } from '../fixtures/kafka-broker.js';
import type { KafkaClient } from './kafka-clients/client.js';
import { platformatic } from './kafka-clients/platformatic.js';
import { atLeastOnce, consumeAll, pauseResume, produceAll, rebalance } from './kafka-clients/scenarios.js';

const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '3' },
    records: { type: 'string', default: '1000000' },
    'produce-records': { type: 'string', default: '200000' },
  },
});
const rounds = Number(values.rounds);
const records = Number(values.records);
const produceRecords = Number(values['produce-records']);
// kafkajs 2.2.4 ran here too until the choice (docs/decisions/0029-kafka-client.md); its adapter is in
// commit 6d9cf6e: `git show 6d9cf6e:test/bench/kafka-clients/kafkajs.ts`, add it to this list to compare.
const clients: KafkaClient[] = [platformatic];

const median = (xs: number[]) => {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
};
const k = (n: number) => `${Math.round(n / 1000)}k`;

type Row = Record<string, number[]>;
const results = new Map<string, Row>();
function record(who: string, what: string, value: number): void {
  const row = results.get(who) ?? {};
  (row[what] ??= []).push(value);
  results.set(who, row);
}

async function throughputRounds(broker: KafkaBroker): Promise<void> {
  await broker.createTopic('bench-4p', { partitions: 4 });
  const seeded = await broker.producerPerformance('bench-4p', { records, recordSize: 100 });
  console.log(`seeded ${records} records of 100 B (ProducerPerformance ${k(seeded.recordsPerSec)} rec/s)`);
  for (let round = 1; round <= rounds; round++) {
    const ceiling = await broker.consumerPerformance('bench-4p', { records });
    record('Kafka ConsumerPerformance', 'consume1', ceiling.recordsPerSec);
    record('Kafka ConsumerPerformance', 'consume1fetch', ceiling.fetchRecordsPerSec);
    await broker.createTopic(`ceiling-${round}`, { partitions: 4 });
    const producer = await broker.producerPerformance(`ceiling-${round}`, {
      records: produceRecords,
      props: { acks: '1' },
    });
    record('Kafka ProducerPerformance', 'produce', producer.recordsPerSec);
    for (const client of clients) {
      const tag = `${client.name.replace(/\W/g, '')}-${round}`;
      const one = await consumeAll(client, broker, { topic: 'bench-4p', consumers: 1, group: `one-${tag}` });
      const two = await consumeAll(client, broker, { topic: 'bench-4p', consumers: 2, group: `two-${tag}` });
      const produced = await produceAll(client, broker, {
        topic: `produce-${tag}`,
        count: produceRecords,
        acks: 1,
      });
      record(client.name, 'consume1', one.recordsPerSec);
      record(client.name, 'consume1fetch', one.fetchRecordsPerSec);
      record(client.name, 'consume2', two.recordsPerSec);
      record(client.name, 'consume2dup', two.duplicates);
      record(client.name, 'produce', produced);
      console.log(
        `round ${round} ${client.name}: one ${k(one.recordsPerSec)}/s (fetch ${k(one.fetchRecordsPerSec)}/s), ` +
          `two ${k(two.recordsPerSec)}/s shares ${two.shares.join('/')} dup ${two.duplicates}, produce ${k(produced)}/s`,
      );
    }
    console.log(
      `round ${round} ceiling: consume ${k(ceiling.recordsPerSec)}/s, produce ${k(producer.recordsPerSec)}/s`,
    );
  }
}

async function correctness(broker: KafkaBroker): Promise<void> {
  for (const client of clients) {
    const tag = client.name.replace(/\W/g, '');
    await broker.createTopic(`rb-${tag}`, { partitions: 4 });
    await broker.producerPerformance(`rb-${tag}`, { records: 20_000, recordSize: 100 });
    console.log(`${client.name} rebalance:`, await rebalance(client, broker, `rb-${tag}`));
    await broker.createTopic(`alo-${tag}`, { partitions: 1 });
    await broker.producerPerformance(`alo-${tag}`, { records: 100, recordSize: 100 });
    console.log(`${client.name} at-least-once:`, await atLeastOnce(client, broker, `alo-${tag}`));
    await broker.createTopic(`pause-${tag}`, { partitions: 2 });
    await broker.producerPerformance(`pause-${tag}`, { records: 20_000, recordSize: 100 });
    console.log(`${client.name} pause/resume:`, await pauseResume(client, broker, `pause-${tag}`));
  }
}

async function closedPort(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  return `127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
}

async function securityAndUnreachable(): Promise<void> {
  const broker = await startKafkaBroker({ sasl: { users: { alice: 'alice-pw' } }, tls: {} });
  try {
    await broker.createTopic('secured', { partitions: 1 });
    const security = {
      tlsCa: broker.tls!.ca,
      mechanism: 'SCRAM-SHA-512' as const,
      username: 'alice',
      password: 'alice-pw',
    };
    for (const client of clients) {
      const bootstrap = broker.listener('SASL_SSL');
      await client.produce({
        bootstrap,
        topic: 'secured',
        count: 10,
        valueSize: 10,
        batch: 10,
        inFlight: 1,
        acks: -1,
        security,
      });
      let got = 0;
      const consumer = await client.consume({
        bootstrap,
        topic: 'secured',
        group: `sec-${client.name.replace(/\W/g, '')}`,
        autoCommit: true,
        security,
        onRecord: () => void got++,
      });
      const deadline = Date.now() + 30_000;
      while (got < 10 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      await consumer.close();
      console.log(`${client.name} SASL_SSL SCRAM-SHA-512: produced 10, consumed ${got}`);
    }
  } finally {
    await broker.stop();
  }
  for (const client of clients)
    console.log(`${client.name} unreachable broker:`, await client.unreachable(await closedPort()));
}

function report(): void {
  console.log(
    '\n| library | consume, 1 consumer (rec/s) | same, from first record | consume, 2 in a group | produce, batched acks=1 |',
  );
  console.log('|---|---:|---:|---:|---:|');
  for (const [who, row] of results) {
    const cell = (name: string) => (row[name] ? k(median(row[name])) : '–');
    console.log(
      `| ${who} | ${cell('consume1')} | ${cell('consume1fetch')} | ${cell('consume2')} | ${cell('produce')} |`,
    );
  }
  console.log(
    `(medians of ${rounds} rounds; ${records} records of 100 B on 4 partitions; produce ${produceRecords} records)`,
  );
  for (const client of clients)
    console.log(
      `${client.name} ${client.version}: duplicates with two consumers per round: ${results.get(client.name)?.['consume2dup']?.join(', ')}`,
    );
}

const broker = await startKafkaBroker({ profile: 'throughput' });
try {
  console.log(
    `broker ${broker.bootstrap} (format ${broker.timings.formatMs} ms, start ${broker.timings.startMs} ms)`,
  );
  await throughputRounds(broker);
  report();
  await correctness(broker);
} finally {
  await broker.stop();
}
await securityAndUnreachable();

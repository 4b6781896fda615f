// The Kafka test broker fixture against itself: Kafka's console producer writes keyed records, Kafka's
// console consumer reads them back byte-exact, and the records survive a SIGKILL of the broker.
import { strict as assert } from 'node:assert';
import { requireKafkaOrSkip, startKafkaBroker, type KafkaBroker } from '../fixtures/kafka-broker.js';

describe('Kafka test broker (real Apache Kafka, KRaft)', function () {
  this.timeout(120_000);
  let broker: KafkaBroker;

  before(async function () {
    await requireKafkaOrSkip(this);
    broker = await startKafkaBroker();
    console.log(`    (kafka format ${broker.timings.formatMs} ms, start ${broker.timings.startMs} ms)`);
  });
  after(() => broker?.stop());

  const records = [
    { key: 'k1', value: 'first value\twith a tab' },
    { key: 'ключ-2', value: '{"json":true,"n":2}' },
    { key: null, value: 'no key: ü € 😀' },
  ];

  it('serves on a loopback port', () => {
    assert.match(broker.bootstrap, /^127\.0\.0\.1:\d+$/);
    assert.ok(broker.running);
  });

  it('console-produces keyed records and console-consumes them byte-exact', async () => {
    await broker.createTopic('fixture-roundtrip', { partitions: 1 });
    await broker.produce('fixture-roundtrip', records);
    const got = await broker.consume('fixture-roundtrip', 3);
    assert.deepEqual(
      got.map((r) => [r.partition, r.offset, r.key, r.value]),
      records.map((r, offset) => [
        0,
        offset,
        r.key === null ? null : Buffer.from(r.key, 'utf8'),
        Buffer.from(r.value, 'utf8'),
      ]),
    );
    assert.deepEqual(await broker.endOffsets('fixture-roundtrip'), new Map([[0, 3]]));
  });

  it('keeps the records across kill -9 and a restart on the same port', async () => {
    const before = broker.bootstrap;
    await broker.kill();
    assert.equal(broker.running, false);
    await broker.start();
    console.log(`    (kafka restart after SIGKILL ${broker.timings.startMs} ms)`);
    assert.equal(broker.bootstrap, before);
    const got = await broker.consume('fixture-roundtrip', 3);
    assert.deepEqual(
      got.map((r) => r.value?.toString('utf8')),
      records.map((r) => r.value),
    );
  });

  it('fails to produce to an unknown topic (no auto-creation)', async () => {
    await assert.rejects(
      broker.produce('fixture-no-such-topic', [{ value: 'x' }], { maxBlockMs: 2000 }),
      /UNKNOWN_TOPIC_OR_PARTITION|does not exist|not present in metadata/i,
    );
  });
});

describe('Kafka test broker with SASL, TLS and the authorizer', function () {
  this.timeout(120_000);
  let broker: KafkaBroker;
  const alice = {
    protocol: 'SASL_PLAINTEXT',
    mechanism: 'SCRAM-SHA-512',
    username: 'alice',
    password: 'alice-pw',
  } as const;

  before(async function () {
    await requireKafkaOrSkip(this);
    broker = await startKafkaBroker({
      sasl: { users: { alice: 'alice-pw', bob: 'bob-pw' } },
      tls: { clientAuth: 'required' },
      authorizer: {},
    });
    await broker.createTopic('fixture-secured', { partitions: 2 });
    await broker.acls([
      '--add',
      '--allow-principal',
      'User:alice',
      '--operation',
      'All',
      '--topic',
      'fixture-secured',
      '--group',
      '*',
    ]);
  });
  after(() => broker?.stop());

  it('lets a user with an ACL produce over SCRAM-SHA-512 and consume over SCRAM-SHA-256 and PLAIN on SASL_SSL', async () => {
    await broker.produce('fixture-secured', [{ key: 'a', value: 'secured' }], { as: alice });
    const overScram256 = await broker.consume('fixture-secured', 1, {
      as: { ...alice, mechanism: 'SCRAM-SHA-256' },
    });
    const overTls = await broker.consume('fixture-secured', 1, {
      as: { ...alice, protocol: 'SASL_SSL', mechanism: 'PLAIN' },
    });
    assert.deepEqual(
      [...overScram256, ...overTls].map((r) => r.value?.toString('utf8')),
      ['secured', 'secured'],
    );
  });

  it('denies a user without an ACL, and a wrong password', async () => {
    const bob = { ...alice, username: 'bob', password: 'bob-pw' };
    await assert.rejects(
      broker.produce('fixture-secured', [{ value: 'x' }], { as: bob }),
      /TOPIC_AUTHORIZATION_FAILED/,
    );
    await assert.rejects(
      broker.produce('fixture-secured', [{ value: 'x' }], {
        as: { ...alice, password: 'wrong' },
        maxBlockMs: 3000,
      }),
      /invalid credentials/,
    );
  });

  it('names a client certificate by its CN (no ACL: denied)', async () => {
    await assert.rejects(
      broker.produce('fixture-secured', [{ value: 'x' }], { as: { protocol: 'SSL', clientCert: true } }),
      /TOPIC_AUTHORIZATION_FAILED/,
    );
    await broker.acls([
      '--add',
      '--allow-principal',
      'User:client.test',
      '--operation',
      'Write',
      '--topic',
      'fixture-secured',
    ]);
    await broker.produce('fixture-secured', [{ value: 'by certificate' }], {
      as: { protocol: 'SSL', clientCert: true },
    });
  });
});

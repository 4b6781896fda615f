// Authentication and authorization faults of a topic ingestor against a real broker with SASL and the
// StandardAuthorizer: the client logs in with SCRAM-SHA-512, its password read from a file of a mounted
// resource (uploaded through the CLI). Without an ACL on the group, then on the topic, the ingestor is
// Retrying with the broker's authorization code; once kafka-acls grants both it consumes. A wrong password is
// Retrying with SASL_AUTHENTICATION_FAILED. Neither password, nor any payload, appears in a log or DESCRIBE.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { requireKafkaOrSkip, startKafkaBroker, type KafkaBroker } from '../fixtures/kafka-broker.js';
import { startNodeHarnessWithGraph, type NodeHarness } from '../fixtures/node-harness.js';
import {
  assertLogsFreeOf,
  describedWhen,
  ITEMS_IN,
  kafkaGraph,
  linesAtLeast,
  makeItems,
  readItems,
  TEST_GROUP_TIMING,
} from '../fixtures/kafka-node.js';

const PASSWORD = 'reader-secret-4f9a1c';
const WRONG_PASSWORD = 'not-the-secret-77b2';
const WRONG_IN = { kind: 'INGESTOR', name: 'wrong_in' } as const;

/** A second client and ingestor of the same user with the wrong password file. */
function wrongPasswordIngestor(bootstrap: string): string {
  return `
CREATE CLIENT kafka_wrong TYPE KAFKA MOUNT pki VERSION 1 CONFIG {
  'bootstrap_servers' = '${bootstrap}', 'security_protocol' = 'sasl_plaintext',
  'sasl_mechanism' = 'scram-sha-512', 'sasl_username' = 'reader',
  'sasl_password_file' = '{{ pki }}/wrong-password' };
CREATE TOPIC INGESTOR wrong_in FROM kafka_wrong TOPIC 'secured' GROUP 'wrong-readers'
  START FROM EARLIEST MODE ACK ON QUIESCE SUSPEND DECODE USING item_json
  TO items INHERIT ALL SET partition = metadata.partition, offset = metadata.offset
  ON GENERAL ERROR LOG;`;
}

describe('Kafka authentication and authorization faults through a node', function () {
  this.timeout(120_000);
  let broker: KafkaBroker;
  let node: NodeHarness;
  let files: string;

  before(async function () {
    await requireKafkaOrSkip(this);
    broker = await startKafkaBroker({ sasl: { users: { reader: PASSWORD } }, authorizer: {} });
    files = mkdtempSync(join(tmpdir(), 'streamroute-kafka-pki-'));
    writeFileSync(join(files, 'kafka-password'), `${PASSWORD}\n`);
    writeFileSync(join(files, 'wrong-password'), `${WRONG_PASSWORD}\n`);
  });

  after(async () => {
    await node?.close();
    await broker?.stop();
    if (files !== undefined) rmSync(files, { recursive: true, force: true });
  });

  it('Retrying with the authorization code until kafka-acls grants the group and the topic; a wrong password is SASL_AUTHENTICATION_FAILED', async () => {
    await broker.createTopic('secured', { partitions: 2 });
    const produced = makeItems(8, 'secured');
    await broker.produce('secured', produced);

    // The resource must exist before a client mounts it: the graph comes through the CLI, after the upload.
    node = await startNodeHarnessWithGraph('CREATE SCHEMA placeholder (x STRING);', {
      kafkaGroup: TEST_GROUP_TIMING,
    });
    const sasl = broker.listener('SASL_PLAINTEXT');
    const graph = kafkaGraph({
      bootstrap: sasl,
      topic: 'secured',
      group: 'readers',
      mount: 'MOUNT pki VERSION 1',
      clientConfig: [
        `'security_protocol' = 'sasl_plaintext'`,
        `'sasl_mechanism' = 'scram-sha-512'`,
        `'sasl_username' = 'reader'`,
        `'sasl_password_file' = '{{ pki }}/kafka-password'`,
      ],
    });
    const run = await node.sql(
      `CREATE RESOURCE pki; UPLOAD RESOURCE pki VERSION '${files}'; ${graph} ${wrongPasswordIngestor(sasl)}`,
    );
    assert.equal(run.code, 0, run.stderr);
    const items = await node.subscribe('items');

    const noGroup = await describedWhen(
      node,
      ITEMS_IN,
      (d) => d.state === 'Retrying' && d.error?.code === 'GROUP_AUTHORIZATION_FAILED',
      'Retrying with GROUP_AUTHORIZATION_FAILED',
    );
    assert.match(
      noGroup.error!.message,
      /cannot consume topic secured of kafka client kafka: not authorized for the consumer group/,
    );
    const wrong = await describedWhen(
      node,
      WRONG_IN,
      (d) => d.state === 'Retrying' && d.error?.code === 'SASL_AUTHENTICATION_FAILED',
      'the wrong password Retrying with SASL_AUTHENTICATION_FAILED',
    );
    assert.match(wrong.error!.message, /of kafka client kafka_wrong: SASL authentication failed/);

    await broker.acls([
      '--add',
      '--allow-principal',
      'User:reader',
      '--operation',
      'Read',
      '--group',
      'readers',
    ]);
    const noTopic = await describedWhen(
      node,
      ITEMS_IN,
      (d) => d.state === 'Retrying' && d.error?.code === 'TOPIC_AUTHORIZATION_FAILED',
      'Retrying with TOPIC_AUTHORIZATION_FAILED once the group is granted',
    );
    assert.match(
      noTopic.error!.message,
      /cannot consume topic secured of kafka client kafka: not authorized for the topic/,
    );
    assert.deepEqual(items.lines, []);

    await broker.acls([
      '--add',
      '--allow-principal',
      'User:reader',
      '--operation',
      'Read',
      '--topic',
      'secured',
    ]);
    await linesAtLeast(node, items, produced.length, 'items once the topic is granted');
    assert.deepEqual(
      readItems(items)
        .map((item) => item.id)
        .sort(),
      produced.map((item) => item.key).sort(),
    );
    await describedWhen(node, ITEMS_IN, (d) => d.state === 'Running' && d.error === null, 'Running');
    const stillWrong = await describedWhen(node, WRONG_IN, () => true, 'DESCRIBE wrong_in');
    assert.equal(stillWrong.error?.code, 'SASL_AUTHENTICATION_FAILED');

    for (const text of [noGroup.text, noTopic.text, wrong.text, stillWrong.text]) {
      assert.ok(!text.includes(PASSWORD) && !text.includes(WRONG_PASSWORD), text);
    }
    assertLogsFreeOf(node.logs, [PASSWORD, WRONG_PASSWORD, ...produced.map((item) => item.key!)]);
  });
});

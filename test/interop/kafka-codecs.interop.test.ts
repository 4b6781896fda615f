// Every codec form from a Kafka topic (examples/codecs with a topic ingestor per format, against a real
// broker): messages written by Kafka's console producer — JSON, YAML, TOML, XML and a syslog line, one
// line each, as that tool writes one message per line — and the binary CBOR and protobuf payload files of
// examples/codecs, written by the node's Kafka library and read back byte-exact with Kafka's console
// consumer first, come out of the relays as the same records the HTTP path gives (node-codecs.e2e).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Producer } from '@platformatic/kafka';
import { requireKafkaOrSkip, startKafkaBroker, type KafkaBroker } from '../fixtures/kafka-broker.js';
import { EXAMPLES } from '../fixtures/graph-from-statements.js';
import { line, startNodeHarnessWithGraph, until, type NodeHarness } from '../fixtures/node-harness.js';

const FORMATS = ['json', 'yaml', 'toml', 'xml', 'cbor', 'pb', 'syslog'] as const;
type Format = (typeof FORMATS)[number];

/** One message per format; the text ones on one line (the console producer's unit). */
const TEXT: Partial<Record<Format, string>> = {
  json: '{"orders":[{"id":"K-1","customer":{"name":"Ada"},"amount":250,"currency":"EUR","placed":"2026-11-24T10:00:00Z"}]}',
  yaml: '{id: K-2, customer: Grace, amount: 9007199254740993, currency: USD}',
  toml: 'order = { id = "K-3", customer = "Ada", amount = 250, currency = "EUR", placed = 2026-11-24T10:00:00Z }',
  xml: '<order id="K-4"><customer>Ada</customer><amount currency="EUR">0250</amount></order>',
  syslog: readFileSync(join(EXAMPLES, 'codecs', 'payloads', 'line.syslog'), 'utf8').trimEnd(),
};
const BINARY: Partial<Record<Format, Buffer>> = {
  cbor: readFileSync(join(EXAMPLES, 'codecs', 'payloads', 'order.cbor')),
  pb: readFileSync(join(EXAMPLES, 'codecs', 'payloads', 'order.pb')),
};

const order = (fields: Record<string, unknown>): string =>
  line({ order_id: '', customer: '', amount: 0, currency: '', placed_at: null, ...fields }).replace(
    /"amount":"(\d+)n"/,
    '"amount":$1',
  );

/** A topic ingestor per format, each into the relay its HTTP ingestor feeds. */
function topicIngestors(bootstrap: string): string {
  const codec: Record<Format, string> = {
    json: 'orders_json',
    yaml: 'orders_yaml',
    toml: 'orders_toml',
    xml: 'orders_xml',
    cbor: 'orders_cbor',
    pb: 'orders_pb',
    syslog: 'syslog_text',
  };
  const ingestors = FORMATS.map(
    (format) => `
CREATE TOPIC INGESTOR kafka_${format}_in FROM kafka TOPIC '${format}' GROUP 'codecs' START FROM EARLIEST
  MODE ACK ON QUIESCE SUSPEND DECODE USING ${codec[format]}
  TO ${format === 'syslog' ? 'syslog_lines' : 'orders'} INHERIT ALL UNBRANCHED FLUSH IMMEDIATE ON MESSAGE ERROR LOG
  ON GENERAL ERROR LOG;`,
  );
  return `CREATE CLIENT kafka TYPE KAFKA CONFIG { 'bootstrap_servers' = '${bootstrap}' };${ingestors.join('')}`;
}

describe('Kafka: every codec form from a topic through a node (real broker)', function () {
  this.timeout(180_000);
  let broker: KafkaBroker;
  let node: NodeHarness;

  before(async function () {
    await requireKafkaOrSkip(this);
    broker = await startKafkaBroker();
    for (const format of FORMATS) await broker.createTopic(format);
    node = await startNodeHarnessWithGraph(readFileSync(join(EXAMPLES, 'codecs', 'graph.sql'), 'utf8'));
    // The protobuf codec needs its resource: protobuf.sql uploads it through the CLI, as a user would.
    const run = await node.sql(
      readFileSync(join(EXAMPLES, 'codecs', 'protobuf.sql'), 'utf8') + topicIngestors(broker.bootstrap),
    );
    assert.equal(run.code, 0, run.stderr);
  });

  after(async () => {
    await node?.close();
    await broker?.stop();
  });

  async function produceBinary(topic: string, value: Buffer): Promise<void> {
    const [host, port] = broker.bootstrap.split(':');
    const producer = new Producer({
      clientId: 'kafka-codecs-test',
      bootstrapBrokers: [{ host: host!, port: Number(port) }],
    });
    try {
      await producer.send({ messages: [{ topic, value }] });
    } finally {
      await producer.close();
    }
    const [stored] = await broker.consume(topic, 1);
    assert.ok(stored?.value?.equals(value), `${topic}: Kafka holds the file's bytes exactly`);
  }

  it('decodes each format as the HTTP path does, in topic order, with every digit', async () => {
    const orders = await node.subscribe('orders');
    const lines = await node.subscribe('syslog-lines');
    for (const [format, text] of Object.entries(TEXT)) await broker.produce(format, [{ value: text }]);
    for (const [format, bytes] of Object.entries(BINARY)) await produceBinary(format, bytes);
    await until(
      () => {
        node.clock.advance(250);
        return orders.lines.length >= 6 && lines.lines.length >= 1;
      },
      'six orders and one syslog line',
      60_000,
    ).catch(async (error: unknown) => {
      const states = await Promise.all(
        FORMATS.map(async (format) => (await node.sql(`DESCRIBE INGESTOR kafka_${format}_in`)).stdout),
      );
      throw new Error(`${String(error)}\norders: ${orders.lines.join('\n')}\n${states.join('\n')}`);
    });
    const byId = new Map(
      orders.lines.map((text) => [(JSON.parse(text) as { order_id: string }).order_id, text]),
    );
    const ada = { customer: 'Ada', amount: 250, currency: 'EUR', placed_at: '2026-11-24T10:00:00Z' };
    assert.equal(byId.get('K-1'), order({ order_id: 'K-1', ...ada }));
    assert.equal(
      byId.get('K-2'),
      order({ order_id: 'K-2', customer: 'Grace', amount: '9007199254740993n', currency: 'USD' }),
    );
    assert.equal(byId.get('K-3'), order({ order_id: 'K-3', ...ada }));
    assert.equal(byId.get('K-4'), order({ order_id: 'K-4', ...ada, placed_at: null }));
    assert.equal(byId.get('C-1'), order({ order_id: 'C-1', ...ada }));
    assert.ok(byId.has('P-1'), `the protobuf order arrived: ${[...byId.keys()].join(', ')}`);
    assert.equal(orders.lines.length, 6);
    const syslog = JSON.parse(lines.lines[0]!) as Record<string, unknown>;
    assert.equal(syslog.message, 'order placed');
    assert.equal(syslog.structured_data, '[order@32473 id="S-1"]');
    assert.equal(syslog.timestamp, '2026-11-24T10:00:00.123456Z');
  });
});

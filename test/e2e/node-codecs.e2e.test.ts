// Every codec form through a real node (examples/codecs): the example payloads POSTed to its HTTP
// listener come out of the `orders` and `syslog_lines` relays as exact records; the protobuf codec is
// added by running examples/codecs/protobuf.sql through the CLI, which uploads the .proto directory; and
// a bad payload of every format is answered 202, counted by its code and logged, while the node goes on.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { EXAMPLES } from '../fixtures/graph-from-statements.js';
import { eachTestNode, line, linesOf, until, type NodeHarness } from '../fixtures/node-harness.js';

const payload = (file: string): Buffer => readFileSync(join(EXAMPLES, 'codecs', 'payloads', file));

/** A record line of `orders`; an amount given as `'…n'` is written with every digit, as the node does. */
const order = (fields: Record<string, unknown>): string =>
  line({ order_id: '', customer: '', amount: 0, currency: '', placed_at: null, ...fields }).replace(
    /"amount":"(\d+)n"/,
    '"amount":$1',
  );

describe('node e2e: every codec form (examples/codecs)', function () {
  this.timeout(30_000);
  let node: NodeHarness;
  eachTestNode((started) => (node = started), 'codecs');

  async function postFile(path: string, file: string, contentType: string): Promise<void> {
    const response = await node.send({ path, body: payload(file), headers: { 'content-type': contentType } });
    assert.equal(response.status, 202, `${path} ${file}`);
  }

  it('decodes JSON, YAML, TOML, XML and CBOR bodies into the same orders, in order and exact', async () => {
    const orders = await node.subscribe('orders');
    await postFile('/orders.json', 'orders.json', 'application/json');
    await linesOf(orders, 2);
    await postFile('/orders.yaml', 'orders.yaml', 'application/yaml');
    await linesOf(orders, 4);
    await postFile('/orders.toml', 'order.toml', 'application/toml');
    await linesOf(orders, 5);
    await postFile('/orders.xml', 'order.xml', 'application/xml');
    await linesOf(orders, 6);
    await postFile('/orders.cbor', 'order.cbor', 'application/cbor');
    assert.deepEqual(await linesOf(orders, 7), [
      order({
        order_id: 'J-1',
        customer: 'Ada',
        amount: 250,
        currency: 'EUR',
        placed_at: '2026-11-24T10:00:00Z',
      }),
      order({ order_id: 'J-2', customer: 'Grace', amount: '9007199254740993n', currency: 'USD' }),
      order({
        order_id: 'Y-1',
        customer: 'Ada',
        amount: 250,
        currency: 'EUR',
        placed_at: '2026-11-24T10:00:00Z',
      }),
      order({ order_id: 'Y-2', customer: 'Grace', amount: 120, currency: 'USD' }),
      order({
        order_id: 'T-1',
        customer: 'Ada',
        amount: 250,
        currency: 'EUR',
        placed_at: '2026-11-24T10:00:00Z',
      }),
      order({
        order_id: 'X-1',
        customer: 'Ada',
        amount: 250,
        currency: 'EUR',
        placed_at: '2026-11-24T10:00:00Z',
      }),
      order({
        order_id: 'C-1',
        customer: 'Ada',
        amount: 250,
        currency: 'EUR',
        placed_at: '2026-11-24T10:00:00Z',
      }),
    ]);
  });

  it('decodes an RFC 5424 line POSTed over HTTP with the SYSLOG codec', async () => {
    const lines = await node.subscribe('syslog-lines');
    await postFile('/syslog', 'line.syslog', 'text/plain');
    assert.deepEqual(await linesOf(lines, 1), [
      line({
        facility: 4,
        severity: 2,
        timestamp: '2026-11-24T10:00:00.123456Z',
        hostname: 'web-7',
        app_name: 'shop',
        proc_id: '4242',
        msg_id: 'ORDER',
        structured_data: '[order@32473 id="S-1"]',
        message: 'order placed',
      }),
    ]);
  });

  it('adds the protobuf codec with protobuf.sql (UPLOAD RESOURCE through the CLI) and decodes wire bytes', async () => {
    const script = readFileSync(join(EXAMPLES, 'codecs', 'protobuf.sql'), 'utf8');
    const run = await node.sql(script);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /as version 1 of resource order_protos/);
    const orders = await node.subscribe('orders');
    await postFile('/orders.pb', 'order.pb', 'application/octet-stream');
    assert.deepEqual(await linesOf(orders, 1), [
      order({
        order_id: 'P-1',
        customer: 'Ada',
        amount: '9223372036854775807n',
        currency: 'EUR',
        placed_at: '2026-11-24T10:00:00Z',
      }),
    ]);
  });

  it('answers a bad body of every format 202, counts it by its code, logs it without its content, and goes on', async () => {
    const bad: [string, string | Uint8Array, string][] = [
      ['/orders.json', '{"orders": [', 'SR3002'],
      ['/orders.yaml', 'id: [unclosed', 'SR3010'],
      ['/orders.toml', '[order\nid = ', 'SR3010'],
      ['/orders.xml', '<order id="secret-1"><customer>', 'SR3010'],
      ['/orders.cbor', new Uint8Array([0x5b, 0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0]), 'SR3010'],
      ['/orders.json', '{"orders": [{"id": "secret-2", "amount": "many"}]}', 'SR3005'],
      ['/syslog', '\r\n\u0000', 'SR3020'],
    ];
    for (const [path, body] of bad) assert.equal((await node.send({ path, body })).status, 202, path);
    for (const code of new Set(bad.map(([, , code]) => code))) {
      const expected = bad.filter(([, , c]) => c === code).length;
      await until(
        async () => (await node.metric('streamroute_message_errors_total', { reason: code })) === expected,
        `${expected} message error(s) ${code}`,
      );
    }
    const logged = JSON.stringify(node.logs);
    assert.doesNotMatch(logged, /secret-1|secret-2|unclosed/, 'no payload text in the logs');
    const orders = await node.subscribe('orders');
    await postFile('/orders.yaml', 'orders.yaml', 'application/yaml');
    assert.equal((await linesOf(orders, 2)).length, 2, 'the node still decodes');
  });
});

// Hot reload on an embedded node, seen from its clients: an open keep-alive connection and a subscriber
// that a change does not touch keep working across it; a changed ingestor routes every request after the
// swap by its new route and loses none; a removed relay ends its subscribers' streams with the reason.
import assert from 'node:assert/strict';
import type { RawConnection } from '../support/raw-http.js';
import { line, linesOf, eachTestNode, until, type NodeHarness } from '../fixtures/node-harness.js';

const AUDIT_INGESTOR = `
  CREATE RELAY audit SCHEMA orders UNBRANCHED;
  CREATE ENDPOINT audit_ep ON local PATH '/audit/orders' TYPE HTTP;
  CREATE HTTP ENDPOINT INGESTOR audit_in
    FROM audit_ep MODE NO ACK ON QUIESCE BUFFER MAX SIZE 1MiB DECODE USING order_json
    TO audit INHERIT ALL SET channel = 'audit' UNBRANCHED FLUSH IMMEDIATE ON MESSAGE ERROR LOG
    ON GENERAL ERROR LOG;`;

describe('node e2e: hot reload', () => {
  let node: NodeHarness;
  eachTestNode((started) => (node = started));

  async function postOn(connection: RawConnection, path: string, body: object): Promise<void> {
    const response = await connection.request({ path, body: JSON.stringify(body) });
    assert.equal(response.status, 202, `POST ${path}`);
  }

  /** The `graph applied` log line of a version: what the reload added, changed, removed and kept. */
  function applied(version: number): Record<string, unknown> | undefined {
    const entry = node.logged('graph applied').find((each) => each.version === version);
    return entry && { added: entry.added, changed: entry.changed, removed: entry.removed };
  }

  it('a change that touches neither keeps an open keep-alive connection and a subscriber working', async () => {
    const paid = await node.subscribe('paid-first');
    const connection = await node.connect();
    await postOn(connection, '/web/orders', { order_id: 'K1', amount: 10 });
    await postOn(connection, '/payments', { payment_id: 'P1', order_id: 'K1', amount: 10 });
    await linesOf(paid, 1);

    const run = await node.sql(`BEGIN; ${AUDIT_INGESTOR} COMMIT;`);
    assert.equal(run.code, 0, run.stderr);
    assert.equal(await node.graphVersion(), 2);
    assert.deepEqual(applied(2), { added: 2, changed: 0, removed: 0 });

    // The same socket serves the next requests, routed by the new table; the subscriber keeps receiving.
    await postOn(connection, '/web/orders', { order_id: 'K2', amount: 20 });
    await postOn(connection, '/payments', { payment_id: 'P2', order_id: 'K2', amount: 20 });
    assert.deepEqual(await linesOf(paid, 2), [
      line({ order_id: 'K1', payment_id: 'P1', channel: 'web', ordered: 10, paid: 10 }),
      line({ order_id: 'K2', payment_id: 'P2', channel: 'web', ordered: 20, paid: 20 }),
    ]);
    const audit = await node.subscribe('audit');
    await postOn(connection, '/audit/orders', { order_id: 'K3', amount: 30 });
    assert.deepEqual(await linesOf(audit, 1), [line({ order_id: 'K3', amount: 30, channel: 'audit' })]);
    assert.equal(connection.closed, false);
    assert.equal(paid.response.complete, false, 'the subscription has not ended');
    assert.equal(await node.metric('streamroute_drops_total'), 0);
  });

  it('a changed web ingestor (manifest edit) routes every request after the swap by the new route, losing none', async () => {
    const web = await node.subscribe('web-orders');
    const paid = await node.subscribe('paid-first');
    const connection = await node.connect();
    let sent = 0;
    const postNext = (): Promise<void> =>
      postOn(connection, '/web/orders', { order_id: `W${sent++}`, amount: 1 });
    await postNext();

    node.writeManifest(node.readManifest().replace("SET channel = 'web'", "SET channel = 'web-v2'"));
    // Keep posting on the same connection while the node notices the edit and swaps the ingestor.
    while ((await node.graphVersion()) === 1 && sent < 2000) {
      for (let burst = 0; burst < 5; burst += 1) await postNext();
    }
    assert.equal(await node.graphVersion(), 2);
    for (let after = 0; after < 5; after += 1) await postNext();
    assert.deepEqual(applied(2), { added: 0, changed: 1, removed: 0 });

    const records = (await linesOf(web, sent, 'web orders')).map(
      (text) => JSON.parse(text) as { order_id: string; channel: string },
    );
    assert.deepEqual(
      records.map((record) => record.order_id),
      Array.from({ length: sent }, (_, index) => `W${index}`),
      'every accepted order, in order',
    );
    const swap = records.findIndex((record) => record.channel === 'web-v2');
    assert.ok(swap >= 1 && swap <= sent - 5, `the swap falls inside the stream (at ${swap} of ${sent})`);
    assert.ok(records.slice(0, swap).every((record) => record.channel === 'web'));
    assert.ok(records.slice(swap).every((record) => record.channel === 'web-v2'));
    assert.equal(await node.metric('streamroute_drops_total'), 0);
    assert.equal(connection.closed, false);

    // Downstream (junction, correlators) was not touched: the last order pairs on the open subscription.
    await postOn(connection, '/payments', { payment_id: 'PW', order_id: `W${sent - 1}`, amount: 1 });
    assert.deepEqual(await linesOf(paid, 1), [
      line({ order_id: `W${sent - 1}`, payment_id: 'PW', channel: 'web-v2', ordered: 1, paid: 1 }),
    ]);
  });

  it("a removed relay ends its subscribers' streams with the reason; other subscribers keep receiving", async () => {
    assert.equal((await node.sql(AUDIT_INGESTOR)).code, 0);
    const version = await node.graphVersion();
    const audit = await node.subscribe('audit');
    const paid = await node.subscribe('paid-first');
    assert.equal((await node.post('/audit/orders', { order_id: 'D1', amount: 1 })).status, 202);
    await linesOf(audit, 1);

    const run = await node.sql('DROP INGESTOR audit_in; DROP RELAY audit;');
    assert.equal(run.code, 0, run.stderr);
    const trailers = await audit.ended;
    assert.equal(
      trailers['streamroute-end-reason'],
      `relay audit was removed from domain default by graph version ${version + 2}`,
    );
    assert.deepEqual(audit.lines, [line({ order_id: 'D1', amount: 1, channel: 'audit' })]);
    assert.equal((await node.post('/audit/orders', { order_id: 'D2', amount: 1 })).status, 404);

    assert.equal((await node.post('/web/orders', { order_id: 'D3', amount: 2 })).status, 202);
    assert.equal((await node.post('/payments', { payment_id: 'P3', order_id: 'D3', amount: 2 })).status, 202);
    assert.deepEqual(await linesOf(paid, 1), [
      line({ order_id: 'D3', payment_id: 'P3', channel: 'web', ordered: 2, paid: 2 }),
    ]);
    await until(() => node.logged('subscription ended').length === 1, 'the end to be logged');
  });
});

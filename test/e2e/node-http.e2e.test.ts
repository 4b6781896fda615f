// What an HTTP client of an embedded node sees (docs/http-ingestion.md, "Requests and statuses"): unknown
// paths and hosts are 404, other methods 405, the Host header is matched case-insensitively without its
// port, and a body over MAX BODY SIZE is 413 with the connection closed — while the node keeps serving,
// and every status is counted.
import assert from 'node:assert/strict';
import { line, linesOf, eachTestNode, type NodeHarness } from '../fixtures/node-harness.js';

const MIB = 1024 * 1024;

/** A JSON order of exactly `size` bytes (padded with blanks, which JSON allows). */
function orderOfSize(orderId: string, size: number): string {
  const text = JSON.stringify({ order_id: orderId, amount: 1 });
  return text.padEnd(size, ' ');
}

describe('node e2e: HTTP statuses and limits', () => {
  let node: NodeHarness;
  eachTestNode((started) => (node = started));

  const responses = (status: string, reason: string): Promise<number> =>
    node.metric('streamroute_http_responses_total', { listener: 'http', status, reason });

  it('answers 404 for unknown paths and hosts, 405 for GET, accepts Host LOCALHOST:8080, on one kept connection', async () => {
    const web = await node.subscribe('web-orders');
    const connection = await node.connect();
    const body = JSON.stringify({ order_id: 'H1', amount: 7 });

    assert.equal((await connection.request({ path: '/no/such/path', body })).status, 404);
    assert.equal(
      (await connection.request({ path: '/Web/orders', body })).status,
      404,
      'paths are case-sensitive',
    );
    assert.equal(
      (await connection.request({ host: 'shop.example.com', path: '/web/orders', body })).status,
      404,
    );
    const get = await connection.request({ method: 'GET', path: '/web/orders' });
    assert.equal(get.status, 405);
    assert.equal(get.headers.allow, 'POST');
    assert.equal(
      (await connection.request({ host: 'LOCALHOST:8080', path: '/web/orders', body })).status,
      202,
    );
    assert.equal(connection.closed, false, 'a 404 or 405 keeps the connection');

    assert.deepEqual(await linesOf(web, 1), [line({ order_id: 'H1', amount: 7, channel: 'web' })]);
    assert.equal(await responses('404', 'unknown_path'), 2);
    assert.equal(await responses('404', 'unknown_host'), 1);
    assert.equal(await responses('405', 'method_not_allowed'), 1);
    assert.equal(await responses('202', 'accepted'), 1);
    assert.equal(
      await node.metric('streamroute_payloads_total'),
      1,
      'only the accepted body reached an ingestor',
    );
  });

  it('accepts a body of exactly the default MAX BODY SIZE (1 MiB) and answers one byte more with 413, closing the connection', async () => {
    const web = await node.subscribe('web-orders');
    assert.equal((await node.post('/web/orders', orderOfSize('BIG', MIB))).status, 202);
    assert.deepEqual(await linesOf(web, 1), [line({ order_id: 'BIG', amount: 1, channel: 'web' })]);

    // Declared too large: refused from the Content-Length, before any of the body is sent.
    const connection = await node.connect();
    connection.write(`POST /web/orders HTTP/1.1\r\nHost: localhost\r\nContent-Length: ${MIB + 1}\r\n\r\n`);
    assert.equal((await connection.response()).status, 413);
    await connection.closedByPeer();

    assert.equal(await responses('413', 'body_too_large'), 1);
    assert.equal(
      await node.metric('streamroute_http_ingestor_requests_failed_total', {
        domain: 'default',
        kind: 'http-ingestor',
        name: 'web_in',
        reason: 'body_too_large',
      }),
      1,
    );
    // The node keeps serving.
    assert.equal((await node.post('/web/orders', { order_id: 'AFTER', amount: 2 })).status, 202);
    assert.deepEqual((await linesOf(web, 2)).slice(1), [
      line({ order_id: 'AFTER', amount: 2, channel: 'web' }),
    ]);
  });

  it("applies a statement-made ingestor's MAX BODY SIZE 64B, also to a chunked body", async () => {
    const run = await node.sql(`
      CREATE ENDPOINT tiny_ep ON local PATH '/tiny' TYPE HTTP;
      CREATE HTTP ENDPOINT INGESTOR tiny_in
        FROM tiny_ep MODE NO ACK ON QUIESCE BUFFER MAX SIZE 1KiB DECODE USING order_json MAX BODY SIZE 64B
        TO web_orders INHERIT ALL SET channel = 'tiny' UNBRANCHED FLUSH IMMEDIATE ON MESSAGE ERROR LOG
        ON GENERAL ERROR LOG;`);
    assert.equal(run.code, 0, run.stderr);
    const web = await node.subscribe('web-orders');

    assert.equal((await node.post('/tiny', orderOfSize('T64', 64))).status, 202);
    assert.equal((await node.post('/tiny', orderOfSize('T65', 65))).status, 413);
    const chunked = await node.send({
      path: '/tiny',
      headers: { 'Transfer-Encoding': 'chunked' },
      body: `20\r\n${'x'.repeat(32)}\r\n21\r\n${'x'.repeat(33)}\r\n0\r\n\r\n`,
    });
    assert.equal(chunked.status, 413);

    assert.deepEqual(await linesOf(web, 1), [line({ order_id: 'T64', amount: 1, channel: 'tiny' })]);
    assert.equal(
      await node.metric('streamroute_http_ingestor_requests_failed_total', {
        domain: 'default',
        kind: 'http-ingestor',
        name: 'tiny_in',
        reason: 'body_too_large',
      }),
      2,
    );
    assert.equal(await node.metric('streamroute_payloads_total', { name: 'tiny_in' }), 1);
  });
});

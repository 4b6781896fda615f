// HTTP ingestion over real sockets: request bodies — chunked, split, over the limit, aborted
// (docs/http-ingestion.md).
import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  recordingTarget,
  route,
  startIngestion,
  type RecordingTarget,
  type RunningIngestion,
} from '../../../test/fixtures/http-ingestion.js';
import {
  chunked,
  formatRequest,
  RawConnection,
  waitFor,
  sendOnce,
  type RawRequest,
} from '../../../test/support/raw-http.js';

describe('HTTP ingestion: bodies', () => {
  let orders: RecordingTarget;
  let node: RunningIngestion;

  beforeEach(async () => {
    orders = recordingTarget('shop/orders-in', 64);
    node = await startIngestion([route(orders, ['shop.example.com', 'localhost', '127.0.0.1'], '/orders')]);
  });
  afterEach(() => node.stop());

  const send = (request: RawRequest) => sendOnce(node.port, request);

  it('a chunked body is assembled from its chunks', async () => {
    const response = await send({
      host: 'localhost',
      path: '/orders',
      headers: { 'Transfer-Encoding': 'chunked' },
      body: chunked(['{"order_id":', '"A1",', '"amount":5}']),
    });
    assert.equal(response.status, 202);
    assert.equal(orders.received[0]?.body, '{"order_id":"A1","amount":5}');
  });

  it('a body split across many TCP writes is assembled', async () => {
    const connection = await RawConnection.connect(node.port);
    const body = 'abcdefghij'.repeat(6);
    connection.write(`POST /orders HTTP/1.1\r\nHost: localhost\r\nContent-Length: ${body.length}\r\n\r\n`);
    for (const piece of body.match(/.{1,7}/g)!) {
      connection.write(piece);
      await new Promise((resolve) => setImmediate(resolve));
    }
    assert.equal((await connection.response()).status, 202);
    assert.equal(orders.received[0]?.body, body);
    connection.destroy();
  });

  it('a request split at every offset arrives whole (Content-Length and chunked)', async () => {
    const body = '{"order_id":"A1","amount":5}';
    const requests = [
      formatRequest({ host: 'localhost', path: '/orders', body }),
      formatRequest({
        host: 'localhost',
        path: '/orders',
        headers: { 'Transfer-Encoding': 'chunked' },
        body: chunked(['{"order_id":', '"A1",', '"amount":5}']),
      }),
    ];
    for (const bytes of requests) {
      for (let at = 1; at < bytes.length; at++) {
        const connection = await RawConnection.connect(node.port);
        connection.write(bytes.subarray(0, at));
        await new Promise((resolve) => setImmediate(resolve));
        connection.write(bytes.subarray(at));
        assert.equal((await connection.response()).status, 202, `split at ${at}`);
        connection.destroy();
      }
    }
    assert.ok(orders.received.every((r) => r.body === body));
  });

  it('property: random bytes never stop the listener', async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 200 }), async (garbage) => {
        const connection = await RawConnection.connect(node.port);
        connection.write(garbage);
        connection.write('\r\n\r\n');
        await Promise.race([
          connection.response().catch(() => undefined),
          new Promise((r) => setTimeout(r, 20)),
        ]);
        connection.destroy();
      }),
      { numRuns: 50 },
    );
    assert.equal((await send({ host: 'localhost', path: '/orders', body: '{}' })).status, 202);
  });

  it('an empty POST body is delivered (the codec decides what it means)', async () => {
    assert.equal((await send({ host: 'localhost', path: '/orders' })).status, 202);
    assert.equal(orders.received[0]?.body, '');
  });

  describe('body limit (maxBodyBytes = 64)', () => {
    it('exactly at the limit is accepted, with Content-Length and chunked', async () => {
      const body = 'x'.repeat(64);
      assert.equal((await send({ host: 'localhost', path: '/orders', body })).status, 202);
      const viaChunks = await send({
        host: 'localhost',
        path: '/orders',
        headers: { 'Transfer-Encoding': 'chunked' },
        body: chunked(['x'.repeat(40), 'x'.repeat(24)]),
      });
      assert.equal(viaChunks.status, 202);
      assert.deepEqual(
        orders.received.map((r) => r.body.length),
        [64, 64],
      );
    });

    it('one byte over by Content-Length: 413 before reading, connection closed, nothing delivered', async () => {
      const connection = await RawConnection.connect(node.port);
      const response = await connection.request({ host: 'localhost', path: '/orders', body: 'x'.repeat(65) });
      assert.equal(response.status, 413);
      assert.equal(response.headers.connection, 'close');
      await connection.closedByPeer();
      assert.equal(orders.received.length, 0);
      assert.equal(node.telemetry.countsOf('shop/orders-in').tooLarge, 1);
    });

    it('one byte over in chunks: 413 at the chunk that crosses the limit, connection closed', async () => {
      const connection = await RawConnection.connect(node.port);
      connection.write('POST /orders HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\n\r\n');
      connection.write(chunked(['x'.repeat(40)]).slice(0, -5));
      await new Promise((resolve) => setTimeout(resolve, 20));
      connection.write('19\r\n' + 'x'.repeat(25) + '\r\n');
      const response = await connection.response();
      assert.equal(response.status, 413);
      await connection.closedByPeer();
      assert.equal(orders.received.length, 0);
    });

    it('a huge declared body is refused without waiting for it', async () => {
      const connection = await RawConnection.connect(node.port);
      connection.write('POST /orders HTTP/1.1\r\nHost: localhost\r\nContent-Length: 10000000000\r\n\r\n');
      assert.equal((await connection.response()).status, 413);
      await connection.closedByPeer();
    });

    it('Expect: 100-continue gets 100 then 202; an oversized one gets 413 and no 100', async () => {
      const ok = await RawConnection.connect(node.port);
      ok.write(
        'POST /orders HTTP/1.1\r\nHost: localhost\r\nContent-Length: 2\r\nExpect: 100-continue\r\n\r\n',
      );
      assert.equal((await ok.response()).status, 100);
      ok.write('{}');
      assert.equal((await ok.response()).status, 202);
      ok.destroy();
      const big = await RawConnection.connect(node.port);
      big.write(
        'POST /orders HTTP/1.1\r\nHost: localhost\r\nContent-Length: 65\r\nExpect: 100-continue\r\n\r\n',
      );
      assert.equal((await big.response()).status, 413);
      await big.closedByPeer();
    });
  });

  it('an upload aborted mid-body is dropped and counted; the listener keeps serving', async () => {
    const connection = await RawConnection.connect(node.port);
    connection.write('POST /orders HTTP/1.1\r\nHost: localhost\r\nContent-Length: 50\r\n\r\n{"order_id":');
    await new Promise((resolve) => setTimeout(resolve, 20));
    connection.destroy();
    await waitFor(() => node.telemetry.countsOf('shop/orders-in').aborted === 1);
    assert.equal(orders.received.length, 0);
    assert.equal((await send({ host: 'localhost', path: '/orders', body: '{}' })).status, 202);
  });
});

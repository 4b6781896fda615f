// HTTP ingestion over real sockets: statuses, host matching, connections (docs/http-ingestion.md). Bodies and
// limits are in bodies.test.ts.
import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import type { Socket } from 'node:net';
import {
  recordingTarget,
  route,
  startIngestion,
  type RecordingTarget,
  type RunningIngestion,
} from '../../../test/fixtures/http-ingestion.js';
import { chunked, RawConnection, sendOnce, type RawRequest } from '../../../test/support/raw-http.js';
import { remoteAddr } from './ingest-handler.js';

describe('HTTP ingestion: statuses and routing', () => {
  let orders: RecordingTarget;
  let node: RunningIngestion;

  beforeEach(async () => {
    orders = recordingTarget('shop/orders-in', 64);
    node = await startIngestion([route(orders, ['shop.example.com', 'localhost', '127.0.0.1'], '/orders')]);
  });
  afterEach(() => node.stop());

  const send = (request: RawRequest) => sendOnce(node.port, request);

  it('202 with an empty body for a POST to a known endpoint; the body and metadata reach the target', async () => {
    const response = await send({
      host: 'shop.example.com',
      path: '/orders',
      headers: { 'Content-Type': 'application/json' },
      body: '{"order_id":"A1","amount":5}',
    });
    assert.equal(response.status, 202);
    assert.equal(response.body, '');
    assert.equal(response.headers['content-length'], '0');
    assert.equal(orders.received.length, 1);
    const [received] = orders.received;
    assert.equal(received!.body, '{"order_id":"A1","amount":5}');
    assert.equal(received!.metadata.host, 'shop.example.com');
    assert.equal(received!.metadata.path, '/orders');
    assert.equal(received!.metadata.content_type, 'application/json');
    assert.match(received!.metadata.remote_addr ?? '', /^127\.0\.0\.1:\d+$/);
  });

  it('Content-Type is not checked: absent is null, anything else is passed on', async () => {
    assert.equal((await send({ host: 'localhost', path: '/orders', body: '{}' })).status, 202);
    const odd = await send({
      host: 'localhost',
      path: '/orders',
      headers: { 'Content-Type': 'text/x-odd' },
      body: 'x',
    });
    assert.equal(odd.status, 202);
    assert.deepEqual(
      orders.received.map((r) => r.metadata.content_type),
      [null, 'text/x-odd'],
    );
  });

  const hosts: [string, string][] = [
    ['SHOP.Example.Com', 'shop.example.com'],
    ['shop.example.com:8080', 'shop.example.com'],
    ['Shop.Example.com:', 'shop.example.com'],
    ['shop.example.com.', 'shop.example.com'],
    ['LOCALHOST:1', 'localhost'],
    ['127.0.0.1:8080', '127.0.0.1'],
  ];
  for (const [sent, matched] of hosts) {
    it(`Host ${JSON.stringify(sent)} matches ${matched}`, async () => {
      assert.equal((await send({ host: sent, path: '/orders', body: '{}' })).status, 202);
      assert.equal(orders.received[0]?.metadata.host, matched);
    });
  }

  const notFound: [string, string | null, string][] = [
    ['unknown host', 'other.example.com', '/orders'],
    ['host that is a suffix', 'example.com', '/orders'],
    ['IPv6 Host with a port', '[::1]:8080', '/orders'],
    ['bare IPv6 Host', '::1', '/orders'],
    ['malformed port', 'shop.example.com:80x', '/orders'],
    ['unknown path', 'shop.example.com', '/payments'],
    ['path with a trailing slash', 'shop.example.com', '/orders/'],
    ['path in another case', 'shop.example.com', '/Orders'],
    ['percent-encoded path', 'shop.example.com', '/%6Frders'],
    ['HTTP/1.0 without Host', null, '/orders'],
  ];
  for (const [title, host, path] of notFound) {
    it(`404: ${title}`, async () => {
      const response = await send({ host, path, body: '{}', version: host === null ? '1.0' : '1.1' });
      assert.equal(response.status, 404);
      assert.equal(orders.received.length, 0);
    });
  }

  it('the query string is ignored when matching and not part of metadata.path', async () => {
    assert.equal((await send({ host: 'localhost', path: '/orders?source=test', body: '{}' })).status, 202);
    assert.equal(orders.received[0]?.metadata.path, '/orders');
  });

  it('absolute-form request target: its authority wins over the Host header', async () => {
    const response = await send({
      host: 'other.example.com',
      path: 'http://Shop.Example.com:9/orders',
      body: '{}',
    });
    assert.equal(response.status, 202);
    assert.equal(orders.received[0]?.metadata.host, 'shop.example.com');
  });

  for (const method of ['GET', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD']) {
    it(`405 with Allow: POST for ${method} on a known endpoint`, async () => {
      const response = await send({ method, host: 'localhost', path: '/orders' });
      assert.equal(response.status, 405);
      assert.equal(response.headers.allow, 'POST');
      assert.equal(orders.received.length, 0);
    });
  }

  it('an unknown endpoint is 404 whatever the method', async () => {
    assert.equal((await send({ method: 'GET', host: 'localhost', path: '/nope' })).status, 404);
  });

  it('a rejected request keeps the connection unless its unread body is over 64 KiB or chunked', async () => {
    const connection = await RawConnection.connect(node.port);
    const get = await connection.request({ method: 'GET', host: 'localhost', path: '/orders' });
    assert.equal(get.status, 405);
    assert.equal(get.headers.connection, 'keep-alive');
    const small = await connection.request({ host: 'nowhere', path: '/orders', body: 'x'.repeat(65_536) });
    assert.equal(small.status, 404);
    assert.equal(small.headers.connection, 'keep-alive');
    assert.equal((await connection.request({ host: 'localhost', path: '/orders', body: '{}' })).status, 202);
    const large = await connection.request({ host: 'nowhere', path: '/orders', body: 'x'.repeat(65_537) });
    assert.equal(large.status, 404);
    assert.equal(large.headers.connection, 'close');
    await connection.closedByPeer();

    const viaChunks = await RawConnection.connect(node.port);
    const headers = { 'Transfer-Encoding': 'chunked' };
    const rejected = await viaChunks.request({
      host: 'nowhere',
      path: '/orders',
      headers,
      body: chunked(['x']),
    });
    assert.equal(rejected.headers.connection, 'close');
    await viaChunks.closedByPeer();
  });

  it('HTTP/1.1 without Host is 400 (RFC 9112 §3.2)', async () => {
    assert.equal((await send({ host: null, path: '/orders', body: '{}' })).status, 400);
  });

  it('malformed requests get 400 and oversized headers 431; both are counted and the listener keeps serving', async () => {
    const bad = await RawConnection.connect(node.port);
    bad.write('POST /orders HTTP/1.1\r\nHost: localhost\r\nContent-Length: abc\r\n\r\n');
    assert.equal((await bad.response()).status, 400);
    const big = await RawConnection.connect(node.port);
    big.write(`POST /orders HTTP/1.1\r\nHost: localhost\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
    assert.equal((await big.response()).status, 431);
    assert.equal(node.telemetry.clientErrors.get('http HPE_HEADER_OVERFLOW'), 1);
    assert.equal((await send({ host: 'localhost', path: '/orders', body: '{}' })).status, 202);
  });

  it('a target that throws gets 500; the listener keeps serving', async () => {
    const broken = {
      name: 'shop/broken',
      maxBodyBytes: 10,
      deliver: () => {
        throw new Error('bug');
      },
    };
    node.ingestion.setRoutes([
      route(broken, ['localhost'], '/broken'),
      route(orders, ['localhost'], '/orders'),
    ]);
    assert.equal((await send({ host: 'localhost', path: '/broken', body: '{}' })).status, 500);
    assert.equal((await send({ host: 'localhost', path: '/orders', body: '{}' })).status, 202);
    assert.equal(node.telemetry.countsOf('shop/broken').deliverFailed, 1);
  });

  it('a TLS vhost is not served on the plain listener', async () => {
    const secure = recordingTarget('shop/secure');
    node.ingestion.setRoutes([
      route(secure, ['pay.example.com'], '/pay', { secretName: 'pay-tls' }),
      route(orders, ['localhost'], '/orders'),
    ]);
    assert.equal((await send({ host: 'pay.example.com', path: '/pay', body: '{}' })).status, 404);
  });

  it('many concurrent clients, each with several keep-alive requests, are all accepted', async () => {
    const clients = 100;
    const perClient = 5;
    await Promise.all(
      Array.from({ length: clients }, async (_, c) => {
        const connection = await RawConnection.connect(node.port);
        for (let i = 0; i < perClient; i++) {
          const response = await connection.request({
            host: 'localhost',
            path: '/orders',
            body: `{"c":${c},"i":${i}}`,
          });
          assert.equal(response.status, 202);
        }
        connection.destroy();
      }),
    );
    assert.equal(orders.received.length, clients * perClient);
    assert.equal(node.telemetry.countsOf('shop/orders-in').accepted, clients * perClient);
    for (let c = 0; c < clients; c++) {
      const mine = orders.received
        .map((r) => JSON.parse(r.body) as { c: number; i: number })
        .filter((body) => body.c === c)
        .map((body) => body.i);
      assert.deepEqual(mine, [0, 1, 2, 3, 4], `client ${c} in order`);
    }
  });

  it('works with node:http as the client (keep-alive agent)', async () => {
    const status = await new Promise<number | undefined>((resolve, reject) => {
      const req = httpRequest(
        {
          port: node.port,
          host: '127.0.0.1',
          method: 'POST',
          path: '/orders',
          headers: { Host: 'localhost' },
        },
        (res) => {
          res.resume();
          resolve(res.statusCode);
        },
      );
      req.on('error', reject);
      req.end('{}');
    });
    assert.equal(status, 202);
  });
});

describe('HTTP ingestion: IPv6 listener', () => {
  it('serves on ::1 and reports remote_addr as [ip]:port', async () => {
    const target = recordingTarget('d/v6');
    const node = await startIngestion([route(target, ['localhost'], '/in')], {
      httpAddress: { host: '::1', port: 0 },
    });
    try {
      const connection = await RawConnection.connect(node.port, '::1');
      assert.equal((await connection.request({ host: 'localhost', path: '/in', body: '{}' })).status, 202);
      assert.equal((await connection.request({ host: '[::1]:8080', path: '/in', body: '{}' })).status, 404);
      assert.match(target.received[0]?.metadata.remote_addr ?? '', /^\[::1\]:\d+$/);
      connection.destroy();
    } finally {
      await node.stop();
    }
  });
});

describe('remoteAddr', () => {
  const cases: [string | undefined, number | undefined, string | null][] = [
    ['10.1.2.3', 5000, '10.1.2.3:5000'],
    ['::1', 5000, '[::1]:5000'],
    ['::ffff:10.1.2.3', 5000, '10.1.2.3:5000'],
    [undefined, undefined, null],
  ];
  for (const [ip, port, expected] of cases) {
    it(`${String(ip)} → ${String(expected)}`, () => {
      assert.equal(remoteAddr({ remoteAddress: ip, remotePort: port } as Socket), expected);
    });
  }
  it('null without a socket', () => assert.equal(remoteAddr(null), null));
});

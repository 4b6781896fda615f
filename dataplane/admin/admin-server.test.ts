import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { fetchAdmin, startAdmin } from '../../test/fixtures/admin-client.js';
import type { ComponentDescription } from '../core/status.js';
import { AdminServer, DEFAULT_ADMIN_LISTEN_ADDR } from './admin-server.js';
import { ManualClock } from '../core/clock.js';
import { TestAdminBackend } from '../../test/fixtures/admin-backend.js';
import { sendOnce } from '../../test/support/raw-http.js';

type Started = Awaited<ReturnType<typeof startAdmin>>;

const errorOf = (body: string): { code: string; message: string } =>
  (JSON.parse(body) as { error: { code: string; message: string } }).error;

describe('AdminServer', () => {
  let admin: Started | undefined;
  afterEach(async () => {
    await admin?.server.stop(0);
    admin = undefined;
  });

  it('listens on 127.0.0.1:8081 unless told otherwise', () => {
    assert.equal(DEFAULT_ADMIN_LISTEN_ADDR, '127.0.0.1:8081');
  });

  it('GET /healthz answers 200 ok', async () => {
    admin = await startAdmin();
    const answer = await fetchAdmin(admin.port, '/healthz');
    assert.equal(answer.status, 200);
    assert.equal(answer.body, 'ok\n');
    assert.match(answer.headers['content-type'] ?? '', /^text\/plain/);
  });

  it('GET /readyz answers 503 while a check fails and 200 when all pass, with the checks', async () => {
    admin = await startAdmin();
    admin.backend.checks = [
      { name: 'graph', ok: true, detail: 'domain shop runs graph version 3' },
      { name: 'listeners', ok: false, detail: 'http 0.0.0.0:8080 is Retrying (EADDRINUSE)' },
    ];
    const waiting = await fetchAdmin(admin.port, '/readyz');
    assert.equal(waiting.status, 503);
    assert.deepEqual(JSON.parse(waiting.body), { ready: false, checks: admin.backend.checks });
    admin.backend.checks = [{ name: 'graph', ok: true, detail: 'domain shop runs graph version 3' }];
    const ready = await fetchAdmin(admin.port, '/readyz');
    assert.equal(ready.status, 200);
    assert.deepEqual(JSON.parse(ready.body), { ready: true, checks: admin.backend.checks });
    assert.equal(ready.headers['content-type'], 'application/json; charset=utf-8');
  });

  it('GET /metrics answers the registry in the Prometheus text format, per-component counters included', async () => {
    admin = await startAdmin();
    const orders = admin.backend.addRelay('orders');
    for (let id = 0; id < 3; id++) orders.publish({ id });
    const answer = await fetchAdmin(admin.port, '/metrics');
    assert.equal(answer.status, 200);
    assert.equal(answer.headers['content-type'], admin.backend.registry.contentType);
    assert.match(answer.body, /^# TYPE streamroute_records_in_total counter$/m);
    assert.match(
      answer.body,
      /^streamroute_records_in_total\{domain="shop",kind="relay",name="orders"\} 3$/m,
    );
  });

  it('GET /v1/domains/{domain}/ingestors|emitters/{name} answers the description, or 404', async () => {
    admin = await startAdmin();
    const description: ComponentDescription = {
      domain: 'shop',
      kind: 'http-ingestor',
      name: 'orders-in',
      graphVersion: 3,
      state: 'Retrying',
      transientError: { code: 'EADDRINUSE', message: 'address in use', since: '2026-11-22T03:08:00Z' },
      backoffMs: 2000,
      metrics: { payloads: 10, records_out: 9, message_errors: 1 },
      details: { listener: '0.0.0.0:8080' },
    };
    admin.backend.descriptions.set('shop/ingestor/orders-in', description);
    const found = await fetchAdmin(admin.port, '/v1/domains/shop/ingestors/orders-in');
    assert.equal(found.status, 200);
    assert.deepEqual(JSON.parse(found.body), description);
    const missing = await fetchAdmin(admin.port, '/v1/domains/shop/emitters/orders-in');
    assert.equal(missing.status, 404);
    assert.deepEqual(errorOf(missing.body), {
      code: 'unknown_component',
      message: 'domain shop has no emitter orders-in on this node',
    });
  });

  const errors: [string, string, number, string, RegExp][] = [
    [
      'GET',
      '/v1/domains/shop/relays/nope/subscriptions/audit',
      404,
      'unknown_relay',
      /^domain shop has no relay nope$/,
    ],
    ['GET', '/v1/domains/other/relays/orders/subscriptions/audit', 404, 'unknown_domain', /^domain other /],
    [
      'GET',
      '/v1/domains/shop/relays/Orders/subscriptions/audit',
      400,
      'invalid_name',
      /^relay name "Orders"/,
    ],
    [
      'GET',
      '/v1/domains/shop/relays/orders/subscriptions/-x',
      400,
      'invalid_name',
      /^subscription name "-x"/,
    ],
    ['GET', '/v1/domains/shop/relays/orders/subscriptions/a?buffer=0', 400, 'invalid_buffer', /^buffer "0"/],
    ['GET', '/v1/domains/shop/relays/orders/subscriptions/a?buffer=x', 400, 'invalid_buffer', /^buffer "x"/],
    ['GET', '/v1/domains/shop/ingestors/%ZZ', 400, 'invalid_path', /percent-encoding/],
    ['GET', '/nothing-here', 404, 'not_found', /^no route for GET \/nothing-here$/],
    ['POST', '/healthz', 405, 'method_not_allowed', /^method POST is not allowed here: expected GET$/],
    ['DELETE', '/v1/domains/shop/relays/orders/subscriptions/a', 405, 'method_not_allowed', /DELETE/],
    ['HEAD', '/metrics', 405, 'method_not_allowed', /HEAD/],
  ];
  for (const [method, path, status, code, message] of errors) {
    it(`${method} ${path} → ${status} ${code}`, async () => {
      admin = await startAdmin();
      admin.backend.addRelay('orders');
      const answer = await fetchAdmin(admin.port, path, method);
      assert.equal(answer.status, status);
      if (method === 'HEAD') return assert.equal(answer.headers.allow, 'GET');
      assert.equal(answer.headers['content-type'], 'application/json; charset=utf-8');
      const error = errorOf(answer.body);
      assert.equal(error.code, code);
      assert.match(error.message, message);
      if (status === 405) assert.equal(answer.headers.allow, 'GET');
    });
  }

  it('serves a request target in absolute form by its path, and answers 400 to one that is not a path', async () => {
    admin = await startAdmin();
    const absolute = await sendOnce(admin.port, {
      method: 'GET',
      path: 'http://127.0.0.1:8081/healthz',
    });
    assert.equal(absolute.status, 200);
    assert.equal(absolute.body, 'ok\n');
    const asterisk = await sendOnce(admin.port, { method: 'OPTIONS', path: '*' });
    assert.equal(asterisk.status, 400);
    assert.equal(errorOf(asterisk.body).code, 'invalid_path');
  });

  describe('regression: DNS rebinding against the admin API', () => {
    const secretRelay = async (options: Parameters<typeof startAdmin>[0] = {}) => {
      admin = await startAdmin(options);
      admin.backend.addRelay('orders');
      return admin;
    };

    it('refuses a request whose Host is a name of someone else’s (a rebound page), on every route', async () => {
      let controlCalls = 0;
      const started = await secretRelay({
        control: () => {
          controlCalls++;
          return false;
        },
      });
      for (const [method, path] of [
        ['GET', '/v1/domains/shop/relays/orders/subscriptions/stolen'],
        ['GET', '/v1/domains/shop/ingestors/orders-in'],
        ['GET', '/metrics'],
        ['GET', '/readyz'],
        ['POST', '/v1/domains/shop/statements'],
      ] as const) {
        const answer = await sendOnce(started.port, { method, path, host: `evil.example:${started.port}` });
        assert.equal(answer.status, 421, `${method} ${path}`);
        assert.equal(answer.headers['content-type'], 'application/json; charset=utf-8');
        assert.equal(errorOf(answer.body).code, 'host_not_allowed');
      }
      assert.equal(controlCalls, 0, 'the control hook never saw them');
      assert.equal(started.server.subscriptions.groupCount, 0, 'nothing subscribed');
      const absolute = await sendOnce(started.port, { method: 'GET', path: 'http://evil.example/readyz' });
      assert.equal(absolute.status, 421);
    });

    it('serves localhost, IP addresses and the allowed hosts', async () => {
      const started = await secretRelay({ allowedHosts: ['node-7.cluster.internal'] });
      for (const host of [
        'localhost',
        `localhost:${started.port}`,
        `127.0.0.1:${started.port}`,
        '[::1]',
        'node-7.cluster.internal',
      ]) {
        const answer = await sendOnce(started.port, { method: 'GET', path: '/healthz', host });
        assert.equal(answer.status, 200, host);
      }
    });
  });

  it('offers every request no route matched to the control hook; false is 404', async () => {
    const seen: string[] = [];
    admin = await startAdmin({
      control: (request, response, url) => {
        seen.push(`${request.method} ${url.pathname} ${url.searchParams.get('dry') ?? ''}`);
        if (url.pathname !== '/v1/domains/shop/statements') return false;
        response.writeHead(200, { 'Content-Type': 'text/plain' }).end('done\n');
        return true;
      },
    });
    const taken = await fetchAdmin(admin.port, '/v1/domains/shop/statements?dry=1', 'POST');
    assert.equal(taken.status, 200);
    assert.equal(taken.body, 'done\n');
    const declined = await fetchAdmin(admin.port, '/v1/other');
    assert.equal(declined.status, 404);
    assert.equal(errorOf(declined.body).code, 'not_found');
    // Built-in routes never reach the hook, not even with a method they refuse.
    await fetchAdmin(admin.port, '/healthz', 'POST');
    assert.deepEqual(seen, ['POST /v1/domains/shop/statements 1', 'GET /v1/other ']);
  });

  it('answers 500 when the control hook throws or rejects, logs the error name only, and keeps serving', async () => {
    let calls = 0;
    admin = await startAdmin({
      control: () => {
        calls++;
        if (calls === 1) throw new TypeError('statement mentions SECRET-VALUE');
        return Promise.reject(new RangeError('SECRET-VALUE again'));
      },
    });
    for (const expected of ['TypeError', 'RangeError']) {
      const answer = await fetchAdmin(admin.port, '/v1/domains/shop/statements', 'POST');
      assert.equal(answer.status, 500);
      assert.equal(errorOf(answer.body).code, 'internal_error');
      assert.equal(admin.backend.logs.at(-1)?.error, expected);
    }
    assert.doesNotMatch(JSON.stringify(admin.backend.logs), /SECRET-VALUE/);
    assert.equal((await fetchAdmin(admin.port, '/healthz')).status, 200);
  });

  it('answers 500 when the backend fails a route, and keeps serving', async () => {
    admin = await startAdmin();
    admin.backend.readiness = () => {
      throw new Error('boom');
    };
    const answer = await fetchAdmin(admin.port, '/readyz');
    assert.equal(answer.status, 500);
    assert.equal(admin.backend.logs.at(-1)?.route, 'readyz');
    assert.equal((await fetchAdmin(admin.port, '/healthz')).status, 200);
  });

  it('is Retrying with the error when the port is in use, and binds once it is free', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const address = blocker.address();
    assert.ok(address !== null && typeof address === 'object');
    const backend = new TestAdminBackend();
    const clock = new ManualClock();
    const server = new AdminServer({
      address: { host: '127.0.0.1', port: address.port },
      backend,
      logger: backend.logger,
      clock,
      retry: { initialMs: 100, maxMs: 1_000 },
    });
    admin = { server, backend, clock, port: address.port };
    const status = await server.start();
    assert.equal(status.state, 'Retrying');
    assert.equal(status.error?.code, 'EADDRINUSE');
    assert.equal(status.backoffMs, 100);
    assert.ok(
      backend.logs.some((line) => line.event === 'admin_listen_failed' && line.code === 'EADDRINUSE'),
    );
    await new Promise<void>((resolve) => blocker.close(() => resolve()));
    clock.advance(100);
    const until = Date.now() + 2_000;
    while (server.status.state !== 'Running' && Date.now() < until)
      await new Promise((r) => setTimeout(r, 5));
    assert.equal(server.status.state, 'Running');
    assert.equal((await fetchAdmin(address.port, '/healthz')).status, 200);
  });
});

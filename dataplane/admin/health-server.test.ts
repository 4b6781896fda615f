import assert from 'node:assert/strict';
import { Counter, Registry } from 'prom-client';
import { startHealthServer } from './health-server.js';

async function get(
  port: number,
  path: string,
): Promise<{ status: number; body: string; type: string | null }> {
  const response = await fetch(`http://127.0.0.1:${port}${path}`);
  return { status: response.status, body: await response.text(), type: response.headers.get('content-type') };
}

describe('health server', () => {
  it('answers /healthz always, /readyz once ready, and /metrics in the Prometheus format', async () => {
    let ready = false;
    const registry = new Registry();
    new Counter({ name: 'test_things_total', help: 'Things.', registers: [registry] }).inc(3);
    const server = await startHealthServer({
      address: { host: '127.0.0.1', port: 0 },
      ready: () => ready,
      registry,
    });
    try {
      assert.equal((await get(server.port, '/healthz')).status, 200);
      assert.equal((await get(server.port, '/readyz')).status, 503);
      ready = true;
      assert.equal((await get(server.port, '/readyz')).status, 200);
      const metrics = await get(server.port, '/metrics');
      assert.equal(metrics.status, 200);
      assert.match(metrics.body, /^test_things_total 3$/m);
      assert.match(metrics.type ?? '', /^text\/plain; version=0\.0\.4/);
      assert.equal((await get(server.port, '/nope')).status, 404);
    } finally {
      await server.close();
    }
  });

  it("answers /readyz with a JSON report when readiness gives one (the data plane's checks)", async () => {
    let checks = [{ name: 'http-listener', ok: false }];
    const server = await startHealthServer({
      address: { host: '127.0.0.1', port: 0 },
      ready: () => ({ ready: checks.every((c) => c.ok), body: { ready: checks.every((c) => c.ok), checks } }),
      registry: new Registry(),
    });
    try {
      const notReady = await get(server.port, '/readyz');
      assert.equal(notReady.status, 503);
      assert.match(notReady.type ?? '', /^application\/json/);
      assert.deepEqual(JSON.parse(notReady.body), { ready: false, checks });
      checks = [{ name: 'http-listener', ok: true }];
      assert.equal((await get(server.port, '/readyz')).status, 200);
      // No record-carrying route: subscriptions and describe are the admin API's alone.
      assert.equal((await get(server.port, '/v1/domains/shop/relays/orders/subscriptions/a')).status, 404);
      assert.equal((await get(server.port, '/v1/domains/shop/ingestors/web-in')).status, 404);
    } finally {
      await server.close();
    }
  });
});

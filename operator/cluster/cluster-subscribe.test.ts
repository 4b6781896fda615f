import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fakeApiServer } from '../../test/support/fake-port-forward.js';
import { floodingAdmin } from '../../test/support/flooding-admin.js';
import type { Cluster } from './cluster-target.js';
import { runClusterSubscribe, subscriptionPath } from './cluster-subscribe.js';

const running = (name: string) => ({
  metadata: { name },
  spec: { containers: [{ ports: [{ name: 'admin', containerPort: 8081 }] }] },
  status: { phase: 'Running' },
});

describe('cluster subscribe', () => {
  it('builds the admin path of a subscription, with the buffer', () => {
    const cluster = { namespace: 'shop' } as Cluster;
    const base = { cluster, operatorNamespace: 'x', relay: 'orders', subscription: 'audit' };
    const signal = new AbortController().signal;
    assert.equal(subscriptionPath({ ...base, signal }), '/v1/domains/shop/relays/orders/subscriptions/audit');
    assert.equal(
      subscriptionPath({ ...base, signal, buffer: 50 }),
      '/v1/domains/shop/relays/orders/subscriptions/audit?buffer=50',
    );
  });

  it("merges every running pod's NDJSON, line by line, through port-forwards", async () => {
    const admin = createServer((request, response) => {
      response.writeHead(200, { 'content-type': 'application/x-ndjson' });
      response.write('{"order_id":"a","amount":9007199254740993}\n{"order_id"');
      setTimeout(() => response.write(':"b","amount":1}\n'), 50);
    });
    await new Promise<void>((resolve) => admin.listen(0, '127.0.0.1', resolve));
    const api = await fakeApiServer({ upstream: (admin.address() as AddressInfo).port });
    const cluster = {
      namespace: 'shop',
      options: {},
      api: { request: () => Promise.resolve({ items: [running('dp-1'), running('dp-2')] }) },
    } as unknown as Cluster;
    const out: string[] = [];
    const err: string[] = [];
    const controller = new AbortController();
    try {
      const done = runClusterSubscribe(
        {
          cluster,
          operatorNamespace: 'streamroute-system',
          relay: 'orders',
          subscription: 'merged',
          signal: controller.signal,
          forward: { connection: { server: api.url, authorize: () => undefined } },
        },
        { out: (line) => out.push(line), err: (line) => err.push(line) },
      );
      const deadline = Date.now() + 5_000;
      while (out.length < 4 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
      controller.abort();
      admin.closeAllConnections();
      assert.equal(await done, 0);
      assert.deepEqual(out.sort(), [
        '{"order_id":"a","amount":9007199254740993}',
        '{"order_id":"a","amount":9007199254740993}',
        '{"order_id":"b","amount":1}',
        '{"order_id":"b","amount":1}',
      ]);
      assert.deepEqual(api.requests.map((request) => request.url).sort(), [
        '/api/v1/namespaces/streamroute-system/pods/dp-1/portforward?ports=8081',
        '/api/v1/namespaces/streamroute-system/pods/dp-2/portforward?ports=8081',
      ]);
    } finally {
      controller.abort();
      await api.close();
      admin.close();
    }
  });

  it('holds the pods’ streams back while its output is full, instead of holding their bytes', async () => {
    const flood = floodingAdmin();
    const admin = flood.server;
    await new Promise<void>((resolve) => admin.listen(0, '127.0.0.1', resolve));
    const api = await fakeApiServer({ upstream: (admin.address() as AddressInfo).port });
    const cluster = {
      namespace: 'shop',
      options: {},
      api: { request: () => Promise.resolve({ items: [running('dp-1')] }) },
    } as unknown as Cluster;
    const controller = new AbortController();
    let lines = 0;
    let release: () => void = () => undefined;
    // an output that took one chunk and is full until released (a pipe nobody reads)
    const full = new Promise<void>((resolve) => (release = resolve));
    try {
      const done = runClusterSubscribe(
        {
          cluster,
          operatorNamespace: 'streamroute-system',
          relay: 'orders',
          subscription: 'slow',
          signal: controller.signal,
          drained: () => full,
          forward: { connection: { server: api.url, authorize: () => undefined } },
        },
        { out: () => (lines += 1), err: () => undefined },
      );
      await new Promise((resolve) => setTimeout(resolve, 1500));
      assert.ok(lines > 0, 'the first chunk came through');
      assert.ok(flood.blocked(), 'the pod’s stream was held back');
      assert.ok(
        flood.written() < 64 * 1024 * 1024,
        `the pod wrote ${flood.written()} bytes to an output that took one chunk`,
      );
      release();
      controller.abort();
      admin.closeAllConnections();
      assert.equal(await done, 0);
    } finally {
      controller.abort();
      await api.close();
      admin.close();
    }
  });
});

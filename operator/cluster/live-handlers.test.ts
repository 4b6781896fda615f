import assert from 'node:assert/strict';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { fakeApiServer } from '../../test/support/fake-port-forward.js';
import { floodingAdmin } from '../../test/support/flooding-admin.js';
import type { KubeApi } from '../../dataplane/kube-client/kube-api.js';
import { Registry } from 'prom-client';
import { readCounter } from '../../dataplane/core/telemetry.js';
import { waitFor } from '../../test/support/raw-http.js';
import { LiveMetrics } from '../access/live-metrics.js';
import { liveHandlers, WARNING_KEY } from './live-handlers.js';

const running = (name: string) => ({
  metadata: { name },
  spec: { containers: [{ ports: [{ name: 'admin', containerPort: 8081 }] }] },
  status: { phase: 'Running' },
});

const listen = async (server: Server): Promise<number> => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
};

/** The operator's side: a plain HTTP server whose one route is the relay-log handler. */
async function operatorWith(adminPort: number, pods: string[], metrics?: LiveMetrics) {
  const portForward = await fakeApiServer({ upstream: adminPort });
  const api = { request: () => Promise.resolve({ items: pods.map(running) }) } as unknown as KubeApi;
  const handlers = liveHandlers({
    api,
    clusterOptions: {},
    operatorNamespace: 'streamroute-system',
    logger: pino({ level: 'silent' }),
    forward: { connection: { server: portForward.url, authorize: () => undefined } },
    ...(metrics === undefined ? {} : { metrics }),
  });
  const operator = createServer((incoming, response) => {
    const aborted = new AbortController();
    response.on('close', () => aborted.abort());
    const query = new URL(incoming.url ?? '/', 'http://x').searchParams;
    const caller = { user: 'alice', groups: [], extra: {} };
    void handlers.relayLog(
      { caller, namespace: 'shop', relay: 'orders', query, signal: aborted.signal },
      response,
    );
  });
  const port = await listen(operator);
  return {
    port,
    portForward,
    close: async () => {
      operator.closeAllConnections();
      operator.close();
      await portForward.close();
    },
  };
}

describe('the live API’s handlers: a relay merged from every data-plane pod', () => {
  it('streams each pod’s records as whole lines', async () => {
    const admin = createServer((incoming, response) => {
      response.writeHead(200, { 'content-type': 'application/x-ndjson' });
      response.write('{"order_id":"a"}\n{"order_');
      setTimeout(() => response.write('id":"b"}\n'), 30);
    });
    const operator = await operatorWith(await listen(admin), ['dp-1', 'dp-2']);
    try {
      const lines = await new Promise<string[]>((resolve, reject) => {
        const got: string[] = [];
        let pending = '';
        const req = request({ port: operator.port, path: '/?subscription=team-a' }, (response) => {
          response.setEncoding('utf8');
          response.on('data', (chunk: string) => {
            const parts = (pending + chunk).split('\n');
            pending = parts.pop() ?? '';
            got.push(...parts);
            if (got.length >= 4) {
              req.destroy();
              resolve(got);
            }
          });
        });
        req.on('error', (error) => (got.length >= 4 ? undefined : reject(error)));
        req.end();
      });
      assert.deepEqual(lines.sort(), [
        '{"order_id":"a"}',
        '{"order_id":"a"}',
        '{"order_id":"b"}',
        '{"order_id":"b"}',
      ]);
      assert.ok(operator.portForward.requests.every((r) => r.url?.includes('/portforward?ports=8081')));
    } finally {
      admin.closeAllConnections();
      admin.close();
      await operator.close();
    }
  });

  it('tells the reader about a pod that refuses, on a line no record can be', async () => {
    const admin = createServer((_incoming, response) => {
      response.writeHead(404, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ error: { message: 'no relay orders in domain shop' } }));
    });
    const registry = new Registry();
    const operator = await operatorWith(await listen(admin), ['dp-1'], new LiveMetrics(registry));
    try {
      const first = await new Promise<string>((resolve, reject) => {
        const req = request({ port: operator.port, path: '/' }, (response) => {
          response.setEncoding('utf8');
          response.once('data', (chunk: string) => {
            req.destroy();
            resolve(chunk.split('\n')[0] ?? '');
          });
        });
        req.on('error', reject);
        req.end();
      });
      assert.deepEqual(JSON.parse(first), {
        [WARNING_KEY]: 'pod dp-1: HTTP 404: no relay orders in domain shop',
      });
      assert.ok(!/^[A-Za-z_][A-Za-z0-9_]*$/.test(WARNING_KEY), 'a record field is an identifier');
      // the start and the end (the reader left) are counted per domain
      const labels = { domain: 'shop' };
      assert.equal(await readCounter(registry, 'streamroute_live_subscriptions_started_total', labels), 1);
      await waitFor(
        async () =>
          (await readCounter(registry, 'streamroute_live_subscriptions_ended_total', {
            ...labels,
            reason: 'client',
          })) === 1,
      );
      assert.equal(await readCounter(registry, 'streamroute_live_subscriptions', labels), 0);
    } finally {
      admin.close();
      await operator.close();
    }
  });

  it('holds the pods’ streams while the reader is slow, instead of buffering them in the operator', async () => {
    const flood = floodingAdmin();
    const admin = flood.server;
    const operator = await operatorWith(await listen(admin), ['dp-1']);
    try {
      // a client that reads its response head and then nothing
      const req = request({ port: operator.port, path: '/' }, (response) => response.pause());
      req.end();
      await new Promise((resolve) => setTimeout(resolve, 1500));
      assert.ok(flood.blocked(), 'the pod’s admin stream was held back');
      // what the pod wrote is in socket buffers and the port-forward, not piling up: tens of MiB at most
      assert.ok(
        flood.written() < 64 * 1024 * 1024,
        `the pod wrote ${flood.written()} bytes to a reader that reads nothing`,
      );
      const heap = process.memoryUsage().heapUsed;
      await new Promise((resolve) => setTimeout(resolve, 1000));
      assert.ok(process.memoryUsage().heapUsed - heap < 32 * 1024 * 1024, 'the heap keeps growing');
      req.destroy();
    } finally {
      admin.closeAllConnections();
      admin.close();
      await operator.close();
    }
  });
});

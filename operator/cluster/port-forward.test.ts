import assert from 'node:assert/strict';
import { createServer as createHttpServer, get } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fakeApiServer } from '../../test/support/fake-port-forward.js';
import { dataFrame, FrameReader, forwardPort, portForwardUrl } from './port-forward.js';

function fetchText(port: number, path: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    get({ host: '127.0.0.1', port, path, agent: false }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
    }).on('error', reject);
  });
}

describe('port-forward', () => {
  it('builds the portforward URL (ws for http, wss for https, with a path prefix and the port)', () => {
    const target = { namespace: 'streamroute-system', pod: 'dp-x1', port: 8081 };
    assert.equal(
      portForwardUrl(new URL('https://k.example:6443/prefix/'), target).href,
      'wss://k.example:6443/prefix/api/v1/namespaces/streamroute-system/pods/dp-x1/portforward?ports=8081',
    );
    assert.equal(portForwardUrl(new URL('http://127.0.0.1:1'), target).protocol, 'ws:');
  });

  it("strips each channel's port (also when split over messages) and collects the error channel", () => {
    const reader = new FrameReader();
    assert.equal(reader.read(Buffer.from([0, 0x91])).length, 0);
    assert.deepEqual(reader.read(Buffer.from([0, 0x1f, 0x61])), Buffer.from('a'));
    assert.deepEqual(reader.read(Buffer.from([0, 0x62])), Buffer.from('b'));
    assert.equal(reader.read(Buffer.concat([Buffer.from([1, 0x91, 0x1f]), Buffer.from('boom')])).length, 0);
    assert.equal(reader.error, 'boom');
    assert.deepEqual(dataFrame(Buffer.from('x')), Buffer.from([0, 0x78]));
  });

  it('carries HTTP requests to the pod port through the websocket, authorized like API requests', async () => {
    const upstream = createHttpServer((request, response) => response.end(`pod saw ${request.url ?? ''}`));
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    const api = await fakeApiServer({ upstream: (upstream.address() as AddressInfo).port });
    const forward = await forwardPort(
      {
        server: api.url,
        authorize: (options) => {
          options.headers = { ...options.headers, Authorization: 'Bearer token-1' };
        },
      },
      { namespace: 'ns', pod: 'dp-1', port: 8081 },
    );
    try {
      for (const path of ['/v1/domains/shop/ingestors/web-in', '/healthz']) {
        assert.deepEqual(await fetchText(forward.port, path), { status: 200, body: `pod saw ${path}` });
      }
      assert.equal(api.requests.length, 2, 'one websocket per connection');
      assert.equal(api.requests[0]?.url, '/api/v1/namespaces/ns/pods/dp-1/portforward?ports=8081');
      assert.equal(api.requests[0]?.headers.authorization, 'Bearer token-1');
    } finally {
      await forward.close();
      await api.close();
      upstream.close();
    }
  });

  it('cuts the local connection when the kubelet reports an error on channel 1', async () => {
    const api = await fakeApiServer({ fail: 'error forwarding port 8081: connection refused' });
    const forward = await forwardPort(
      { server: api.url, authorize: () => undefined },
      { namespace: 'ns', pod: 'p', port: 8081 },
    );
    try {
      await assert.rejects(fetchText(forward.port, '/healthz'), /socket hang up|ECONNRESET/);
    } finally {
      await forward.close();
      await api.close();
    }
  });

  it('cuts the local connection when the API server refuses the upgrade (RBAC)', async () => {
    const api = await fakeApiServer({ status: 403 });
    const forward = await forwardPort(
      { server: api.url, authorize: () => undefined },
      { namespace: 'ns', pod: 'p', port: 8081 },
    );
    try {
      await assert.rejects(fetchText(forward.port, '/healthz'), /socket hang up|ECONNRESET/);
    } finally {
      await forward.close();
      await api.close();
    }
  });
});

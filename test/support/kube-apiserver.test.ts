// Smoke test of the real kube-apiserver + etcd test harness: version, create, and a
// bookmark-enabled watch without resourceVersion (the case that breaks with etcd 3.4).
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { connect } from 'node:net';
import { request, type RequestOptions } from 'node:https';
import type { IncomingMessage } from 'node:http';
import { requireKubeOrSkip, startKubeApiServer, type KubeTestServer } from './kube-apiserver.js';

function send(kube: KubeTestServer, method: string, path: string, body?: unknown): Promise<IncomingMessage> {
  const opts: RequestOptions = {
    method,
    ca: kube.ca,
    headers: { authorization: `Bearer ${kube.token}`, 'content-type': 'application/json' },
  };
  return new Promise((resolve, reject) => {
    const req = request(new URL(path, kube.server), opts, resolve);
    req.on('error', reject);
    req.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

async function json(kube: KubeTestServer, method: string, path: string, body?: unknown): Promise<unknown> {
  const res = await send(kube, method, path, body);
  let text = '';
  for await (const chunk of res) text += String(chunk);
  assert.ok(res.statusCode && res.statusCode < 300, `${method} ${path}: ${res.statusCode} ${text}`);
  return JSON.parse(text);
}

interface WatchEvent {
  type: string;
  object: { kind?: string; metadata?: { name?: string } };
}

/** Reads a watch stream until an event matches, or fails after timeoutMs. */
async function waitForEvent(res: IncomingMessage, match: (e: WatchEvent) => boolean, timeoutMs: number) {
  const timer = setTimeout(
    () => res.destroy(new Error(`no matching watch event within ${timeoutMs}ms`)),
    timeoutMs,
  );
  try {
    let buf = '';
    for await (const chunk of res) {
      buf += String(chunk);
      let nl;
      while ((nl = buf.indexOf('\n')) >= 0) {
        const event = JSON.parse(buf.slice(0, nl)) as WatchEvent;
        buf = buf.slice(nl + 1);
        if (match(event)) return event;
      }
    }
    throw new Error('watch stream ended without a matching event');
  } finally {
    clearTimeout(timer);
    res.destroy();
  }
}

function listening(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const sock = connect(Number(port), hostname, () => {
      sock.destroy();
      resolve(true);
    });
    sock.on('error', () => resolve(false));
  });
}

describe('real kube-apiserver test harness', function () {
  let kube: KubeTestServer | undefined;

  before(async function () {
    this.timeout(90_000);
    await requireKubeOrSkip(this);
    const t0 = Date.now();
    kube = await startKubeApiServer();
    console.log(
      `      (kube-apiserver ready in ${((Date.now() - t0) / 1000).toFixed(1)}s at ${kube.server})`,
    );
  });

  after(async function () {
    this.timeout(30_000);
    await kube?.stop();
  });

  it('answers /version with a 1.32+ server', async function () {
    const version = (await json(kube!, 'GET', '/version')) as {
      major: string;
      minor: string;
      gitVersion: string;
    };
    assert.equal(version.major, '1');
    assert.ok(Number.parseInt(version.minor, 10) >= 32, `server ${version.gitVersion} is older than 1.32`);
  });

  it('creates a namespace and a ConfigMap and sees it on a bookmark-enabled watch without resourceVersion', async function () {
    this.timeout(30_000);
    const k = kube!;
    const ns = `harness-${Date.now().toString(36)}`;
    await json(k, 'POST', '/api/v1/namespaces', {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: ns },
    });
    const cm = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'probe' }, data: { hello: 'world' } };
    await json(k, 'POST', `/api/v1/namespaces/${ns}/configmaps`, cm);

    const res = await send(
      k,
      'GET',
      `/api/v1/namespaces/${ns}/configmaps?watch=true&allowWatchBookmarks=true`,
    );
    assert.equal(res.statusCode, 200);
    const event = await waitForEvent(
      res,
      (e) => e.type === 'ADDED' && e.object.metadata?.name === 'probe',
      15_000,
    );
    assert.equal(event.object.kind, 'ConfigMap');

    const got = (await json(k, 'GET', `/api/v1/namespaces/${ns}/configmaps/probe`)) as {
      data?: Record<string, string>;
    };
    assert.deepEqual(got.data, { hello: 'world' });
  });

  it('stop() ends both processes and removes the work dir', async function () {
    this.timeout(30_000);
    const k = kube!;
    kube = undefined;
    await k.stop();
    assert.equal(await listening(k.server), false, 'kube-apiserver still listening');
    assert.equal(await listening(k.etcdEndpoint), false, 'etcd still listening');
    assert.equal(existsSync(k.workDir), false);
  });
});

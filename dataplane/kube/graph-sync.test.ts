import assert from 'node:assert/strict';
import pino from 'pino';
import type { ApplyResult } from '../node/apply-result.js';
import { ManualClock } from '../core/clock.js';
import { sha256Hex } from './graph-configmap.js';
import { GraphSync } from './graph-sync.js';
import { KubeApiError, type RequestSpec } from '../kube-client/kube-api.js';
import { ResourceCache } from './resource-versions.js';

const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** An API that answers GETs from a map of paths, counting each request. */
class FakeApi {
  readonly objects = new Map<string, unknown>();
  readonly gets: string[] = [];

  request<T>(spec: RequestSpec): Promise<T> {
    this.gets.push(spec.path);
    const object = this.objects.get(spec.path);
    if (object === undefined)
      return Promise.reject(
        new KubeApiError({
          status: 404,
          reason: 'NotFound',
          message: 'not found',
          method: 'GET',
          path: spec.path,
        }),
      );
    return Promise.resolve(structuredClone(object) as T);
  }
}

class FakeTarget {
  readonly applied: [string, number][] = [];
  readonly removed: string[] = [];
  refuse = false;
  throws = false;

  apply(graph: unknown, version: number): Promise<ApplyResult> {
    if (this.throws) return Promise.reject(new Error('the data plane broke'));
    if (this.refuse) return Promise.resolve({ ok: false, errors: ['relay x: unknown schema'] });
    const domain = (graph as { domain: string }).domain;
    this.applied.push([domain, version]);
    return Promise.resolve({
      ok: true,
      domain,
      version,
      changes: { added: [], changed: [], removed: [], unchanged: [] },
      warnings: [],
    });
  }

  removeDomain(domain: string): Promise<void> {
    this.removed.push(domain);
    return Promise.resolve();
  }
}

function graphObject(domain: string, version: number, graph: object): { sha: string; object: unknown } {
  const text = JSON.stringify({ domain, ...graph });
  const sha = sha256Hex(Buffer.from(text));
  return {
    sha,
    object: {
      metadata: {
        name: `streamroute-graph-v${version}`,
        namespace: domain,
        annotations: { 'streamroute.io/sha256': sha },
      },
      data: { 'graph.json': text },
    },
  };
}

function setup() {
  const api = new FakeApi();
  const target = new FakeTarget();
  const cache = new ResourceCache();
  const clock = new ManualClock();
  const sync = new GraphSync({
    api: api,
    target,
    cache,
    logger: pino({ level: 'silent' }),
    clock,
    now: () => '2026-11-24T18:00:00Z',
    retry: { initialMs: 100, maxMs: 400 },
  });
  const publish = (domain: string, version: number, graph: object = {}): string => {
    const { sha, object } = graphObject(domain, version, graph);
    api.objects.set(`/api/v1/namespaces/${domain}/configmaps/streamroute-graph-v${version}`, object);
    return sha;
  };
  return { api, target, cache, clock, sync, publish };
}

const TLS_CLIENT = {
  clients: {
    c: {
      protocol: 'tls',
      tls: {
        certFile: { resource: 'pki', version: 1, file: 'tls.crt' },
        keyFile: { resource: 'pki', version: 1, file: 'tls.key' },
      },
    },
  },
};

describe('GraphSync', () => {
  it('applies each domain’s version once; the same index again reads nothing', async () => {
    const { api, target, sync, publish } = setup();
    const index = {
      domains: { a: { version: 1, sha256: publish('a', 1) }, b: { version: 3, sha256: publish('b', 3) } },
    };
    await sync.update(index);
    assert.deepEqual(target.applied, [
      ['a', 1],
      ['b', 3],
    ]);
    const reads = api.gets.length;
    await sync.update(structuredClone(index));
    assert.equal(api.gets.length, reads);
    assert.deepEqual(
      sync.states().map((s) => [s.domain, s.graphVersion, s.error]),
      [
        ['a', 1, undefined],
        ['b', 3, undefined],
      ],
    );
  });

  it('reads a mounted resource version from a ConfigMap, else a Secret, once, and serves its files', async () => {
    const { api, cache, sync, publish } = setup();
    api.objects.set('/api/v1/namespaces/a/secrets/streamroute-resource-pki-v1', {
      metadata: {
        name: 'streamroute-resource-pki-v1',
        annotations: { 'streamroute.io/files': '["tls.crt","tls.key"]' },
      },
      data: {
        'file-0': Buffer.from('CERT').toString('base64'),
        'file-1': Buffer.from('KEY').toString('base64'),
      },
    });
    await sync.update({ domains: { a: { version: 1, sha256: publish('a', 1, TLS_CLIENT) } } });
    assert.equal(
      cache.readMountedFile({ resource: 'pki', version: 1, file: 'tls.key' }, 'a').toString(),
      'KEY',
    );
    const resourceReads = api.gets.filter((path) => path.includes('streamroute-resource-pki-v1'));
    assert.deepEqual(resourceReads, [
      '/api/v1/namespaces/a/configmaps/streamroute-resource-pki-v1',
      '/api/v1/namespaces/a/secrets/streamroute-resource-pki-v1',
    ]);
    await sync.update({ domains: { a: { version: 2, sha256: publish('a', 2, TLS_CLIENT) } } });
    assert.equal(api.gets.filter((path) => path.includes('streamroute-resource-pki-v1')).length, 2, 'cached');
  });

  it('a resource version that is not there yet runs the graph, retries on the backoff and re-applies once it arrives', async () => {
    const { api, target, clock, sync, publish } = setup();
    await sync.update({ domains: { a: { version: 1, sha256: publish('a', 1, TLS_CLIENT) } } });
    assert.deepEqual(target.applied, [['a', 1]]);
    clock.advance(100);
    await settle();
    assert.deepEqual(target.applied, [['a', 1]]);
    api.objects.set('/api/v1/namespaces/a/configmaps/streamroute-resource-pki-v1', {
      metadata: {
        name: 'streamroute-resource-pki-v1',
        annotations: { 'streamroute.io/files': '["tls.crt","tls.key"]' },
      },
      data: { 'file-0': 'CERT', 'file-1': 'KEY' },
    });
    clock.advance(200);
    await settle();
    await settle();
    assert.deepEqual(target.applied, [
      ['a', 1],
      ['a', 1],
    ]);
  });

  it('a refused or undecodable version keeps the running one, is reported, and is not tried again', async () => {
    const { api, target, clock, sync, publish } = setup();
    await sync.update({ domains: { a: { version: 1, sha256: publish('a', 1) } } });
    target.refuse = true;
    await sync.update({ domains: { a: { version: 2, sha256: publish('a', 2) } } });
    assert.deepEqual(sync.states(), [
      {
        domain: 'a',
        graphVersion: 1,
        appliedAt: '2026-11-24T18:00:00Z',
        error: 'graph version 2: relay x: unknown schema',
      },
    ]);
    const reads = api.gets.length;
    clock.advance(10_000);
    await settle();
    assert.equal(api.gets.length, reads, 'no retry of a refused version');
    target.refuse = false;
    publish('a', 3);
    await sync.update({ domains: { a: { version: 3, sha256: 'f'.repeat(64) } } });
    assert.match(sync.states()[0]!.error!, /^graph version 3: index names sha256 f{64} for version 3/);
    assert.deepEqual(target.applied, [['a', 1]]);
  });

  it('a data plane that throws is retried on the backoff; the sync never rejects (regression)', async () => {
    const { target, clock, sync, publish } = setup();
    target.throws = true;
    await sync.update({ domains: { a: { version: 1, sha256: publish('a', 1) } } });
    assert.deepEqual(target.applied, []);
    target.throws = false;
    clock.advance(100);
    await new Promise((resolve) => setImmediate(resolve));
    for (let i = 0; i < 10 && target.applied.length === 0; i++) await new Promise((r) => setImmediate(r));
    assert.deepEqual(target.applied, [['a', 1]]);
  });

  it('a domain that leaves the index is removed', async () => {
    const { target, sync, publish } = setup();
    await sync.update({ domains: { a: { version: 1, sha256: publish('a', 1) } } });
    await sync.update({ domains: {} });
    assert.deepEqual(target.removed, ['a']);
    assert.deepEqual(sync.states(), []);
  });
});

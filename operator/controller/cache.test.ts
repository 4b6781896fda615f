import assert from 'node:assert/strict';
import { KubeApiError, type KubeApi } from '../../dataplane/kube-client/kube-api.js';
import type {
  ListWatchHandlers,
  ListWatchOptions,
  runListWatch,
} from '../../dataplane/kube-client/list-watch.js';
import { ManualClock } from '../../dataplane/core/clock.js';
import { GRAPH_KINDS } from '../api/index.js';
import { cacheStreams, changedReportDomains, ClusterCache } from './cache.js';
import type { ClusterObject } from './domain-snapshot.js';
import type { ChangeReason } from './work-queue.js';

type Handlers = ListWatchHandlers<ClusterObject>;

/** A reflector the test drives: one entry per path, lists and events sent by hand. */
class FakeListWatch {
  readonly streams = new Map<string, Handlers>();
  readonly options = new Map<string, ListWatchOptions>();

  readonly run = ((options: ListWatchOptions, handlers: Handlers): Promise<void> => {
    this.streams.set(options.path, handlers);
    this.options.set(options.path, options);
    return new Promise((resolve) => options.signal.addEventListener('abort', () => resolve()));
  }) as unknown as typeof runListWatch;

  handlers(path: string): Handlers {
    const handlers = this.streams.get(path);
    assert.ok(handlers, `no stream ${path}`);
    return handlers;
  }

  listAllEmpty(): void {
    for (const handlers of this.streams.values()) handlers.onList([]);
  }
}

function relay(namespace: string, name: string, resourceVersion: string): ClusterObject {
  return { kind: 'Relay', metadata: { namespace, name, resourceVersion }, spec: {} };
}

function report(name: string, resourceVersion: string, status: Record<string, unknown>): ClusterObject {
  return { kind: 'DataplaneNode', metadata: { name, resourceVersion }, spec: { nodeName: name }, status };
}

function setup(namespaces?: string[]): {
  fake: FakeListWatch;
  cache: ClusterCache;
  changes: [string, ChangeReason][];
} {
  const fake = new FakeListWatch();
  const changes: [string, ChangeReason][] = [];
  const cache = new ClusterCache({
    api: {} as KubeApi,
    clock: new ManualClock(),
    ...(namespaces === undefined ? {} : { namespaces }),
    onChange: (domain, reason) => changes.push([domain, reason]),
    listWatch: fake.run,
  });
  cache.start();
  return { fake, cache, changes };
}

const RELAYS = '/apis/streamroute.io/v1alpha1/relays';
const NODES = '/apis/streamroute.io/v1alpha1/dataplanenodes';

describe('ClusterCache', () => {
  it('watches every graph kind, resource ConfigMaps and Secrets, and node reports', () => {
    const all = cacheStreams(undefined);
    assert.equal(all.length, GRAPH_KINDS.length + 3);
    const secrets = all.find((stream) => stream.kind === 'Secret');
    assert.deepEqual(secrets?.labelSelector, 'streamroute.io/resource');
    assert.equal(secrets?.path, '/api/v1/secrets');
    const scoped = cacheStreams(['a', 'b']);
    assert.equal(scoped.length, 2 * (GRAPH_KINDS.length + 2) + 1);
    assert.ok(scoped.some((stream) => stream.path === '/apis/streamroute.io/v1alpha1/namespaces/b/relays'));
  });

  it('says which lists are missing and why: a CRD not installed by name, other failures as the API said', () => {
    const { fake, cache } = setup();
    const notFound = new KubeApiError({
      status: 404,
      reason: 'Unknown',
      message: '404 page not found',
      method: 'GET',
      path: RELAYS,
    });
    const forbidden = new KubeApiError({
      status: 403,
      reason: 'Forbidden',
      message: 'secrets is forbidden',
      method: 'GET',
      path: '/api/v1/secrets',
    });
    fake.handlers(RELAYS).onError?.(notFound, 1000);
    fake.handlers('/api/v1/secrets').onError?.(forbidden, 1000);
    for (const [path, handlers] of fake.streams) {
      if (path !== RELAYS && path !== '/api/v1/secrets') handlers.onList([]);
    }
    assert.deepEqual(cache.unsynced(), [
      {
        path: RELAYS,
        error:
          "the CustomResourceDefinition relays.streamroute.io is not installed: install the chart's CRDs (helm install without --skip-crds, or kubectl apply -f charts/streamroute/crds/)",
      },
      { path: '/api/v1/secrets', error: 'GET /api/v1/secrets: 403 Forbidden: secrets is forbidden' },
    ]);
    fake.handlers(RELAYS).onList([]);
    fake.handlers('/api/v1/secrets').onList([]);
    assert.deepEqual(cache.unsynced(), []);
    assert.equal(cache.synced, true);
  });

  it('is synced once every stream has listed', async () => {
    const { fake, cache } = setup();
    assert.equal(cache.synced, false);
    const synced = cache.whenSynced();
    fake.listAllEmpty();
    await synced;
    assert.equal(cache.synced, true);
    await cache.stop();
  });

  it('notifies the domain of a changed object, once per new resourceVersion', async () => {
    const { fake, cache, changes } = setup();
    fake.listAllEmpty();
    const relays = fake.handlers(RELAYS);
    relays.onEvent('ADDED', relay('prod', 'r1', '1'));
    relays.onEvent('MODIFIED', relay('prod', 'r1', '1'));
    relays.onEvent('MODIFIED', relay('prod', 'r1', '2'));
    relays.onEvent('DELETED', relay('dev', 'unknown', '3'));
    relays.onEvent('ADDED', relay('dev', 'r2', '4'));
    assert.deepEqual(changes, [
      ['prod', 'objects'],
      ['prod', 'objects'],
      ['dev', 'objects'],
    ]);
    assert.deepEqual(cache.domains(), ['dev', 'prod']);
    const snapshot = cache.snapshot('prod');
    assert.deepEqual(
      snapshot.objects.map((object) => [object.kind, object.metadata.name, object.metadata.resourceVersion]),
      [['Relay', 'r1', '2']],
    );
    relays.onEvent('DELETED', relay('prod', 'r1', '5'));
    assert.deepEqual(cache.snapshot('prod').objects, []);
    assert.deepEqual(cache.domains(), ['dev']);
    await cache.stop();
  });

  it('a status-only change of a graph object is kept but notifies nothing', async () => {
    const { fake, cache, changes } = setup();
    fake.listAllEmpty();
    const relays = fake.handlers(RELAYS);
    const withGeneration = (
      resourceVersion: string,
      generation: number,
      status?: Record<string, unknown>,
    ) => ({
      ...relay('prod', 'r1', resourceVersion),
      metadata: { namespace: 'prod', name: 'r1', resourceVersion, generation },
      ...(status === undefined ? {} : { status }),
    });
    relays.onEvent('ADDED', withGeneration('1', 1));
    relays.onEvent('MODIFIED', withGeneration('2', 1, { observedGeneration: 1 }));
    assert.deepEqual(changes.splice(0), [['prod', 'objects']]);
    assert.deepEqual(cache.snapshot('prod').objects[0]?.status, { observedGeneration: 1 });
    relays.onEvent('MODIFIED', withGeneration('3', 2, { observedGeneration: 1 }));
    const annotated = withGeneration('4', 2);
    annotated.metadata = {
      ...annotated.metadata,
      annotations: { 'streamroute.io/transaction': 't' },
    } as never;
    relays.onEvent('MODIFIED', annotated);
    assert.deepEqual(changes.splice(0), [
      ['prod', 'objects'],
      ['prod', 'objects'],
    ]);
    // A delete (DROP, kubectl delete) keeps generation and labels, and must still recompile (regression).
    relays.onEvent('DELETED', { ...annotated, metadata: { ...annotated.metadata, resourceVersion: '5' } });
    assert.deepEqual(changes.splice(0), [['prod', 'objects']]);
    assert.equal(cache.snapshot('prod').objects.length, 0);
    await cache.stop();
  });

  it('a relist replaces the set and notifies only the domains that differ', async () => {
    const { fake, cache, changes } = setup();
    fake.listAllEmpty();
    const relays = fake.handlers(RELAYS);
    relays.onList([relay('a', 'x', '1'), relay('b', 'y', '2'), relay('c', 'z', '3')]);
    changes.length = 0;
    relays.onList([relay('a', 'x', '1'), relay('b', 'y', '7'), relay('d', 'w', '8')]);
    assert.deepEqual(changes.sort(), [
      ['b', 'objects'],
      ['c', 'objects'],
      ['d', 'objects'],
    ]);
    assert.deepEqual(cache.domains(), ['a', 'b', 'd']);
    await cache.stop();
  });

  it('keeps Secrets without their data and sets kind on core list items', async () => {
    const { fake, cache } = setup();
    fake.listAllEmpty();
    const secret = {
      metadata: { namespace: 'prod', name: 'streamroute-resource-tls-v1', resourceVersion: '1' },
      data: { 'file-0': 'c2VjcmV0' },
    } as unknown as ClusterObject;
    fake.handlers('/api/v1/secrets').onList([secret]);
    const [kept] = cache.snapshot('prod').resourceVersions;
    assert.equal(kept?.kind, 'Secret');
    assert.equal((kept as unknown as { data?: unknown }).data, undefined);
    await cache.stop();
  });

  it('a node report notifies the domains whose part changed (old and new)', async () => {
    const { fake, cache, changes } = setup();
    fake.listAllEmpty();
    const nodes = fake.handlers(NODES);
    const v1 = {
      domains: [
        { domain: 'a', graphVersion: 1 },
        { domain: 'b', graphVersion: 1 },
      ],
    };
    nodes.onEvent('ADDED', report('n1', '1', v1));
    assert.deepEqual(changes.splice(0), [
      ['a', 'nodes'],
      ['b', 'nodes'],
    ]);
    nodes.onEvent('MODIFIED', report('n1', '2', { ...v1, heartbeatTime: '2026-01-01T00:00:00Z' }));
    assert.deepEqual(changes.splice(0), [], 'a heartbeat alone changes no domain');
    const v3 = {
      domains: [
        { domain: 'a', graphVersion: 2 },
        { domain: 'c', graphVersion: 1 },
      ],
    };
    nodes.onEvent('MODIFIED', report('n1', '3', v3));
    assert.deepEqual(changes.splice(0), [
      ['a', 'nodes'],
      ['b', 'nodes'],
      ['c', 'nodes'],
    ]);
    nodes.onList([]);
    assert.deepEqual(changes.splice(0), [
      ['a', 'nodes'],
      ['c', 'nodes'],
    ]);
    assert.equal(cache.snapshot('a').nodeReports.length, 0);
    await cache.stop();
  });

  it('with a namespace set: one stream per namespace, node domains outside the set ignored', async () => {
    const { fake, cache, changes } = setup(['a']);
    fake.listAllEmpty();
    fake.handlers('/apis/streamroute.io/v1alpha1/namespaces/a/relays').onList([relay('a', 'x', '1')]);
    fake.handlers(NODES).onEvent(
      'ADDED',
      report('n1', '1', {
        domains: [
          { domain: 'a', graphVersion: 1 },
          { domain: 'z', graphVersion: 1 },
        ],
      }),
    );
    assert.deepEqual(changes, [
      ['a', 'objects'],
      ['a', 'nodes'],
    ]);
    await cache.stop();
  });

  it('changedReportDomains counts components too', () => {
    const before = report('n', '1', {
      components: [{ domain: 'a', kind: 'Emitter', name: 'e', state: 'Running' }],
    });
    const after = report('n', '2', {
      components: [{ domain: 'a', kind: 'Emitter', name: 'e', state: 'Retrying' }],
    });
    assert.deepEqual(changedReportDomains(before, after), ['a']);
    assert.deepEqual(changedReportDomains(undefined, undefined), []);
  });

  it('changedReportDomains ignores components’ counters (they move with every write)', () => {
    const component = (recordsIn: number) => ({
      domain: 'a',
      kind: 'Emitter',
      name: 'e',
      state: 'Running',
      metrics: { recordsIn, recordsOut: 0, messageErrors: 0, drops: 0 },
    });
    const before = report('n', '1', { components: [component(1)] });
    const after = report('n', '2', { components: [component(900)] });
    assert.deepEqual(changedReportDomains(before, after), []);
  });
});

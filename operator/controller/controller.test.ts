import assert from 'node:assert/strict';
import { pino } from 'pino';
import type { KubeApi, RequestSpec } from '../../dataplane/kube-client/kube-api.js';
import type {
  ListWatchHandlers,
  ListWatchOptions,
  runListWatch,
} from '../../dataplane/kube-client/list-watch.js';
import { ManualClock } from '../../dataplane/core/clock.js';
import { Controller, fenced, NotLeaderError } from './controller.js';
import type { ClusterObject, DomainSnapshot, ReconcileOutcome } from './domain-snapshot.js';

type Handlers = ListWatchHandlers<ClusterObject>;

class FakeListWatch {
  readonly streams = new Map<string, Handlers>();
  readonly run = ((options: ListWatchOptions, handlers: Handlers): Promise<void> => {
    this.streams.set(options.path, handlers);
    return new Promise((resolve) => options.signal.addEventListener('abort', () => resolve()));
  }) as unknown as typeof runListWatch;

  list(path: string, items: ClusterObject[]): void {
    const handlers = this.streams.get(path);
    assert.ok(handlers, path);
    handlers.onList(items);
  }

  listRestEmpty(except: string[]): void {
    for (const [path, handlers] of this.streams) if (!except.includes(path)) handlers.onList([]);
  }
}

const RELAYS = '/apis/streamroute.io/v1alpha1/relays';
const relay = (namespace: string, name: string, resourceVersion: string): ClusterObject => ({
  kind: 'Relay',
  metadata: { namespace, name, resourceVersion },
  spec: {},
});
const flush = async (): Promise<void> => {
  for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
};

function setup(outcome: () => Promise<ReconcileOutcome> = () => Promise.resolve({})) {
  const clock = new ManualClock(0);
  const fake = new FakeListWatch();
  const reconciled: { domain: string; at: number; objects: string[] }[] = [];
  const controller = new Controller({
    api: { request: () => Promise.resolve({}) } as unknown as KubeApi,
    clock,
    logger: pino({ level: 'silent' }),
    operatorNamespace: 'streamroute-system',
    keepVersions: 10,
    leaderElection: false,
    listWatch: fake.run,
    reconcileDomain: (snapshot: DomainSnapshot) => {
      reconciled.push({
        domain: snapshot.domain,
        at: clock.now(),
        objects: snapshot.objects.map((object) => object.metadata.name),
      });
      return outcome();
    },
  });
  controller.start();
  return { clock, fake, reconciled, controller };
}

describe('Controller', () => {
  it('reconciles nothing before every list is done, then every known domain', async () => {
    const { clock, fake, reconciled, controller } = setup();
    fake.list(RELAYS, [relay('a', 'r1', '1'), relay('b', 'r2', '2')]);
    clock.advance(5000);
    assert.equal(reconciled.length, 0);
    assert.equal(controller.ready, false);
    fake.listRestEmpty([RELAYS]);
    await flush();
    clock.advance(0);
    assert.equal(controller.ready, true);
    assert.deepEqual(
      reconciled.map((run) => run.domain),
      ['a', 'b'],
    );
    await controller.stop();
  });

  it('reconciles a changed domain after the debounce, with the cached objects', async () => {
    const { clock, fake, reconciled, controller } = setup();
    fake.listRestEmpty([]);
    await flush();
    clock.advance(0);
    fake.streams.get(RELAYS)?.onEvent('ADDED', relay('prod', 'r1', '5'));
    clock.advance(99);
    assert.equal(reconciled.length, 0);
    clock.advance(1);
    assert.deepEqual(reconciled, [{ domain: 'prod', at: 100, objects: ['r1'] }]);
    await controller.stop();
  });

  it('counts reconciles by result and serves metrics', async () => {
    let fail = true;
    const { clock, fake, controller } = setup(() =>
      fail ? Promise.reject(new Error('boom')) : Promise.resolve({ requeueAfterMs: 1000 }),
    );
    fake.listRestEmpty([]);
    fake.streams.get(RELAYS)?.onEvent('ADDED', relay('prod', 'r1', '5'));
    await flush();
    clock.advance(100);
    await flush();
    fail = false;
    clock.advance(500);
    await flush();
    const text = await controller.registry.metrics();
    assert.match(text, /streamroute_operator_reconciles_total\{result="error"\} 1/);
    assert.match(text, /streamroute_operator_reconciles_total\{result="success"\} 1/);
    assert.match(text, /streamroute_operator_leader 1/);
    assert.match(text, /streamroute_operator_queue_depth 1/, 'requeued after 1 s');
    assert.match(text, /streamroute_operator_reconcile_duration_seconds_count 2/);
    await controller.stop();
  });

  it('fences writes once the replica no longer leads', async () => {
    const sent: RequestSpec[] = [];
    const api = {
      request: (spec: RequestSpec) => {
        sent.push(spec);
        return Promise.resolve({});
      },
      get defaultNamespace() {
        return 'x';
      },
    } as unknown as KubeApi;
    let leading = true;
    const guarded = fenced(api, () => leading);
    await guarded.request({ method: 'PUT', path: '/a' });
    leading = false;
    await guarded.request({ path: '/read' });
    await assert.rejects(guarded.request({ method: 'POST', path: '/b' }), NotLeaderError);
    assert.deepEqual(
      sent.map((spec) => spec.path),
      ['/a', '/read'],
    );
    assert.equal(guarded.defaultNamespace, 'x');
  });
});

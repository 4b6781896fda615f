// One domain's reconcile against a real kube-apiserver: objects converted from statements are applied,
// the snapshot is built by listing (as the runtime's caches would hold it), and reconcileDomain
// publishes graph versions, moves the pointer and the index, and writes statuses — only when needed.
import assert from 'node:assert/strict';
import type { KubernetesObject } from '@kubernetes/client-node';
import { pino } from 'pino';
import {
  INDEX_NAME,
  LABEL_COMPONENT,
  LABEL_DOMAIN,
  LABEL_RESOURCE,
  POINTER_NAME,
  corePath,
  customPath,
} from '../../dataplane/kube/contract.js';
import { decodeGraphConfigMap, decodeIndex, type ConfigMap } from '../../dataplane/kube/graph-configmap.js';
import { isStatus, KubeApi } from '../../dataplane/kube-client/kube-api.js';
import { setTimeout as sleep } from 'node:timers/promises';
import { ManualClock } from '../../dataplane/core/clock.js';
import { GRAPH_KINDS } from '../../operator/api/index.js';
import type {
  ClusterObject,
  DomainSnapshot,
  ReconcileDeps,
} from '../../operator/controller/domain-snapshot.js';
import { createDomainReconciler } from '../../operator/controller/reconcile-domain.js';
import { statementsToObjects } from '../../operator/language/convert.js';
import { parseScript } from '../../operator/language/parse.js';
import { requireKubeOrSkip, sharedKubeApiServer } from '../support/kube-apiserver.js';
import {
  createNamespace,
  installCrds,
  kubeClients,
  serverSideApply,
  type KubeClients,
} from '../support/kube-client.js';
import { ORDERS_GRAPH } from '../fixtures/orders-graph.js';

const OPERATOR_NS = 'streamroute-system-reconcile';
let namespaceCounter = 0;

function objectsOf(text: string, namespace: string): KubernetesObject[] {
  const parsed = parseScript(text);
  const converted = statementsToObjects(parsed.statements, {});
  const errors = [...parsed.diagnostics, ...converted.diagnostics].filter((d) => d.severity === 'error');
  assert.deepEqual(errors, []);
  return converted.objects.map((object) => ({ ...object, metadata: { ...object.metadata, namespace } }));
}

/** Lists a collection; a freshly installed CRD answers 429 while its storage initializes. */
async function listItems(
  api: KubeApi,
  path: string,
  query: Record<string, string> = {},
): Promise<ClusterObject[]> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return (await api.request<{ items: ClusterObject[] }>({ path, query })).items;
    } catch (error) {
      if (!isStatus(error, 429) || attempt > 100) throw error;
      await sleep(200);
    }
  }
}

async function snapshotOf(api: KubeApi, domain: string): Promise<DomainSnapshot> {
  const objects: ClusterObject[] = [];
  for (const definition of GRAPH_KINDS) {
    const items = await listItems(api, customPath(definition.plural, domain));
    objects.push(...items.map((item) => ({ ...item, kind: definition.kind })));
  }
  const resources = await listItems(api, corePath('configmaps', domain), { labelSelector: LABEL_RESOURCE });
  return { domain, objects, resourceVersions: resources, nodeReports: [] };
}

async function getConfigMap(api: KubeApi, namespace: string, name: string): Promise<ConfigMap | undefined> {
  return api.request<ConfigMap>({ path: corePath('configmaps', namespace, name) }).catch(() => undefined);
}

async function graphVersions(api: KubeApi, domain: string): Promise<ConfigMap[]> {
  const list = await api.request<{ items: ConfigMap[] }>({
    path: corePath('configmaps', domain),
    query: { labelSelector: `${LABEL_COMPONENT}=graph,${LABEL_DOMAIN}=${domain}` },
  });
  return list.items;
}

function writes(api: KubeApi): number {
  return ['POST', 'PUT', 'PATCH', 'DELETE'].reduce((sum, method) => sum + (api.sent.get(method) ?? 0), 0);
}

interface Condition {
  type: string;
  status?: string;
  reason?: string;
  message?: string;
  observedGeneration?: number;
}

function accepted(object: ClusterObject): Condition | undefined {
  const conditions = (object.status?.conditions ?? []) as Condition[];
  return conditions.find((condition) => condition.type === 'Accepted');
}

describe('reconcileDomain on a real kube-apiserver', function () {
  this.timeout(120_000);
  let clients: KubeClients;
  let api: KubeApi;

  before(async function () {
    await requireKubeOrSkip(this);
    const server = await sharedKubeApiServer();
    clients = kubeClients(server);
    await installCrds(clients);
    await createNamespace(clients, OPERATOR_NS).catch(() => undefined);
    api = new KubeApi({
      kubeconfig: server.kubeconfigPath,
      rateLimit: { qps: 50, burst: 100 },
      userAgent: 'reconcile-e2e',
    });
  });

  async function freshDomain(): Promise<string> {
    namespaceCounter += 1;
    const name = `reconcile-${process.pid}-${namespaceCounter}`;
    await createNamespace(clients, name);
    return name;
  }

  function deps(keepVersions = 10, clock = new ManualClock()): ReconcileDeps {
    return {
      api,
      clock,
      now: () => new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
      logger: pino({ level: 'silent' }),
      operatorNamespace: OPERATOR_NS,
      keepVersions,
    };
  }

  async function apply(domain: string, text: string): Promise<void> {
    for (const object of objectsOf(text, domain)) await serverSideApply(clients, object);
  }

  it('publishes v1, moves pointer and index, writes statuses; a second pass writes nothing; a bad change keeps the old spec', async () => {
    const domain = await freshDomain();
    const reconcile = createDomainReconciler();
    await apply(domain, ORDERS_GRAPH);
    const outcome = await reconcile(await snapshotOf(api, domain), deps());
    assert.equal(outcome.publishedVersion, 1);

    const v1 = await getConfigMap(api, domain, 'streamroute-graph-v1');
    assert.ok(v1 !== undefined);
    assert.equal(v1.immutable, true);
    assert.equal(v1.metadata.labels?.['streamroute.io/graph-version'], '1');
    assert.equal(v1.metadata.labels?.['streamroute.io/domain'], domain);
    assert.equal(v1.metadata.labels?.['app.kubernetes.io/managed-by'], 'streamroute');
    assert.equal(v1.metadata.annotations?.['streamroute.io/encoding'], 'json');
    const decoded = decodeGraphConfigMap(v1);
    assert.ok(decoded.ok);
    const pointer = await getConfigMap(api, domain, POINTER_NAME);
    assert.equal(pointer?.data?.version, '1');
    assert.equal(pointer?.data?.sha256, decoded.value.sha256);
    const index = decodeIndex(
      (await getConfigMap(api, OPERATOR_NS, INDEX_NAME)) ?? { metadata: { name: '' } },
    );
    assert.ok(index.ok);
    assert.deepEqual(index.value.domains[domain], { version: 1, sha256: decoded.value.sha256 });

    let snapshot = await snapshotOf(api, domain);
    for (const object of snapshot.objects) {
      assert.equal(accepted(object)?.status, 'True', `${object.kind}/${object.metadata.name}`);
      assert.equal(object.status?.observedGeneration, 1);
    }

    // Nothing changed: nothing is written.
    const before = writes(api);
    const again = await reconcile(snapshot, deps());
    assert.equal(again.publishedVersion, 1);
    assert.equal(writes(api), before);

    // An invalid change: the ingestor assigns a field its relay's schema does not have.
    const ingestor = objectsOf(ORDERS_GRAPH, domain).find(
      (o) => o.kind === 'HttpIngestor',
    ) as KubernetesObject & {
      spec: { routes: Record<string, unknown>[] };
    };
    const [route] = ingestor.spec.routes;
    ingestor.spec.routes = [
      { ...route, inheritAll: false, set: [{ field: 'nope', value: 'input.order_id' }] },
    ];
    await serverSideApply(clients, ingestor);
    await reconcile(await snapshotOf(api, domain), deps());
    snapshot = await snapshotOf(api, domain);
    const bad = snapshot.objects.find((o) => o.kind === 'HttpIngestor');
    assert.ok(bad !== undefined);
    const condition = accepted(bad);
    assert.equal(condition?.status, 'False');
    assert.match(condition?.reason ?? '', /^SR\d{4}$/);
    assert.match(condition?.message ?? '', /generation 1 keeps running/);
    assert.equal(condition?.observedGeneration, 2);
    for (const object of snapshot.objects.filter((o) => o.kind !== 'HttpIngestor'))
      assert.equal(accepted(object)?.status, 'True', object.kind);
    const versions = await graphVersions(api, domain);
    const newest = versions.map((cm) => decodeGraphConfigMap(cm)).map((d) => (d.ok ? d.value.sha256 : ''));
    assert.ok(
      newest.every((sha) => sha === decoded.value.sha256),
      'the published graph still has the old spec',
    );
  });

  it('prunes beyond K versions, keeping the pointed-at one', async () => {
    const domain = await freshDomain();
    const reconcile = createDomainReconciler();
    await apply(domain, ORDERS_GRAPH);
    await reconcile(await snapshotOf(api, domain), deps(2));
    let last = 1;
    for (let i = 1; i <= 3; i += 1) {
      await apply(domain, `CREATE RELAY extra_${i} SCHEMA orders UNBRANCHED;`);
      last = (await reconcile(await snapshotOf(api, domain), deps(2))).publishedVersion ?? 0;
    }
    assert.equal(last, 4);
    const names = (await graphVersions(api, domain)).map((cm) => cm.metadata.name).sort();
    assert.deepEqual(names, ['streamroute-graph-v3', 'streamroute-graph-v4']);
  });

  it('refuses a graph above the size guard and marks the objects GraphTooLarge', async () => {
    const domain = await freshDomain();
    const reconcile = createDomainReconciler({ sizeGuardBytes: 100 });
    await apply(domain, ORDERS_GRAPH);
    const outcome = await reconcile(await snapshotOf(api, domain), deps());
    assert.equal(outcome.publishedVersion, undefined);
    assert.deepEqual(await graphVersions(api, domain), []);
    for (const object of (await snapshotOf(api, domain)).objects) {
      const condition = accepted(object);
      assert.equal(condition?.reason, 'GraphTooLarge');
      assert.match(condition?.message ?? '', /takes \d+ bytes, above the limit of 100 bytes/);
    }
  });

  it('keeps the pointer and the index at a pinned version while publishing new versions', async () => {
    const domain = await freshDomain();
    const reconcile = createDomainReconciler();
    await apply(domain, ORDERS_GRAPH);
    await reconcile(await snapshotOf(api, domain), deps());
    const pointer = await getConfigMap(api, domain, POINTER_NAME);
    assert.ok(pointer?.data !== undefined);
    await api.request({
      method: 'PUT',
      path: corePath('configmaps', domain, POINTER_NAME),
      body: { ...pointer, data: { ...pointer.data, pinned: '1' } },
    });
    await apply(domain, 'CREATE RELAY late SCHEMA orders UNBRANCHED;');
    const outcome = await reconcile(await snapshotOf(api, domain), deps());
    assert.equal(outcome.publishedVersion, 1);
    const names = (await graphVersions(api, domain)).map((cm) => cm.metadata.name).sort();
    assert.deepEqual(names, ['streamroute-graph-v1', 'streamroute-graph-v2']);
    assert.equal((await getConfigMap(api, domain, POINTER_NAME))?.data?.version, '1');
    const index = decodeIndex(
      (await getConfigMap(api, OPERATOR_NS, INDEX_NAME)) ?? { metadata: { name: '' } },
    );
    assert.ok(index.ok);
    assert.equal(index.value.domains[domain]?.version, 1);
    // The next reconcile compares with v2 (the newest version), so it publishes nothing more.
    const before = writes(api);
    await reconcile(await snapshotOf(api, domain), deps());
    assert.equal(writes(api), before);
  });

  it('rolls back: a pin on an older version moves pointer and index to it; unpinning returns to the newest', async () => {
    const domain = await freshDomain();
    const reconcile = createDomainReconciler();
    await apply(domain, ORDERS_GRAPH);
    await reconcile(await snapshotOf(api, domain), deps());
    await apply(domain, 'CREATE RELAY late SCHEMA orders UNBRANCHED;');
    assert.equal((await reconcile(await snapshotOf(api, domain), deps())).publishedVersion, 2);
    const indexVersion = async (): Promise<number | undefined> => {
      const index = decodeIndex(
        (await getConfigMap(api, OPERATOR_NS, INDEX_NAME)) ?? { metadata: { name: '' } },
      );
      return index.ok ? index.value.domains[domain]?.version : undefined;
    };
    const setPin = async (pinned: string | undefined): Promise<void> => {
      const pointer = await getConfigMap(api, domain, POINTER_NAME);
      const { pinned: _old, ...data } = pointer?.data ?? {};
      await api.request({
        method: 'PUT',
        path: corePath('configmaps', domain, POINTER_NAME),
        body: { ...pointer, data: pinned === undefined ? data : { ...data, pinned } },
      });
    };
    // What `streamroute rollback --to 1` writes: only the pin.
    await setPin('1');
    assert.equal((await reconcile(await snapshotOf(api, domain), deps())).publishedVersion, 1);
    const pinnedPointer = (await getConfigMap(api, domain, POINTER_NAME))?.data;
    assert.equal(pinnedPointer?.version, '1');
    assert.equal(pinnedPointer?.pinned, '1');
    assert.equal(pinnedPointer?.configMap, 'streamroute-graph-v1');
    assert.equal(await indexVersion(), 1);
    // `--unpin`: back to the newest version.
    await setPin(undefined);
    assert.equal((await reconcile(await snapshotOf(api, domain), deps())).publishedVersion, 2);
    assert.equal(await indexVersion(), 2);
  });

  it('publishes but stops writing statuses once superseded by a newer change', async () => {
    const domain = await freshDomain();
    await apply(domain, ORDERS_GRAPH);
    const outcome = await createDomainReconciler()(await snapshotOf(api, domain), {
      ...deps(),
      superseded: () => true,
    });
    assert.equal(outcome.publishedVersion, 1);
    const objects = (await snapshotOf(api, domain)).objects;
    assert.ok(objects.length > 0);
    assert.ok(
      objects.every((object) => accepted(object) === undefined),
      'no status was written',
    );
  });

  it('records Kubernetes events for the publish and for Accepted transitions', async () => {
    const domain = await freshDomain();
    await apply(domain, 'CREATE SCHEMA orders (order_id STRING);');
    await createDomainReconciler()(await snapshotOf(api, domain), deps());
    const events = await api.request<{
      items: {
        reason: string;
        type: string;
        involvedObject: { kind: string; name: string };
        source: { component: string };
      }[];
    }>({
      path: corePath('events', domain),
    });
    const seen = events.items
      .map((e) => `${e.involvedObject.kind}/${e.involvedObject.name} ${e.type} ${e.reason}`)
      .sort();
    assert.deepEqual(seen, ['ConfigMap/streamroute-graph Normal Published', 'Schema/orders Normal Accepted']);
    assert.ok(events.items.every((e) => e.source.component === 'streamroute-operator'));
  });

  it('holds an incomplete transaction, then reports its missing member after 30 s', async () => {
    const domain = await freshDomain();
    const reconcile = createDomainReconciler();
    const clock = new ManualClock();
    await apply(domain, 'CREATE SCHEMA orders (order_id STRING);');
    const [relay] = objectsOf('CREATE RELAY orders SCHEMA orders UNBRANCHED;', domain);
    assert.ok(relay?.metadata !== undefined);
    relay.metadata.annotations = {
      'streamroute.io/transaction': 'tx-e2e',
      'streamroute.io/transaction-size': '2',
      'streamroute.io/transaction-members': 'Relay/orders,Relay/audit',
    };
    await serverSideApply(clients, relay);
    const first = await reconcile(await snapshotOf(api, domain), deps(10, clock));
    assert.equal(first.requeueAfterMs, 30_000);
    const v1 = await getConfigMap(api, domain, 'streamroute-graph-v1');
    const graph = v1 === undefined ? undefined : decodeGraphConfigMap(v1);
    assert.ok(graph?.ok);
    assert.deepEqual(Object.keys((graph.value.json as { relays: object }).relays), []);
    clock.advance(30_000);
    const late = await reconcile(await snapshotOf(api, domain), deps(10, clock));
    assert.equal(late.requeueAfterMs, undefined);
    const held = (await snapshotOf(api, domain)).objects.find((o) => o.kind === 'Relay');
    assert.ok(held !== undefined);
    assert.equal(accepted(held)?.reason, 'TransactionIncomplete');
    assert.match(accepted(held)?.message ?? '', /missing Relay\/audit/);
  });

  it('removes an emptied domain from the index', async () => {
    const domain = await freshDomain();
    const reconcile = createDomainReconciler();
    await apply(domain, 'CREATE SCHEMA orders (order_id STRING);');
    await reconcile(await snapshotOf(api, domain), deps());
    let index = decodeIndex((await getConfigMap(api, OPERATOR_NS, INDEX_NAME)) ?? { metadata: { name: '' } });
    assert.ok(index.ok && index.value.domains[domain] !== undefined);
    await reconcile({ domain, objects: [], resourceVersions: [], nodeReports: [] }, deps());
    index = decodeIndex((await getConfigMap(api, OPERATOR_NS, INDEX_NAME)) ?? { metadata: { name: '' } });
    assert.ok(index.ok && index.value.domains[domain] === undefined);
  });
});

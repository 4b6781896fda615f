// The chart's post-delete hook against a REAL kube-apiserver: it waits for the release's pods to be gone,
// then deletes the index, the Lease and every DataplaneNode, and leaves the graph versions of the domains
// alone. (The hook itself, run by helm uninstall on a real kubelet, is in test/cluster.)
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import {
  corePath,
  customPath,
  DATAPLANE_NODE_PLURAL,
  INDEX_NAME,
  LEASE_NAME,
} from '../../dataplane/kube/contract.js';
import { isStatus, KubeApi } from '../../dataplane/kube-client/kube-api.js';
import { systemClock } from '../../dataplane/core/clock.js';
import { cleanUpAfterUninstall } from '../../operator/controller/uninstall-cleanup.js';
import { memoryLogger } from '../fixtures/graph-from-statements.js';
import { requireKubeOrSkip, startKubeApiServer, type KubeTestServer } from '../support/kube-apiserver.js';
import { createNamespace, installCrds, kubeClients } from '../support/kube-client.js';

const LEASES = (namespace: string) => `/apis/coordination.k8s.io/v1/namespaces/${namespace}/leases`;
const SELECTOR =
  'app.kubernetes.io/instance=cleanup-test,app.kubernetes.io/component in (operator,dataplane)';

async function exists(api: KubeApi, path: string): Promise<boolean> {
  try {
    await api.request({ path });
    return true;
  } catch (error: unknown) {
    if (isStatus(error, 404)) return false;
    throw error;
  }
}

describe('uninstall cleanup on a real kube-apiserver', function () {
  this.timeout(60_000);
  let server: KubeTestServer | undefined;
  let api: KubeApi;
  let system: string;
  let domain: string;
  const nodes = [
    `cleanup-a-${randomBytes(3).toString('hex')}`,
    `cleanup-b-${randomBytes(3).toString('hex')}`,
  ];

  before(async function () {
    await requireKubeOrSkip(this);
    // Its own server: the cleanup deletes every DataplaneNode, which other suites' nodes must not see.
    server = await startKubeApiServer();
    api = new KubeApi({
      kubeconfig: server.kubeconfigPath,
      rateLimit: { qps: 100, burst: 100 },
      userAgent: 'e2e',
    });
    const clients = kubeClients(server);
    await installCrds(clients);
    system = `cleanup-system-${randomBytes(3).toString('hex')}`;
    domain = `cleanup-domain-${randomBytes(3).toString('hex')}`;
    await createNamespace(clients, system);
    await createNamespace(clients, domain);
  });

  after(() => server?.stop());

  async function writeRunTimeObjects(): Promise<void> {
    await api.request({
      method: 'POST',
      path: corePath('configmaps', system),
      body: {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: INDEX_NAME },
        data: { 'index.json': '{}' },
      },
    });
    await api.request({
      method: 'POST',
      path: LEASES(system),
      body: { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name: LEASE_NAME }, spec: {} },
    });
    for (const name of nodes) {
      await api.request({
        method: 'POST',
        path: customPath(DATAPLANE_NODE_PLURAL),
        body: {
          apiVersion: 'streamroute.io/v1alpha1',
          kind: 'DataplaneNode',
          metadata: { name },
          spec: { nodeName: name },
        },
      });
    }
  }

  it('waits for the release pods to go, then deletes the index, the Lease and the node reports only', async () => {
    await writeRunTimeObjects();
    const graph = {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'streamroute-graph-v1' },
      data: {},
    };
    await api.request({ method: 'POST', path: corePath('configmaps', domain), body: graph });
    const pod = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: {
        name: 'dataplane-x',
        labels: { 'app.kubernetes.io/instance': 'cleanup-test', 'app.kubernetes.io/component': 'dataplane' },
      },
      spec: { containers: [{ name: 'c', image: 'none' }] },
    };
    await api.request({ method: 'POST', path: corePath('pods', system), body: pod });
    const started = Date.now();
    setTimeout(() => {
      void api.request({
        method: 'DELETE',
        path: corePath('pods', system, 'dataplane-x'),
        query: { gracePeriodSeconds: 0 },
      });
    }, 1_500);
    const { logger, logs } = memoryLogger();
    const result = await cleanUpAfterUninstall({
      api,
      namespace: system,
      podSelector: SELECTOR,
      logger,
      clock: systemClock,
    });

    assert.ok(Date.now() - started >= 1_500, 'it waited for the pod');
    assert.equal(result.podsLeft, 0);
    assert.deepEqual(result.deleted.sort(), [
      `ConfigMap ${system}/${INDEX_NAME}`,
      `DataplaneNode ${nodes[0]}`,
      `DataplaneNode ${nodes[1]}`,
      `Lease ${system}/${LEASE_NAME}`,
    ]);
    assert.equal(await exists(api, corePath('configmaps', system, INDEX_NAME)), false);
    assert.equal(await exists(api, `${LEASES(system)}/${LEASE_NAME}`), false);
    for (const name of nodes)
      assert.equal(await exists(api, customPath(DATAPLANE_NODE_PLURAL, undefined, name)), false);
    assert.equal(
      await exists(api, corePath('configmaps', domain, 'streamroute-graph-v1')),
      true,
      'graph versions stay',
    );
    assert.ok(logs.some((line) => line['event'] === 'uninstall_cleanup'));
  });

  it('is idempotent: a second run finds nothing and succeeds', async () => {
    const { logger } = memoryLogger();
    const result = await cleanUpAfterUninstall({
      api,
      namespace: system,
      podSelector: SELECTOR,
      logger,
      clock: systemClock,
    });
    assert.deepEqual(result, { podsLeft: 0, deleted: [] });
  });

  it('gives up waiting for pods that stay, cleans up anyway and says how many were left', async () => {
    await writeRunTimeObjects();
    const pod = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: {
        name: 'operator-stuck',
        labels: { 'app.kubernetes.io/instance': 'cleanup-test', 'app.kubernetes.io/component': 'operator' },
      },
      spec: { containers: [{ name: 'c', image: 'none' }] },
    };
    await api.request({ method: 'POST', path: corePath('pods', system), body: pod });
    const { logger, logs } = memoryLogger();
    const result = await cleanUpAfterUninstall({
      api,
      namespace: system,
      podSelector: SELECTOR,
      logger,
      clock: systemClock,
      podsGoneTimeoutMs: 1_000,
    });
    assert.equal(result.podsLeft, 1);
    assert.equal(result.deleted.length, 4);
    assert.ok(logs.some((line) => line['event'] === 'uninstall_cleanup_pods_left'));
  });
});

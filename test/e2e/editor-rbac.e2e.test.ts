// The chart's streamroute-editor role, bound in ONE namespace, is all a team member needs there for
// statements, UPLOAD RESOURCE (ConfigMap and Secret versions) and rollback, and gives nothing in another
// namespace: on a REAL kube-apiserver, as a ServiceAccount with exactly that binding (issue 16, item 4).
// The role's rules themselves are the RBAC table's rows (helm-chart.e2e.test.ts).
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KubeApi } from '../../dataplane/kube-client/kube-api.js';
import { corePath } from '../../dataplane/kube/contract.js';
import { eventually, runStreamroute, serviceAccountKubeconfig } from '../support/cluster-processes.js';
import { renderChart, requireHelmOrSkip } from '../support/helm.js';
import { requireKubeOrSkip, sharedKubeApiServer, type KubeTestServer } from '../support/kube-apiserver.js';
import { applyRaw, createNamespace, installCrds, kubeClients } from '../support/kube-client.js';

const ROOT = join(import.meta.dirname, '..', '..');
const TEAM = 'editor-rbac-team';
const OTHER = 'editor-rbac-other';

interface Item {
  metadata: { name: string; namespace?: string };
  kind?: string;
  data?: Record<string, string>;
}

describe('the chart’s editor role bound in one namespace (real kube-apiserver)', function () {
  this.timeout(120_000);
  let server: KubeTestServer;
  let admin: KubeApi;
  let kubeconfig: string;
  let scratch: string;
  const cli = (args: string[]) => runStreamroute(['--kubeconfig', kubeconfig, ...args]);

  before(async function () {
    await requireKubeOrSkip(this);
    await requireHelmOrSkip(this);
    server = await sharedKubeApiServer();
    const clients = kubeClients(server);
    await installCrds(clients);
    for (const namespace of [TEAM, OTHER]) await createNamespace(clients, namespace);
    admin = new KubeApi({
      kubeconfig: server.kubeconfigPath,
      rateLimit: { qps: 100, burst: 100 },
      userAgent: 'test',
    });
    const rendered = (await renderChart({ rbac: { aggregateToEdit: false } })) as Item[];
    const editor = rendered.find(
      (item) => item.kind === 'ClusterRole' && item.metadata.name.endsWith('-editor'),
    );
    assert.ok(editor !== undefined, 'the chart renders an editor ClusterRole');
    await applyRaw(server, `/apis/rbac.authorization.k8s.io/v1/clusterroles/${editor.metadata.name}`, editor);
    await applyRaw(server, `/api/v1/namespaces/${TEAM}/serviceaccounts/alice`, {
      apiVersion: 'v1',
      kind: 'ServiceAccount',
      metadata: { name: 'alice', namespace: TEAM },
    });
    await applyRaw(
      server,
      `/apis/rbac.authorization.k8s.io/v1/namespaces/${TEAM}/rolebindings/alice-editor`,
      {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'RoleBinding',
        metadata: { name: 'alice-editor', namespace: TEAM },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: editor.metadata.name },
        subjects: [{ kind: 'ServiceAccount', name: 'alice', namespace: TEAM }],
      },
    );
    kubeconfig = await serviceAccountKubeconfig(server, TEAM, 'alice');
    scratch = mkdtempSync(join(tmpdir(), 'streamroute-editor-rbac-'));
  });
  after(() => {
    if (scratch !== undefined) rmSync(scratch, { recursive: true, force: true });
  });

  it('applies statements, uploads resource versions (a private key as a Secret) and rolls back in its namespace', async () => {
    const applied = await cli([
      '-d',
      TEAM,
      '-c',
      'CREATE SCHEMA orders (order_id STRING, amount I64); CREATE RELAY orders SCHEMA orders UNBRANCHED;',
    ]);
    assert.equal(applied.code, 0, applied.stderr);
    const protos = join(ROOT, 'examples/codecs/protos');
    const uploaded = await cli([
      '-d',
      TEAM,
      '-c',
      `CREATE RESOURCE protos; UPLOAD RESOURCE protos VERSION '${protos}';`,
    ]);
    assert.equal(uploaded.code, 0, uploaded.stderr);
    assert.match(uploaded.stdout, /uploaded resource protos version 1/);
    const keys = join(scratch, 'keys');
    mkdirSync(keys, { recursive: true });
    writeFileSync(join(keys, 'tls.key'), '-----BEGIN PRIVATE KEY-----\nMIIB\n-----END PRIVATE KEY-----\n');
    const secret = await cli([
      '-d',
      TEAM,
      '-c',
      `CREATE RESOURCE pki; UPLOAD RESOURCE pki VERSION '${keys}';`,
    ]);
    assert.equal(secret.code, 0, secret.stderr);
    assert.match(secret.stdout, /uploaded resource pki version 1/);
    // rollback reads kept graph versions and pins the pointer (no operator here: written as it would)
    for (const name of ['streamroute-graph-v1', 'streamroute-graph-v2', 'streamroute-graph']) {
      const labels = name === 'streamroute-graph' ? {} : { 'streamroute.io/graph-version': name.slice(-1) };
      await admin.request({
        method: 'POST',
        path: corePath('configmaps', TEAM),
        body: { metadata: { name, labels }, data: { version: '2' } },
      });
    }
    const pinned = await cli(['rollback', '-d', TEAM, '--to', '1']);
    assert.equal(pinned.code, 0, pinned.stderr);
    await eventually('the pin', async () => {
      const pointer = await admin.request<Item>({ path: corePath('configmaps', TEAM, 'streamroute-graph') });
      return pointer.data?.['pinned'] === '1';
    });
    const unpinned = await cli(['rollback', '-d', TEAM, '--unpin']);
    assert.equal(unpinned.code, 0, unpinned.stderr);
  });

  it('gets 403 for the same statements in another namespace', async () => {
    const refused = await cli(['-d', OTHER, '-c', 'CREATE SCHEMA orders (order_id STRING);']);
    assert.notEqual(refused.code, 0);
    assert.match(refused.stderr, /403|forbidden/i);
  });
});

// Names as typed on a REAL kube-apiserver (docs/decisions/0025-names-as-typed.md): the origin marker,
// annotation streamroute.io/identifier, survives the CLI's server-side apply of statements and
// `kubectl apply` (client-side and server-side) of `streamroute convert` output; the operator's compile
// then names statement-made objects as typed in their Accepted conditions and carries the names into the
// published graph, and YAML-made objects stay by resource name. The CLI reads the cluster back as typed.
import assert from 'node:assert/strict';
import { execFile, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { pino } from 'pino';
import { corePath, customPath } from '../../dataplane/kube/contract.js';
import { decodeGraphConfigMap, type ConfigMap } from '../../dataplane/kube/graph-configmap.js';
import { KubeApi } from '../../dataplane/kube-client/kube-api.js';
import { ManualClock } from '../../dataplane/core/clock.js';
import type { Graph } from '../../dataplane/graph/types.js';
import { GRAPH_KINDS } from '../../operator/api/index.js';
import type { ClusterObject, DomainSnapshot } from '../../operator/controller/domain-snapshot.js';
import { createDomainReconciler } from '../../operator/controller/reconcile-domain.js';
import { runCli } from '../../operator/cli/program.js';
import type { Output } from '../../operator/client/report.js';
import { requireKubeOrSkip, sharedKubeApiServer, type KubeTestServer } from '../support/kube-apiserver.js';
import { createNamespace, installCrds, kubeClients, type KubeClients } from '../support/kube-client.js';

const run = promisify(execFile);
const OPERATOR_NS = 'streamroute-system-names';
const ANNOTATION = 'streamroute.io/identifier';

const GRAPH = `CREATE SCHEMA Order_Rows (order_id STRING);
CREATE WIRE JSON SCHEMA Order_Wire MODE STRICT (order_id string);
CREATE CODEC Order_Json FROM WIRE JSON SCHEMA ORDER_WIRE TO SCHEMA order_rows;
CREATE RELAY Orders_In SCHEMA ORDER_ROWS UNBRANCHED;
CREATE VHOST Shop_Site shop.example.com;
CREATE ENDPOINT Orders_Ep ON shop_site PATH '/orders' TYPE HTTP;
CREATE HTTP ENDPOINT INGESTOR Web_In FROM ORDERS_EP MODE NO ACK ON QUIESCE DROP DECODE USING order_json
  TO ORDERS_IN INHERIT ALL UNBRANCHED FLUSH IMMEDIATE ON MESSAGE ERROR LOG ON GENERAL ERROR LOG;`;

/** A statement-made relay whose schema is missing: what `streamroute convert` writes for it. */
const DANGLING = `CREATE RELAY Pays SCHEMA No_Such_Schema UNBRANCHED;
CREATE RELAY Copies SCHEMA order_rows UNBRANCHED;
CREATE JUNCTION Copy_Out FROM ORDERS_IN TO COPIES SET nope = input.order_id UNBRANCHED FLUSH IMMEDIATE ON MESSAGE ERROR LOG;`;
const DANGLING_SSA = 'CREATE RELAY Refunds_Out SCHEMA Lost_Rows UNBRANCHED;';
/** The same kind of mistake in hand-written YAML: no annotation. */
const PLAIN_YAML = `apiVersion: streamroute.io/v1alpha1
kind: Relay
metadata: {name: plain-relay}
spec: {schema: other-missing, branching: UNBRANCHED}
`;

interface Item extends ClusterObject {
  metadata: ClusterObject['metadata'] & { annotations?: Record<string, string> };
}

const kubectlPresent = spawnSync('kubectl', ['version', '--client'], { stdio: 'ignore' }).status === 0;

describe('names as typed on a real kube-apiserver', function () {
  this.timeout(180_000);
  let server: KubeTestServer;
  let clients: KubeClients;
  let api: KubeApi;
  let scratch: string;

  before(async function () {
    await requireKubeOrSkip(this);
    server = await sharedKubeApiServer();
    clients = kubeClients(server);
    await installCrds(clients);
    await createNamespace(clients, OPERATOR_NS).catch(() => undefined);
    api = new KubeApi({
      kubeconfig: server.kubeconfigPath,
      rateLimit: { qps: 50, burst: 100 },
      userAgent: 'names-e2e',
    });
    scratch = mkdtempSync(join(tmpdir(), 'streamroute-names-kube-'));
  });
  after(() => {
    if (scratch !== undefined) rmSync(scratch, { recursive: true, force: true });
  });

  async function cli(args: string[]): Promise<{ code: number; out: string; err: string }> {
    let out = '';
    let err = '';
    const output: Output = {
      out: (text) => (out += text.endsWith('\n') ? text : `${text}\n`),
      err: (text) => (err += text.endsWith('\n') ? text : `${text}\n`),
    };
    const stdin = { isTTY: false, read: () => Promise.resolve('') };
    const code = await runCli(args, output, { env: {}, cwd: scratch, stdin });
    return { code, out, err };
  }

  /** `streamroute convert` of statements into a YAML file (applied with `kubectl -n`). */
  async function converted(statements: string, file: string): Promise<string> {
    const source = join(scratch, `${file}.sql`);
    writeFileSync(source, statements);
    const result = await cli(['convert', source]);
    assert.equal(result.code, 0, result.err);
    const path = join(scratch, `${file}.yaml`);
    writeFileSync(path, result.out);
    return path;
  }

  const kubectl = (...args: string[]) => run('kubectl', ['--kubeconfig', server.kubeconfigPath, ...args]);
  const get = (plural: string, ns: string, name: string) =>
    api.request<Item>({ path: customPath(plural, ns, name) });

  async function snapshotOf(domain: string): Promise<DomainSnapshot> {
    const objects: ClusterObject[] = [];
    for (const definition of GRAPH_KINDS) {
      const list = await api.request<{ items: ClusterObject[] }>({
        path: customPath(definition.plural, domain),
      });
      objects.push(...list.items.map((item) => ({ ...item, kind: definition.kind })));
    }
    return { domain, objects, resourceVersions: [], nodeReports: [] };
  }

  const accepted = (object: ClusterObject) =>
    ((object.status?.conditions ?? []) as { type: string; status: string; message: string }[]).find(
      (condition) => condition.type === 'Accepted',
    );

  it('the annotation survives server-side apply by the CLI and kubectl apply; the operator names objects as typed', async function () {
    if (!kubectlPresent) {
      if (process.env.CI) assert.fail('kubectl is required in CI');
      console.log('      (skipped: no kubectl on PATH)');
      this.skip();
    }
    const ns = `names-${process.pid}-${Date.now().toString(36)}`;
    await createNamespace(clients, ns);

    // Statements, server-side applied by the CLI (field manager streamroute); it reports them as typed.
    const applied = await cli(['--kubeconfig', server.kubeconfigPath, '-d', ns, '-c', GRAPH]);
    assert.equal(applied.code, 0, applied.err);
    assert.match(applied.out, /^created relay Orders_In$/m);
    assert.match(applied.out, /^created http endpoint ingestor Web_In$/m);
    const ingestor = await get('httpingestors', ns, 'web-in');
    assert.equal(ingestor.metadata.annotations?.[ANNOTATION], 'Web_In');

    // `streamroute convert` output through kubectl: client-side apply, twice, and server-side apply.
    const clientSide = await converted(DANGLING, 'pays');
    await kubectl('apply', '-n', ns, '-f', clientSide);
    await kubectl('apply', '-n', ns, '-f', clientSide);
    assert.equal((await get('relays', ns, 'pays')).metadata.annotations?.[ANNOTATION], 'Pays');
    const serverSide = await converted(DANGLING_SSA, 'refunds');
    await kubectl('apply', '-n', ns, '--server-side', '--field-manager', 'gitops', '-f', serverSide);
    assert.equal((await get('relays', ns, 'refunds-out')).metadata.annotations?.[ANNOTATION], 'Refunds_Out');
    const plain = join(scratch, 'plain.yaml');
    writeFileSync(plain, PLAIN_YAML);
    await kubectl('apply', '-n', ns, '-f', plain);

    // The operator compiles the domain: conditions name objects as their authors wrote them.
    const outcome = await createDomainReconciler()(await snapshotOf(ns), {
      api,
      clock: new ManualClock(),
      now: () => new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
      logger: pino({ level: 'silent' }),
      operatorNamespace: OPERATOR_NS,
      keepVersions: 10,
    });
    assert.equal(outcome.publishedVersion, 1);
    const status = async (name: string) => accepted(await get('relays', ns, name));
    // A missing schema makes the relay wait on it, named as its referrer would write it.
    assert.equal(
      (await status('pays'))?.message,
      'generation 1 is not running: waits on Schema/no_such_schema',
    );
    assert.equal(
      (await status('refunds-out'))?.message,
      'generation 1 is not running: waits on Schema/lost_rows',
    );
    assert.equal(
      (await status('plain-relay'))?.message,
      'generation 1 is not running: waits on Schema/other-missing',
    );
    assert.equal((await status('orders-in'))?.status, 'True');
    const junction = accepted(await get('junctions', ns, 'copy-out'));
    assert.match(
      junction?.message ?? '',
      /^error SR2003: Junction Copy_Out spec\.routes\[0\]\.set\[0\]\.field: route 1 of Junction Copy_Out, SET nope: relay Copies \(schema Order_Rows\) has no field nope;/m,
    );

    // The published graph carries the names; its entries stay keyed by resource name.
    const configMap = await api.request<ConfigMap>({
      path: corePath('configmaps', ns, 'streamroute-graph-v1'),
    });
    const decoded = decodeGraphConfigMap(configMap);
    assert.ok(decoded.ok);
    const graph = decoded.value.json as Graph;
    assert.ok(Object.hasOwn(graph.httpIngestors, 'web-in'));
    assert.deepEqual(graph.names?.httpIngestors, { 'web-in': 'Web_In' });
    assert.deepEqual(graph.names?.relays, { 'orders-in': 'Orders_In', copies: 'Copies' });

    // The CLI reads the cluster back as typed, and takes either spelling.
    const shown = await cli([
      '--kubeconfig',
      server.kubeconfigPath,
      '-d',
      ns,
      '-c',
      'SHOW RELAYS; SHOW CREATE RELAY orders-in;',
    ]);
    assert.equal(shown.code, 0, shown.err);
    assert.match(shown.out, /^Orders_In +Order_Rows /m);
    assert.match(shown.out, /^Pays +no_such_schema /m);
    assert.match(shown.out, /^plain-relay +other-missing /m);
    assert.match(shown.out, /^CREATE RELAY Orders_In SCHEMA Order_Rows UNBRANCHED;$/m);
    const described = await cli([
      '--kubeconfig',
      server.kubeconfigPath,
      '-d',
      ns,
      'describe',
      'ingestor',
      'web-in',
    ]);
    assert.match(described.out, /^HttpIngestor Web_In \(domain /);
  });
});

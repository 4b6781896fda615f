// The CLI against a REAL kube-apiserver (issue 6 part 3): statements become server-side-applied objects,
// a bad transaction applies nothing, uploads create immutable resource versions, SHOW CREATE reads the
// cluster, apply/diff/rollback. There is no kubelet, so `subscribe` (a port-forward to each data-plane
// pod) is proven on the real cluster (test/cluster) and its merging in operator/cluster/ unit tests.
import assert from 'node:assert/strict';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KubeApi } from '../../dataplane/kube-client/kube-api.js';
import { corePath, customPath } from '../../dataplane/kube/contract.js';
import { statementsToObjects } from '../../operator/language/convert.js';
import { parseScript } from '../../operator/language/parse.js';
import { runCli } from '../../operator/cli/program.js';
import type { Output } from '../../operator/client/report.js';
import { requireKubeOrSkip, sharedKubeApiServer, type KubeTestServer } from '../support/kube-apiserver.js';
import { createNamespace, installCrds, kubeClients, type KubeClients } from '../support/kube-client.js';

const ROOT = join(import.meta.dirname, '..', '..');
interface Item {
  metadata: {
    name: string;
    annotations?: Record<string, string>;
    managedFields?: { manager?: string }[];
  };
  spec?: Record<string, unknown>;
  data?: Record<string, string>;
  immutable?: boolean;
}

describe('the CLI on a real kube-apiserver (cluster mode)', function () {
  this.timeout(120_000);
  let server: KubeTestServer;
  let clients: KubeClients;
  let api: KubeApi;
  let scratch: string;
  let serial = 0;

  before(async function () {
    await requireKubeOrSkip(this);
    server = await sharedKubeApiServer();
    clients = kubeClients(server);
    await installCrds(clients);
    api = new KubeApi({
      kubeconfig: server.kubeconfigPath,
      rateLimit: { qps: 100, burst: 100 },
      userAgent: 'test',
    });
    scratch = mkdtempSync(join(tmpdir(), 'streamroute-cli-cluster-'));
  });
  after(() => {
    if (scratch !== undefined) rmSync(scratch, { recursive: true, force: true });
  });

  async function namespace(): Promise<string> {
    const name = `cli-${process.pid}-${Date.now().toString(36)}-${serial++}`;
    await createNamespace(clients, name);
    return name;
  }

  async function cli(
    args: string[],
    options: { stdin?: string; signal?: AbortSignal; env?: Record<string, string>; flags?: string[] } = {},
  ) {
    let out = '';
    let err = '';
    const output: Output = {
      out: (text) => (out += text.endsWith('\n') ? text : `${text}\n`),
      err: (text) => (err += text.endsWith('\n') ? text : `${text}\n`),
    };
    const stdin = { isTTY: false, read: () => Promise.resolve(options.stdin ?? '') };
    const context = {
      env: options.env ?? {},
      cwd: scratch,
      stdin,
      ...(options.signal === undefined ? {} : { signal: options.signal }),
    };
    const code = await runCli(
      [...(options.flags ?? ['--kubeconfig', server.kubeconfigPath]), ...args],
      output,
      context,
    );
    return { code, out, err };
  }

  const get = (path: string) => api.request<Item>({ path });
  const list = async (path: string) => (await api.request<{ items: Item[] }>({ path })).items;

  it('applies statements server-side with the field manager streamroute', async () => {
    const ns = await namespace();
    const result = await cli([
      '-d',
      ns,
      '-c',
      'CREATE SCHEMA orders (order_id STRING); CREATE RELAY orders SCHEMA orders UNBRANCHED;',
    ]);
    assert.equal(result.code, 0, result.err);
    assert.match(result.out, /^created schema orders\ncreated relay orders\n$/);
    const relay = await get(customPath('relays', ns, 'orders'));
    assert.ok(relay.metadata.managedFields?.some((field) => field.manager === 'streamroute'));
    const again = await cli([
      '-d',
      ns,
      '-c',
      'CREATE OR REPLACE RELAY orders SCHEMA orders UNBRANCHED; DROP RELAY orders;',
    ]);
    assert.equal(again.code, 0, again.err);
    assert.match(again.out, /unchanged relay orders\ndeleted relay orders/);
  });

  it('applies nothing of a BEGIN … COMMIT with one bad statement, and prints its line:column', async () => {
    const ns = await namespace();
    const script =
      'BEGIN;\nCREATE SCHEMA orders (order_id STRING);\nCREATE RELAY orders SCHEMA nope UNBRANCHED;\nCOMMIT;\n';
    const result = await cli(['-d', ns], { stdin: script });
    assert.equal(result.code, 1, result.out);
    assert.match(result.err, /<stdin>:3:\d+: error SR\d{4}: .*nope/);
    assert.match(result.err, /nothing was applied/);
    assert.deepEqual(await list(customPath('schemas', ns)), []);
    assert.deepEqual(await list(customPath('relays', ns)), []);
  });

  it('annotates every object of a valid transaction with its id, size and members', async () => {
    const ns = await namespace();
    const script =
      'BEGIN; CREATE SCHEMA orders (order_id STRING); CREATE RELAY orders SCHEMA orders UNBRANCHED; COMMIT;';
    const result = await cli(['-d', ns, '-c', script]);
    assert.equal(result.code, 0, result.err);
    const schema = (await get(customPath('schemas', ns, 'orders'))).metadata.annotations ?? {};
    const relay = (await get(customPath('relays', ns, 'orders'))).metadata.annotations ?? {};
    assert.match(schema['streamroute.io/transaction'] ?? '', /^[0-9a-f-]{36}$/);
    assert.equal(relay['streamroute.io/transaction'], schema['streamroute.io/transaction']);
    assert.equal(relay['streamroute.io/transaction-size'], '2');
    assert.equal(relay['streamroute.io/transaction-members'], 'Schema/orders,Relay/orders');
  });

  it('uploads resource versions 1 and 2 (a Secret for a private key) and binds VERSION LATEST to 2', async () => {
    const ns = await namespace();
    const keys = join(scratch, 'keys');
    mkdirSync(keys, { recursive: true });
    writeFileSync(join(keys, 'tls.key'), '-----BEGIN PRIVATE KEY-----\nMIIB\n-----END PRIVATE KEY-----\n');
    const missing = await cli([
      '-d',
      ns,
      '-c',
      `UPLOAD RESOURCE order_protos VERSION '${join(ROOT, 'examples/codecs/protos')}';`,
    ]);
    assert.equal(missing.code, 1);
    assert.match(missing.err, /there is no Resource order_protos .*CREATE RESOURCE order_protos first/);
    const protos = join(ROOT, 'examples/codecs/protos');
    const first = await cli([
      '-d',
      ns,
      '-c',
      `CREATE RESOURCE order_protos; UPLOAD RESOURCE order_protos VERSION '${protos}';`,
    ]);
    assert.equal(first.code, 0, first.err);
    assert.match(first.out, /uploaded resource order_protos version 1/);
    const second = await cli(['-d', ns, '-c', `UPLOAD RESOURCE order_protos VERSION '${protos}';`]);
    assert.match(second.out, /uploaded resource order_protos version 2/, second.err);
    const v2 = await get(corePath('configmaps', ns, 'streamroute-resource-order-protos-v2'));
    assert.equal(v2.immutable, true);
    assert.deepEqual(JSON.parse(v2.metadata.annotations?.['streamroute.io/files'] ?? ''), [
      'shop/v1/line.proto',
      'shop/v1/order.proto',
    ]);
    const secret = await cli(['-d', ns, '-c', `CREATE RESOURCE pki; UPLOAD RESOURCE pki VERSION 'keys';`]);
    assert.match(secret.out, /uploaded resource pki version 1/, secret.err);
    await get(corePath('secrets', ns, 'streamroute-resource-pki-v1'));
    const codec = readFileSync(join(ROOT, 'examples/codecs/protobuf.sql'), 'utf8')
      .split('\n')
      .slice(13, 24)
      .join('\n');
    const schema =
      'CREATE SCHEMA orders (order_id STRING, customer STRING, amount I64, currency STRING, placed_at DATETIME OPTIONAL);';
    const created = await cli(['-d', ns, '-c', `${schema}\n${codec}`]);
    assert.equal(created.code, 0, created.err);
    const applied = await get(customPath('codecs', ns, 'orders-pb'));
    assert.deepEqual((applied.spec?.['protobuf'] as { using: unknown }).using, {
      resource: 'order-protos',
      version: 2,
    });
  });

  it('prints SHOW CREATE from the cluster, which converts back to the same spec', async () => {
    const ns = await namespace();
    await cli([
      '-d',
      ns,
      '-c',
      'CREATE SCHEMA orders (order_id STRING, amount I64); CREATE RELAY orders SCHEMA orders UNBRANCHED;',
    ]);
    const shown = await cli(['-d', ns, '-c', 'SHOW CREATE RELAY orders; SHOW RELAYS;']);
    assert.equal(shown.code, 0, shown.err);
    assert.match(shown.out, /^CREATE RELAY orders/);
    assert.match(shown.out, /orders +orders +streamroute/);
    const statement = shown.out
      .split('\n')
      .filter((line) => !/^(NAME|orders |\(1 row\))/.test(line))
      .join('\n');
    const converted = statementsToObjects(parseScript(statement).statements);
    const relay = await get(customPath('relays', ns, 'orders'));
    assert.deepEqual(converted.objects[0]?.spec, relay.spec);
  });

  it('applies a directory, then diff finds no differences until a file changes', async () => {
    const ns = await namespace();
    const copy = join(scratch, `quickstart-${ns}`);
    cpSync(join(ROOT, 'examples/quickstart'), copy, { recursive: true });
    const applied = await cli(['apply', '-d', ns, '-f', copy]);
    assert.equal(applied.code, 0, applied.err);
    assert.match(applied.out, /created http endpoint ingestor orders_in/);
    for (const args of [
      ['-d', ns, '-c', 'DESCRIBE INGESTOR orders_in;'],
      ['describe', 'ingestor', 'orders_in', '-d', ns],
    ]) {
      const described = await cli(args);
      assert.equal(described.code, 0, described.err);
      assert.match(
        described.out,
        /^HttpIngestor orders_in \(domain cli-.*\)\n.*\naccepted: unknown \(no condition yet\)\nready: unknown/,
      );
      assert.match(described.out, /nodes: no reports yet/);
    }
    const same = await cli(['diff', '-d', ns, '-f', copy]);
    assert.equal(same.code, 0, same.out + same.err);
    assert.match(same.out, /no differences/);
    const file = join(copy, 'graph.sql');
    writeFileSync(file, readFileSync(file, 'utf8').replace("PATH '/orders'", "PATH '/orders/v2'"));
    const changed = await cli(['diff', '-d', ns, '-f', copy]);
    assert.equal(changed.code, 1, changed.err);
    assert.match(changed.out, /changed endpoint orders_ep/);
    assert.match(changed.out, /^-  path: \/orders$/m);
    assert.match(changed.out, /^\+  path: \/orders\/v2$/m);
  });

  it('finds the cluster as kubectl does, without flags: $KUBECONFIG, else ~/.kube/config (docs/cli.md, "Choosing the target")', async () => {
    const ns = await namespace();
    const statement = ['-d', ns, '-c', 'CREATE SCHEMA orders (id STRING);'];
    const viaEnv = await cli(statement, { flags: [], env: { KUBECONFIG: server.kubeconfigPath } });
    assert.equal(viaEnv.code, 0, viaEnv.err);
    await get(customPath('schemas', ns, 'orders'));
    const home = join(scratch, `home-${serial++}`);
    mkdirSync(join(home, '.kube'), { recursive: true });
    cpSync(server.kubeconfigPath, join(home, '.kube', 'config'));
    const viaHome = await cli(['-d', ns, '-c', 'SHOW SCHEMAS;'], { flags: [], env: { HOME: home } });
    assert.equal(viaHome.code, 0, viaHome.err);
    assert.match(viaHome.out, /orders/);
    // $STREAMROUTE_SERVER comes before the kubeconfig: the node is the target, and its failure says so.
    const nodeFirst = await cli(['-c', 'SHOW SCHEMAS;'], {
      flags: [],
      env: { HOME: home, STREAMROUTE_SERVER: 'http://127.0.0.1:9' },
    });
    assert.equal(nodeFirst.code, 3);
    assert.match(
      nodeFirst.err,
      /no node answers at http:\/\/127\.0\.0\.1:9 .*\n  the node was chosen by \$STREAMROUTE_SERVER; for a cluster, pass --context NAME or --kubeconfig FILE\n$/,
    );
    // apply works on a cluster only: the kubeconfig is found although $STREAMROUTE_SERVER is set.
    writeFileSync(join(scratch, 'more.sql'), 'CREATE SCHEMA more_orders (id STRING);');
    const applied = await cli(['apply', '-d', ns, '-f', join(scratch, 'more.sql')], {
      flags: [],
      env: { HOME: home, STREAMROUTE_SERVER: 'http://127.0.0.1:9' },
    });
    assert.equal(applied.code, 0, applied.err);
    await get(customPath('schemas', ns, 'more-orders'));
  });

  it('a cluster that does not answer: exit 3, naming the rule that chose it and how to choose a node', async () => {
    const config = JSON.parse(readFileSync(server.kubeconfigPath, 'utf8')) as {
      clusters: { cluster: { server: string } }[];
      'current-context': string;
    };
    for (const entry of config.clusters) entry.cluster.server = 'https://127.0.0.1:9';
    const home = join(scratch, `home-${serial++}`);
    mkdirSync(join(home, '.kube'), { recursive: true });
    writeFileSync(join(home, '.kube', 'config'), JSON.stringify(config));
    const context = config['current-context'];
    const result = await cli(['-c', 'SHOW SCHEMAS;'], { flags: [], env: { HOME: home } });
    assert.equal(result.code, 3);
    assert.match(
      result.err,
      /^streamroute: cannot list namespace default: connect ECONNREFUSED 127\.0\.0\.1:9\n/,
    );
    assert.ok(
      result.err.endsWith(
        `\n  the cluster was chosen by the current context "${context}" of ~/.kube/config; for a node, pass --server URL or set $STREAMROUTE_SERVER\n`,
      ),
      result.err,
    );
  });

  it('refuses to roll back to a version the domain does not keep, and pins one it keeps', async () => {
    const ns = await namespace();
    for (const name of ['streamroute-graph-v1', 'streamroute-graph-v2', 'streamroute-graph']) {
      const labels = name === 'streamroute-graph' ? {} : { 'streamroute.io/graph-version': name.slice(-1) };
      await api.request({
        method: 'POST',
        path: corePath('configmaps', ns),
        body: { metadata: { name, labels }, data: { version: '2' } },
      });
    }
    const unknown = await cli(['rollback', '-d', ns, '--to', '7']);
    assert.equal(unknown.code, 1);
    assert.match(unknown.err, /no graph version 7 .*kept versions: 1, 2/);
    const pinned = await cli(['rollback', '-d', ns, '--to', '1']);
    assert.equal(pinned.code, 0, pinned.err);
    assert.equal((await get(corePath('configmaps', ns, 'streamroute-graph'))).data?.['pinned'], '1');
    const unpinned = await cli(['rollback', '-d', ns, '--unpin']);
    assert.equal(unpinned.code, 0, unpinned.err);
    assert.equal((await get(corePath('configmaps', ns, 'streamroute-graph'))).data?.['pinned'], undefined);
  });
});

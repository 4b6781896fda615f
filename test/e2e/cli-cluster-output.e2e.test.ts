// `-o table|wide|json|yaml` on a cluster, against a REAL kube-apiserver: SHOW, SHOW CREATE and DESCRIBE
// statements (planned against the namespace as listed), the `describe` command (the status the operator
// wrote, and no data-plane pods: no kubelet here) and `diff`, each read back and checked against the
// objects the API server holds.
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { runCli } from '../../operator/cli/program.js';
import type { Output } from '../../operator/client/report.js';
import { requireKubeOrSkip, sharedKubeApiServer, type KubeTestServer } from '../support/kube-apiserver.js';
import { createNamespace, installCrds, kubeClients, type KubeClients } from '../support/kube-client.js';

const ROOT = join(import.meta.dirname, '..', '..');

interface Entry {
  statement: string;
  type: string;
  items?: { name: string; declaredIn: string; resource: { metadata: { name: string }; spec: object } }[];
  resource?: { kind: string; metadata: { name: string; namespace?: string }; spec: object };
  create?: string;
  status?: object;
}

describe('the CLI on a real kube-apiserver: -o table|wide|json|yaml', function () {
  this.timeout(120_000);
  let server: KubeTestServer;
  let clients: KubeClients;
  let scratch: string;
  let ns: string;
  let manifests: string;

  async function cli(args: string[]) {
    let out = '';
    let err = '';
    const line = (text: string) => (text.endsWith('\n') ? text : `${text}\n`);
    const output: Output = { out: (text) => (out += line(text)), err: (text) => (err += line(text)) };
    const context = { env: {}, cwd: scratch, stdin: { isTTY: false, read: () => Promise.resolve('') } };
    const code = await runCli(['--kubeconfig', server.kubeconfigPath, ...args], output, context);
    return { code, out, err };
  }

  /** The JSON and the YAML of the same command, which must hold the same document. */
  async function documentOf(args: string[], expectedCode = 0): Promise<Record<string, unknown>> {
    const json = await cli([...args, '-o', 'json']);
    const yaml = await cli(['-o', 'yaml', ...args]);
    assert.equal(json.code, expectedCode, json.err);
    assert.equal(yaml.code, expectedCode, yaml.err);
    const document = JSON.parse(json.out) as Record<string, unknown>;
    assert.deepEqual(parse(yaml.out), document);
    assert.equal(document['apiVersion'], 'streamroute.io/cli/v1');
    return document;
  }

  before(async function () {
    await requireKubeOrSkip(this);
    server = await sharedKubeApiServer();
    clients = kubeClients(server);
    await installCrds(clients);
    scratch = mkdtempSync(join(tmpdir(), 'streamroute-cli-output-'));
    ns = `out-${process.pid}-${Date.now().toString(36)}`;
    await createNamespace(clients, ns);
    manifests = join(scratch, 'quickstart');
    cpSync(join(ROOT, 'examples/quickstart'), manifests, { recursive: true });
    const applied = await cli(['apply', '-d', ns, '-f', manifests]);
    assert.equal(applied.code, 0, applied.err);
  });
  after(() => {
    if (scratch !== undefined) rmSync(scratch, { recursive: true, force: true });
  });

  it('SHOW: the table, the wide table and the document list the same objects', async () => {
    const table = await cli(['-d', ns, '-c', 'SHOW INGESTORS;']);
    assert.equal(table.code, 0, table.err);
    assert.match(table.out, /^orders_in +HTTP +orders_ep +orders_json +orders +streamroute$/m);
    const wide = await cli(['-d', ns, '-o', 'wide', '-c', 'SHOW INGESTORS;']);
    assert.match(wide.out, /^NAME +TYPE +FROM +CODEC +TO +MODE +ON QUIESCE +ON MESSAGE ERROR +DECLARED IN$/m);
    assert.match(
      wide.out,
      /^orders_in +HTTP +orders_ep +orders_json +orders +NO_ACK +BUFFER MAX SIZE 1MiB +LOG +streamroute$/m,
    );
    const document = await documentOf(['-d', ns, '-c', 'SHOW INGESTORS; SHOW RELAYS;']);
    assert.equal(document['kind'], 'StatementResults');
    assert.equal(document['domain'], ns);
    const results = document['results'] as Entry[];
    assert.deepEqual(
      results.map((entry) => [entry.statement, entry.type, entry.items?.map((item) => item.name)]),
      [
        ['SHOW INGESTORS', 'show', ['orders_in']],
        ['SHOW RELAYS', 'show', ['orders']],
      ],
    );
    const item = results[0]?.items?.[0];
    assert.equal(item?.declaredIn, 'streamroute');
    assert.equal(item?.resource.metadata.name, 'orders-in');
    assert.deepEqual((item?.resource.spec as { endpoint: string }).endpoint, 'orders-ep');
  });

  it('SHOW CREATE and DESCRIBE: the resource as the cluster holds it, its statement and its status', async () => {
    const table = await cli(['-d', ns, '-c', 'SHOW CREATE CODEC orders_json;']);
    const document = await documentOf([
      '-d',
      ns,
      '-c',
      'SHOW CREATE CODEC orders_json; DESCRIBE INGESTOR orders_in;',
    ]);
    const [create, described] = document['results'] as Entry[];
    assert.equal(create?.type, 'show-create');
    assert.equal(create?.resource?.metadata.namespace, ns);
    assert.equal(table.out, `${create?.create ?? ''}\n`);
    assert.equal(described?.type, 'describe-status');
    assert.equal(described?.resource?.kind, 'HttpIngestor');
    assert.deepEqual(described?.status, {}, 'no operator runs here: nothing wrote a status');
  });

  it('the describe command: the Description document with the status and the nodes', async () => {
    const document = await documentOf(['describe', 'ingestor', 'orders_in', '-d', ns]);
    assert.deepEqual(document, {
      apiVersion: 'streamroute.io/cli/v1',
      kind: 'Description',
      domain: ns,
      target: 'cluster',
      status: {},
      nodes: [],
    });
  });

  it('graph: the namespace drawn as its files would be, with --rates from the data-plane pods', async () => {
    const drawn = await cli(['graph', '-d', ns, '-o', 'json']);
    assert.equal(drawn.code, 0, drawn.err);
    const files = await cli(['graph', '-d', ns, manifests, '-o', 'json']);
    assert.equal(files.code, 0, files.err);
    const cluster = JSON.parse(drawn.out) as { domain: string; nodes: unknown[]; edges: unknown[] };
    assert.equal(cluster.domain, ns);
    assert.deepEqual(cluster, JSON.parse(files.out));
    // --rates reads the data-plane pods' /metrics; this API server has no kubelet, so none run: zeros.
    const rates = await cli(['graph', '-d', ns, '--rates', '0.1', '-o', 'json', '--operator-namespace', ns]);
    assert.equal(rates.code, 0, rates.err);
    const withRates = JSON.parse(rates.out) as { nodes: { id: string; rates?: object }[] };
    assert.deepEqual(withRates.nodes.find((node) => node.id === 'ingestor/orders-in')?.rates, {
      in: 0,
      out: 0,
    });
  });

  it('diff: the Diff document says what the table says', async () => {
    const same = await documentOf(['diff', '-d', ns, '-f', manifests]);
    assert.equal(same['differences'], 0);
    const changes = same['changes'] as { change: string; kind: string; name: string }[];
    assert.deepEqual(
      changes.map((change) => change.change),
      changes.map(() => 'unchanged'),
    );
    assert.ok(changes.some((change) => change.kind === 'Endpoint' && change.name === 'orders_ep'));
    const file = join(manifests, 'graph.sql');
    writeFileSync(file, readFileSync(file, 'utf8').replace("PATH '/orders'", "PATH '/orders/v2'"));
    const table = await cli(['diff', '-d', ns, '-f', manifests]);
    assert.equal(table.code, 1);
    const changed = await documentOf(['diff', '-d', ns, '-f', manifests], 1);
    assert.equal(changed['differences'], 1);
    const endpoint = (changed['changes'] as Record<string, unknown>[]).find(
      (change) => change['change'] === 'changed',
    );
    assert.deepEqual([endpoint?.['kind'], endpoint?.['name']], ['Endpoint', 'orders_ep']);
    assert.equal((endpoint?.['before'] as { path: string }).path, '/orders');
    assert.equal((endpoint?.['after'] as { path: string }).path, '/orders/v2');
    assert.ok(table.out.includes(endpoint?.['diff'] as string), 'the same unified diff as the table');
  });
});

// The product as it runs on a cluster, every part real except the kubelet: a kube-apiserver with etcd,
// the chart's CRDs, ServiceAccounts and RBAC; the operator as a child process under its service account
// token; two data-plane processes as two nodes under theirs; the CLI as a child process; rsyslog as the
// emitter's receiver. Statements go in through the CLI and records come out of the nodes' HTTP and syslog
// listeners at a subscriber and at rsyslog. Then the failure cases: an invalid change, a bad transaction,
// restarts of the operator, a node and the API server, and a leader handover.
import assert from 'node:assert/strict';
import type { ClientRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { readFileSync } from 'node:fs';
import { Socket } from 'node:net';
import { KubeApi } from '../../dataplane/kube-client/kube-api.js';
import {
  corePath,
  customPath,
  INDEX_KEY,
  INDEX_NAME,
  type GraphIndex,
} from '../../dataplane/kube/contract.js';
import { fetchAdmin, StreamClient } from '../fixtures/admin-client.js';
import { requireKubeOrSkip, startKubeApiServer, type KubeTestServer } from '../support/kube-apiserver.js';
import { applyRaw, createNamespace, installCrds, kubeClients, getTable } from '../support/kube-client.js';
import { sendOnce } from '../support/raw-http.js';
import { requireSyslogPeer, RSYSLOGD } from '../support/syslog-peers.js';
import { freeTcpPort, type WireReceiver } from '../support/syslog-wire-peer.js';
import { startRsyslogReceiver } from '../support/syslog-wire-rsyslog.js';
import { renderChart, requireHelmOrSkip } from '../support/helm.js';
import {
  eventually,
  runStreamroute,
  serviceAccountKubeconfig,
  StreamrouteProcess,
} from '../support/cluster-processes.js';
import { LIVE_GROUP, LIVE_VERSION } from '../../operator/access/aggregated-api.js';
import { LIVE_SERVICE, register, registerDataplanePod } from '../support/live-api.js';
import { signed, testPki, type PemPair } from '../support/test-pki.js';

const SYSTEM = 'streamroute-system';

const byOrder = (a: unknown, b: unknown): number => JSON.stringify(a).localeCompare(JSON.stringify(b));

/** A GET as a client-certificate user; the body parsed when it is JSON. */
function getJson(
  url: string,
  auth: { cert: string; key: string; ca: string },
): Promise<{ status: number; body: unknown }> {
  return new Promise((resolve, reject) => {
    const outgoing = httpsRequest(url, { ...auth, agent: false }, (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (text += chunk));
      response.on('end', () => {
        let body: unknown = text;
        try {
          body = JSON.parse(text);
        } catch {
          // not JSON
        }
        resolve({ status: response.statusCode ?? 0, body });
      });
    });
    outgoing.on('error', reject);
    outgoing.end();
  });
}

/** A streamed GET whose lines are collected until close(). */
class LiveStream {
  readonly lines: string[] = [];
  private constructor(private readonly outgoing: ClientRequest) {}

  static open(url: string, auth: { cert: string; key: string; ca: string }): Promise<LiveStream> {
    return new Promise((resolve, reject) => {
      const outgoing = httpsRequest(url, { ...auth, agent: false }, (response) => {
        if (response.statusCode !== 200) {
          reject(new Error(`HTTP ${response.statusCode ?? 0}`));
          return;
        }
        let partial = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          const parts = (partial + chunk).split('\n');
          partial = parts.pop() ?? '';
          stream.lines.push(...parts.filter((line) => !line.startsWith('{"@warning"')));
        });
        resolve(stream);
      });
      const stream = new LiveStream(outgoing);
      outgoing.on('error', (error) => reject(error));
      outgoing.end();
    });
  }

  close(): void {
    this.outgoing.destroy();
  }
}
const DOMAIN = 'shop';

interface KubeItem {
  metadata: { name: string; namespace?: string; labels?: Record<string, string> };
  data?: Record<string, string>;
  status?: Record<string, unknown>;
  kind?: string;
}

function graphSql(syslogPort: number, receiverPort: number): string {
  return `
CREATE SCHEMA orders (order_id STRING, amount I64);
CREATE WIRE JSON SCHEMA orders_wire MODE STRICT (order_id string, amount integer);
CREATE CODEC orders_json FROM WIRE JSON SCHEMA orders_wire TO SCHEMA orders;
CREATE RELAY orders SCHEMA orders UNBRANCHED;
CREATE VHOST local localhost;
CREATE ENDPOINT orders_ep ON local PATH '/orders' TYPE HTTP;
CREATE HTTP ENDPOINT INGESTOR orders_in FROM orders_ep MODE NO ACK
  ON QUIESCE BUFFER MAX SIZE 1MiB DECODE USING orders_json
  TO orders INHERIT ALL UNBRANCHED FLUSH IMMEDIATE ON MESSAGE ERROR LOG ON GENERAL ERROR LOG;
CREATE SCHEMA line (facility U8, severity U8, timestamp DATETIME OPTIONAL, hostname STRING OPTIONAL,
  app_name STRING OPTIONAL, proc_id STRING OPTIONAL, msg_id STRING OPTIONAL,
  structured_data STRING OPTIONAL, message STRING);
CREATE CODEC syslog FROM SYSLOG TO SCHEMA line;
CREATE RELAY lines SCHEMA line UNBRANCHED;
CREATE CLIENT node_tcp TYPE SYSLOG CONFIG { 'protocol' = 'tcp', 'addr' = '0.0.0.0:${syslogPort}' };
CREATE CLIENT receiver TYPE SYSLOG CONFIG { 'protocol' = 'tcp', 'addr' = '127.0.0.1:${receiverPort}' };
CREATE SYSLOG LISTENER INGESTOR tcp_in FROM node_tcp MODE NO ACK ON QUIESCE SUSPEND DECODE USING syslog
  TO lines INHERIT ALL UNBRANCHED FLUSH IMMEDIATE ON MESSAGE ERROR LOG ON GENERAL ERROR LOG;
CREATE EMITTER out FROM lines TO SYSLOG receiver MODE NO_ACK RETRY POLICY BACKOFF 100ms MAX 2s
  ENCODE USING syslog FLUSH IMMEDIATE ON MESSAGE ERROR LOG ON GENERAL ERROR LOG;
`;
}

interface Node {
  name: string;
  bindHost: string;
  httpPort: number;
  adminPort: number;
  healthPort: number;
  /** The operator's listener (--internal-listen-addr) on bindHost, the node's "pod IP". */
  internalPort: number;
  process: StreamrouteProcess;
}

/** The live API's serving certificate and the internal channel's (decision 0019), from the test CA. */
function liveCertificates(): { serving: PemPair; dataplane: PemPair; operator: PemPair } {
  const pki = testPki();
  return {
    serving: signed(pki.dir, 'e2e-live', pki.ca, {
      cn: `${LIVE_SERVICE}.${SYSTEM}.svc`,
      ext: `subjectAltName=DNS:${LIVE_SERVICE}.${SYSTEM}.svc`,
      usage: 'serverAuth',
    }),
    dataplane: signed(pki.dir, 'e2e-dataplane-internal', pki.ca, {
      cn: 'streamroute-dataplane',
      ext: 'subjectAltName=DNS:streamroute-dataplane',
      usage: 'serverAuth',
    }),
    operator: signed(pki.dir, 'e2e-operator-internal', pki.ca, {
      cn: 'streamroute-operator',
      ext: 'subjectAltName=DNS:streamroute-operator',
      usage: 'clientAuth',
    }),
  };
}

describe('streamroute on a real kube-apiserver (operator, two data-plane nodes, CLI, rsyslog)', function () {
  this.timeout(180_000);
  let server: KubeTestServer;
  let admin: KubeApi;
  let adminKubeconfig: string;
  let operatorKubeconfig: string;
  let dataplaneKubeconfig: string;
  let receiver: WireReceiver;
  let syslogPort: number;
  const operators: StreamrouteProcess[] = [];
  const nodes: Node[] = [];
  const certificates = liveCertificates();
  const livePorts = new Map<string, number>();
  /** The chart's ClusterRole for reading a domain live (templates/live-api.yaml). */
  let liveReaderRole = '';
  /** The chart's ClusterRole for changing a domain's graph (templates/editor-clusterrole.yaml). */
  let editorRole = '';

  const cli = (args: readonly string[], stdin?: string) =>
    runStreamroute(['--kubeconfig', adminKubeconfig, '-d', DOMAIN, ...args], stdin);

  async function startOperator(identity: string): Promise<StreamrouteProcess> {
    const healthPort = await freeTcpPort();
    const livePort = await freeTcpPort();
    livePorts.set(identity, livePort);
    const operator = new StreamrouteProcess(identity, [
      'operator',
      '--kubeconfig',
      operatorKubeconfig,
      '--namespace',
      SYSTEM,
      '--identity',
      identity,
      '--health-listen-addr',
      `127.0.0.1:${healthPort}`,
      '--log-level',
      'debug',
      // the live API, reaching the nodes on their internal listeners
      '--live-listen-addr',
      `127.0.0.1:${livePort}`,
      '--live-tls-cert-file',
      certificates.serving.certFile,
      '--live-tls-key-file',
      certificates.serving.keyFile,
      '--internal-ca-file',
      testPki().ca.certFile,
      '--internal-client-cert-file',
      certificates.operator.certFile,
      '--internal-client-key-file',
      certificates.operator.keyFile,
    ]);
    operators.push(operator);
    return operator;
  }

  async function startNode(
    name: string,
    bindHost: string,
    ports?: Pick<Node, 'httpPort' | 'adminPort' | 'healthPort' | 'internalPort'>,
  ) {
    const internalPort = ports?.internalPort ?? (await freeTcpPort());
    const httpPort = ports?.httpPort ?? (await freeTcpPort());
    const adminPort = ports?.adminPort ?? (await freeTcpPort());
    const healthPort = ports?.healthPort ?? (await freeTcpPort());
    const process = new StreamrouteProcess(name, [
      'dataplane',
      '--kubeconfig',
      dataplaneKubeconfig,
      '--node-name',
      name,
      '--operator-namespace',
      SYSTEM,
      '--http-listen-addr',
      `127.0.0.1:${httpPort}`,
      '--https-listen-addr',
      `127.0.0.1:${await freeTcpPort()}`,
      // As the chart runs it: the records API on loopback, probes and metrics on their own listener.
      '--admin-listen-addr',
      `127.0.0.1:${adminPort}`,
      '--health-listen-addr',
      `127.0.0.1:${healthPort}`,
      '--bind-host',
      bindHost,
      '--internal-listen-addr',
      `${bindHost}:${internalPort}`,
      '--internal-tls-cert-file',
      certificates.dataplane.certFile,
      '--internal-tls-key-file',
      certificates.dataplane.keyFile,
      '--internal-client-ca-file',
      testPki().ca.certFile,
    ]);
    const node = { name, bindHost, httpPort, adminPort, healthPort, internalPort, process };
    return node;
  }

  const graphVersions = async (): Promise<number[]> => {
    const list = await admin.request<{ items: KubeItem[] }>({
      path: corePath('configmaps', DOMAIN),
      query: { labelSelector: 'app.kubernetes.io/component=graph' },
    });
    return list.items.map((item) => Number(item.metadata.labels?.['streamroute.io/graph-version'])).sort();
  };

  const pointerVersion = async (): Promise<number> => {
    const pointer = await admin.request<KubeItem>({
      path: corePath('configmaps', DOMAIN, 'streamroute-graph'),
    });
    return Number(pointer.data?.['version']);
  };

  /** The graph version a node's report says it runs for the domain. */
  const reportedVersion = async (node: string): Promise<number | undefined> => {
    const report = await admin.request<KubeItem>({ path: customPath('dataplanenodes', undefined, node) });
    const domains = (report.status?.['domains'] ?? []) as { domain: string; graphVersion: number }[];
    return domains.find((entry) => entry.domain === DOMAIN)?.graphVersion;
  };

  const allNodesRun = (version: number) =>
    eventually(`both nodes to report graph v${version}`, async () => {
      for (const node of nodes) if ((await reportedVersion(node.name)) !== version) return false;
      return true;
    });

  const post = (node: Node, body: unknown) =>
    sendOnce(node.httpPort, {
      method: 'POST',
      path: '/orders',
      headers: { host: 'localhost', 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });

  async function sendSyslog(host: string, message: string): Promise<void> {
    const frame = `<14>1 2026-11-24T10:00:00Z web app - - - ${message}`;
    const socket = new Socket();
    await new Promise<void>((resolve, reject) => {
      socket.once('error', reject);
      socket.connect(syslogPort, host, resolve);
    });
    await new Promise<void>((resolve) => socket.end(`${Buffer.byteLength(frame)} ${frame}`, resolve));
  }

  const condition = async (plural: string, name: string, type: string) => {
    const object = await admin.request<KubeItem>({ path: customPath(plural, DOMAIN, name) });
    const conditions = (object.status?.['conditions'] ?? []) as {
      type: string;
      status: string;
      reason: string;
      message: string;
    }[];
    return conditions.find((c) => c.type === type);
  };

  before(async function () {
    await requireKubeOrSkip(this);
    await requireHelmOrSkip(this);
    requireSyslogPeer(this, 'rsyslogd', RSYSLOGD);
    server = await startKubeApiServer();
    adminKubeconfig = server.kubeconfigPath;
    admin = new KubeApi({
      kubeconfig: adminKubeconfig,
      rateLimit: { qps: 100, burst: 200 },
      userAgent: 'e2e',
    });
    const clients = kubeClients(server);
    await installCrds(clients);
    await createNamespace(clients, SYSTEM);
    await createNamespace(clients, DOMAIN);
    // The chart's ServiceAccounts and RBAC, exactly as rendered.
    const rendered = (await renderChart({}, { namespace: SYSTEM })) as KubeItem[];
    const rbacKinds = ['ServiceAccount', 'ClusterRole', 'ClusterRoleBinding', 'Role', 'RoleBinding'];
    const roleNamed = (suffix: string): string =>
      rendered.find((item) => item.kind === 'ClusterRole' && item.metadata.name.endsWith(suffix))?.metadata
        .name ?? '';
    liveReaderRole = roleNamed('-live-reader');
    editorRole = roleNamed('-editor');
    for (const object of rendered.filter((item) => rbacKinds.includes(item.kind ?? ''))) {
      await applyRaw(server, objectPath(object), object);
    }
    const accounts = rendered.filter((item) => item.kind === 'ServiceAccount');
    const account = (component: string) =>
      accounts.find((item) => item.metadata.labels?.['app.kubernetes.io/component'] === component)?.metadata
        .name;
    operatorKubeconfig = await serviceAccountKubeconfig(server, SYSTEM, account('operator') ?? 'missing');
    dataplaneKubeconfig = await serviceAccountKubeconfig(server, SYSTEM, account('dataplane') ?? 'missing');
    receiver = await startRsyslogReceiver({ out: { transport: 'tcp' } });
    syslogPort = await freeTcpPort();
    const operator = await startOperator('operator-1');
    // The first test's statements must land in one graph version: an operator that takes the lease while
    // the CLI is still applying compiles what it finds at once (a v1 of half the objects, then v2).
    await eventually('operator-1 to lead', () => operator.log().includes('"became leader"'));
    nodes.push(await startNode('node-a', '127.0.0.2'), await startNode('node-b', '127.0.0.3'));
    // No kubelet: each node's Pod is written as the kubelet would report it, its IP the node's address.
    for (const node of nodes) {
      const pod = { name: node.name, ip: node.bindHost, internalPort: node.internalPort };
      await registerDataplanePod(server, admin, SYSTEM, pod);
    }
    await register(server, livePorts.get('operator-1') ?? 0, testPki().ca.cert);
  });

  after(async () => {
    for (const process of [...operators, ...nodes.map((node) => node.process)])
      await process.kill().catch(() => {});
    await receiver?.stop();
    await server?.stop();
  });

  afterEach(function () {
    if (this.currentTest?.state === 'failed') {
      for (const process of [...operators, ...nodes.map((node) => node.process)]) {
        console.log(`--- ${process.name} log (tail) ---\n${process.log().split('\n').slice(-40).join('\n')}`);
      }
    }
  });

  it('applies statements with the CLI, publishes graph v1, and both nodes serve HTTP and syslog', async () => {
    const applied = await cli(['-f', '-'], graphSql(syslogPort, receiver.ports['out'] ?? 0));
    assert.equal(applied.code, 0, applied.stderr);
    // The operator writes the version, then the pointer, then the index: each is seen in turn.
    await eventually('graph v1', async () => (await graphVersions()).includes(1));
    await eventually('the pointer at v1', async () => (await pointerVersion()) === 1);
    const indexVersion = async (): Promise<number | undefined> => {
      const index = await admin.request<KubeItem>({ path: corePath('configmaps', SYSTEM, INDEX_NAME) });
      return (JSON.parse(index.data?.[INDEX_KEY] ?? '{}') as GraphIndex).domains[DOMAIN]?.version;
    };
    await eventually('the index at v1', async () => (await indexVersion()) === 1);
    await allNodesRun(1);

    const subscribers = await Promise.all(
      nodes.map((node) =>
        StreamClient.open(node.adminPort, `/v1/domains/${DOMAIN}/relays/orders/subscriptions/e2e`),
      ),
    );
    for (const [i, node] of nodes.entries()) {
      const answer = await post(node, { order_id: `A-${i}`, amount: 100 + i });
      assert.equal(answer.status, 202);
    }
    await eventually('a record at each node', () => subscribers.every((s) => s.lines.length === 1));
    assert.deepEqual(JSON.parse(subscribers[0]?.lines[0] ?? ''), { order_id: 'A-0', amount: 100 });
    assert.deepEqual(JSON.parse(subscribers[1]?.lines[0] ?? ''), { order_id: 'A-1', amount: 101 });
    subscribers.forEach((s) => s.disconnect());

    for (const node of nodes) await sendSyslog(node.bindHost, `hello from ${node.name}`);
    const received = [await receiver.next('out', 10_000), await receiver.next('out', 10_000)];
    assert.deepEqual(received.map((fields) => fields.message).sort(), [
      'hello from node-a',
      'hello from node-b',
    ]);
  });

  it('streams a relay and describes an ingestor to a namespace reader through the API server, as that user', async () => {
    // erin has a client certificate only (no token, no Secret) and the chart's live reader role in shop
    const erin = await server.clientCertUser('erin', ['shop-team']);
    await applyRaw(
      server,
      `/apis/rbac.authorization.k8s.io/v1/namespaces/${DOMAIN}/rolebindings/shop-team-live`,
      {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'RoleBinding',
        metadata: { name: 'shop-team-live', namespace: DOMAIN },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: liveReaderRole },
        subjects: [{ kind: 'Group', name: 'shop-team', apiGroup: 'rbac.authorization.k8s.io' }],
      },
    );
    const base = `${server.server}/apis/${LIVE_GROUP}/${LIVE_VERSION}/namespaces/${DOMAIN}`;
    const auth = { ...erin, ca: server.ca };
    const stream = await LiveStream.open(`${base}/relays/orders/log?subscription=erin`, auth);
    try {
      await eventually('both nodes to serve the live subscription', async () => {
        for (const node of nodes) {
          const described = await fetchAdmin(node.adminPort, '/metrics');
          if (!/^streamroute_subscribers(\{[^}]*\})? 1$/m.test(described.body)) return false;
        }
        return true;
      });
      for (const [index, node] of nodes.entries()) {
        const posted = await post(node, { order_id: `L-${index}`, amount: 7 });
        assert.equal(posted.status, 202);
      }
      await eventually('a record from each node', () => stream.lines.length >= 2);
      assert.deepEqual(stream.lines.map((line) => JSON.parse(line) as unknown).sort(byOrder), [
        { order_id: 'L-0', amount: 7 },
        { order_id: 'L-1', amount: 7 },
      ]);
    } finally {
      stream.close();
    }
    const described = await getJson(`${base}/httpingestors/orders-in/describe`, auth);
    assert.equal(described.status, 200, JSON.stringify(described.body));
    const nodesDescribed = (described.body as { nodes: { node: string; description?: { state: string } }[] })
      .nodes;
    assert.deepEqual(
      nodesDescribed.map((entry) => [entry.node, entry.description?.state]),
      nodes.map((node) => [node.name, 'Running']),
    );
    // another namespace: refused by the API server before it reaches the operator
    const other = await getJson(
      `${server.server}/apis/${LIVE_GROUP}/${LIVE_VERSION}/namespaces/${SYSTEM}/relays/orders/log`,
      auth,
    );
    assert.equal(other.status, 403);
    const operatorLog = operators[0]?.log() ?? '';
    assert.match(operatorLog, /"live_subscription_started".*"user":"erin".*"domain":"shop"/);
    assert.doesNotMatch(operatorLog, /L-0|L-1/, 'no record in the operator log');
  });

  it('lets a ServiceAccount with rights only in the domain run `streamroute subscribe` and `describe` (live API)', async () => {
    const bind = (name: string, role: string, subject: object) =>
      applyRaw(server, `/apis/rbac.authorization.k8s.io/v1/namespaces/${DOMAIN}/rolebindings/${name}`, {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'RoleBinding',
        metadata: { name, namespace: DOMAIN },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: role },
        subjects: [subject],
      });
    await applyRaw(server, `/api/v1/namespaces/${DOMAIN}/serviceaccounts/viewer`, {
      apiVersion: 'v1',
      kind: 'ServiceAccount',
      metadata: { name: 'viewer', namespace: DOMAIN },
    });
    const subject = { kind: 'ServiceAccount', name: 'viewer', namespace: DOMAIN };
    await bind('viewer-live', liveReaderRole, subject);
    await bind('viewer-edit', editorRole, subject); // to read the ingestor's status for describe
    const kubeconfig = await serviceAccountKubeconfig(server, DOMAIN, 'viewer');
    const subscriber = new StreamrouteProcess('cli-live-subscribe', [
      '--kubeconfig',
      kubeconfig,
      'subscribe',
      'viewer',
      'orders',
      '-d',
      DOMAIN,
    ]);
    try {
      await eventually('both nodes to serve the CLI’s subscription', async () => {
        for (const node of nodes) {
          const metrics = await fetchAdmin(node.adminPort, '/metrics');
          if (!/^streamroute_subscribers(\{[^}]*\})? 1$/m.test(metrics.body)) return false;
        }
        return true;
      });
      for (const [index, node] of nodes.entries()) await post(node, { order_id: `C-${index}`, amount: 8 });
      await eventually('a record from each node on the CLI’s stdout', () =>
        /C-0[\s\S]*C-1|C-1[\s\S]*C-0/.test(subscriber.log()),
      );
      assert.doesNotMatch(subscriber.log(), /port-forward/, 'through the live API, not port-forwards');
    } finally {
      await subscriber.stop();
    }
    // describe with the same account's token from an exec plugin, as cloud providers' kubeconfigs give it
    const execKubeconfig = await serviceAccountKubeconfig(server, DOMAIN, 'viewer', { exec: true });
    const described = await runStreamroute([
      '--kubeconfig',
      execKubeconfig,
      'describe',
      'ingestor',
      'orders_in',
      '-d',
      DOMAIN,
    ]);
    assert.equal(described.code, 0, described.stderr);
    for (const node of nodes) assert.match(described.stdout, new RegExp(node.name));
    // the same account in the operator's namespace: the API server says no
    const elsewhere = await runStreamroute([
      '--kubeconfig',
      kubeconfig,
      'describe',
      'ingestor',
      'orders_in',
      '-d',
      SYSTEM,
    ]);
    assert.notEqual(elsewhere.code, 0);
    // no token in any log or output: the operator's, the nodes', the CLI's
    const { users } = JSON.parse(readFileSync(kubeconfig, 'utf8')) as {
      users: { user: { token: string } }[];
    };
    const token = users[0]?.user.token ?? assert.fail('a token in the kubeconfig');
    const texts = [...operators, ...nodes.map((node) => node.process), subscriber].map((process) =>
      process.log(),
    );
    for (const text of [...texts, described.stdout, described.stderr, elsewhere.stderr])
      assert.ok(!text.includes(token.slice(-40)), 'a token in a log');
  });

  it('answers probes and metrics on the health listener, which serves no records', async () => {
    for (const node of nodes) {
      assert.equal((await fetchAdmin(node.healthPort, '/healthz')).status, 200);
      const ready = await fetchAdmin(node.healthPort, '/readyz');
      assert.equal(ready.status, 200, ready.body);
      assert.equal((JSON.parse(ready.body) as { ready: boolean }).ready, true);
      assert.match((await fetchAdmin(node.healthPort, '/metrics')).body, /^streamroute_records_in_total\{/m);
      const records = `/v1/domains/${DOMAIN}/relays/orders/subscriptions/probe`;
      assert.equal((await fetchAdmin(node.healthPort, records)).status, 404);
      assert.equal(
        (await fetchAdmin(node.healthPort, `/v1/domains/${DOMAIN}/ingestors/orders-in`)).status,
        404,
      );
    }
  });

  it('shows status conditions and node roll-ups, with printer columns in kubectl get', async () => {
    await eventually('the ingestor ready on two nodes', async () => {
      const ready = await condition('httpingestors', 'orders-in', 'Ready');
      const ingestor = await admin.request<KubeItem>({
        path: customPath('httpingestors', DOMAIN, 'orders-in'),
      });
      const rollup = ingestor.status?.['nodes'] as { running?: number } | undefined;
      return ready?.status === 'True' && rollup?.running === 2;
    });
    assert.equal((await condition('relays', 'orders', 'Accepted'))?.status, 'True');
    const table = await getTable(server, `/apis/streamroute.io/v1alpha1/namespaces/${DOMAIN}/httpingestors`);
    const columns = table.columnDefinitions.map((column) => column.name);
    const row = table.rows[0]?.cells ?? [];
    assert.equal(row[columns.indexOf('Accepted')], 'True');
    assert.equal(row[columns.indexOf('Nodes')], 2);
    const described = await cli(['-c', 'DESCRIBE INGESTOR orders_in;']);
    assert.equal(described.code, 0, described.stderr);
    assert.match(described.stdout, /node-a|2 nodes|running/i);
  });

  it('marks an invalid change on its resource and keeps serving the last valid graph', async () => {
    // kubectl-style apply of a codec whose wire schema does not fit its schema (the CLI would refuse it).
    const bad = {
      apiVersion: 'streamroute.io/v1alpha1',
      kind: 'Codec',
      metadata: { name: 'orders-json', namespace: DOMAIN },
      spec: { from: 'WIRE_JSON', wireSchema: 'orders-wire', schema: 'line' },
    };
    const before = await pointerVersion();
    await applyRaw(
      server,
      `/apis/streamroute.io/v1alpha1/namespaces/${DOMAIN}/codecs/orders-json`,
      bad,
    ).catch((error: unknown) => assert.fail(`the API refused the object itself: ${String(error)}`));
    const accepted = await eventually('Accepted=False on the codec', async () => {
      const found = await condition('codecs', 'orders-json', 'Accepted');
      return found?.status === 'False' ? found : undefined;
    });
    assert.match(accepted.reason, /^SR\d{4}$/);
    assert.match(accepted.message, /generation 1 keeps running/);
    assert.equal((await condition('relays', 'lines', 'Accepted'))?.status, 'True');
    const answer = await post(nodes[0] as Node, { order_id: 'still', amount: 1 });
    assert.equal(answer.status, 202);
    // The last valid spec keeps running, so the compiled graph is the same: no new version.
    assert.equal(await pointerVersion(), before);
  });

  it('refuses a transaction with one bad statement and changes nothing', async () => {
    const before = await graphVersions();
    const result = await cli(
      ['-f', '-'],
      'BEGIN;\nCREATE RELAY extra SCHEMA orders UNBRANCHED;\nCREATE RELAY broken SCHEMA nope UNBRANCHED;\nCOMMIT;\n',
    );
    assert.equal(result.code, 1);
    assert.match(result.stderr + result.stdout, /3:\d+: error SR\d{4}/);
    await assert.rejects(admin.request({ path: customPath('relays', DOMAIN, 'extra') }), /404/);
    assert.deepEqual(await graphVersions(), before);
  });

  it("restores a restarted node's graph before it answers its first request", async () => {
    const node = nodes[0] as Node;
    await node.process.kill();
    const restarted = await startNode(node.name, node.bindHost, node);
    nodes[0] = restarted;
    // The first answer the new process gives is already from the graph (202), never a 404.
    const first = await eventually('the restarted node to answer', () =>
      post(restarted, { order_id: 'after-restart', amount: 1 }).catch(() => undefined),
    );
    assert.equal(first.status, 202);
    await sendSyslog(restarted.bindHost, 'syslog after restart');
    assert.equal((await receiver.next('out', 10_000)).message, 'syslog after restart');
  });

  it('keeps serving through an API server restart, and converges on a change made after it', async () => {
    const version = await pointerVersion();
    const down = server.restartApiServer(3000);
    await new Promise((resolve) => setTimeout(resolve, 500));
    for (const node of nodes) assert.equal((await post(node, { order_id: 'outage', amount: 1 })).status, 202);
    await down;
    const applied = await cli(['-c', 'CREATE RELAY audit SCHEMA orders UNBRANCHED;']);
    assert.equal(applied.code, 0, applied.stderr);
    await eventually('a new graph version', async () => (await pointerVersion()) > version, 40_000);
    await allNodesRun(await pointerVersion());
  });

  it('hands the lease to a second operator replica when the leader dies; only the leader publishes', async () => {
    const lease = () =>
      admin.request<{ spec: { holderIdentity?: string } }>({
        path: `/apis/coordination.k8s.io/v1/namespaces/${SYSTEM}/leases/streamroute-operator`,
      });
    assert.equal((await lease()).spec.holderIdentity, 'operator-1');
    const standby = await startOperator('operator-2');
    await new Promise((resolve) => setTimeout(resolve, 3000));
    const versions = await graphVersions();
    const applied = await cli(['-c', 'CREATE RELAY audit2 SCHEMA orders UNBRANCHED;']);
    assert.equal(applied.code, 0, applied.stderr);
    await eventually('one new version', async () => (await graphVersions()).length === versions.length + 1);
    await new Promise((resolve) => setTimeout(resolve, 2000));
    assert.equal((await graphVersions()).length, versions.length + 1, 'the standby published too');
    assert.doesNotMatch(standby.log(), /"msg":"published/);

    // The leader dies without releasing the lease; a change lands on the API while nobody leads.
    const killedAt = Date.now();
    await (operators[0] as StreamrouteProcess).kill();
    const next = await cli(['-c', 'DROP RELAY audit2;']);
    assert.equal(next.code, 0, next.stderr);
    await eventually(
      'operator-2 to hold the lease',
      async () => (await lease()).spec.holderIdentity === 'operator-2',
      30_000,
    );
    const handover = Date.now() - killedAt;
    assert.ok(handover < 20_000, `handover took ${handover} ms (lease 15 s)`);
    await eventually(
      'the new leader publishes',
      async () => (await graphVersions()).length === versions.length + 2,
    );
    const newest = Math.max(...(await graphVersions()));
    await eventually('the pointer at the newest version', async () => (await pointerVersion()) === newest);
    await allNodesRun(newest);
  });
});

function objectPath(object: KubeItem): string {
  const name = object.metadata.name;
  const namespace = object.metadata.namespace ?? SYSTEM;
  switch (object.kind) {
    case 'ServiceAccount':
      return `/api/v1/namespaces/${namespace}/serviceaccounts/${name}`;
    case 'ClusterRole':
      return `/apis/rbac.authorization.k8s.io/v1/clusterroles/${name}`;
    case 'ClusterRoleBinding':
      return `/apis/rbac.authorization.k8s.io/v1/clusterrolebindings/${name}`;
    case 'Role':
      return `/apis/rbac.authorization.k8s.io/v1/namespaces/${namespace}/roles/${name}`;
    case 'RoleBinding':
      return `/apis/rbac.authorization.k8s.io/v1/namespaces/${namespace}/rolebindings/${name}`;
    default:
      throw new Error(`no path for ${object.kind ?? 'an object without kind'}`);
  }
}

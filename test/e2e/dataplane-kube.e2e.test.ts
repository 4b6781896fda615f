// The data plane in Kubernetes mode against a REAL kube-apiserver (docs/decisions/0015): graph ConfigMaps
// and the index written by hand (as the operator would), the data plane started in-process with the test
// kubeconfig. It serves the index's graph, hot-reloads when the index moves, reports per node through the
// DataplaneNode status subresource, serves its graph at once after a restart, keeps the running graph when
// a new version fails its sha256 check (and reports why), and drops a domain that leaves the index.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { connect, createServer } from 'node:net';
import { gzipSync } from 'node:zlib';
import {
  corePath,
  customPath,
  DATAPLANE_NODE_PLURAL,
  graphConfigMapName,
  INDEX_NAME,
  type GraphIndex,
} from '../../dataplane/kube/contract.js';
import { sha256Hex } from '../../dataplane/kube/graph-configmap.js';
import { isStatus, KubeApi } from '../../dataplane/kube-client/kube-api.js';
import type { NodeReportStatus } from '../../dataplane/kube/node-report.js';
import { startDataplane, type RunningDataplane } from '../../dataplane/kube/main.js';
import { BindError, type BindErrorMode } from '../../dataplane/node/node-listeners.js';
import { StreamClient } from '../fixtures/admin-client.js';
import { graphFromStatements, memoryLogger, type LogLine } from '../fixtures/graph-from-statements.js';
import { requireKubeOrSkip, sharedKubeApiServer, type KubeTestServer } from '../support/kube-apiserver.js';
import { createNamespace, installCrds, kubeClients, type KubeClients } from '../support/kube-client.js';
import { sendOnce, waitFor } from '../support/raw-http.js';
import { ORDERS_GRAPH } from '../fixtures/orders-graph.js';

/** v2 adds a second path onto the same relay. */
const V2 = `${ORDERS_GRAPH}
CREATE ENDPOINT more_ep ON local PATH '/more-orders' TYPE HTTP;
CREATE HTTP ENDPOINT INGESTOR more_in FROM more_ep MODE NO ACK ON QUIESCE BUFFER MAX SIZE 1MiB
  DECODE USING orders_json TO orders INHERIT ALL UNBRANCHED FLUSH IMMEDIATE ON MESSAGE ERROR LOG
  ON GENERAL ERROR LOG;
`;

/** A TCP syslog listener declared on the wildcard address: `--bind-host` decides which IP it binds. */
const SYSLOG = (port: number): string => `
CREATE SCHEMA line (facility U8, severity U8, timestamp DATETIME OPTIONAL, hostname STRING OPTIONAL,
  app_name STRING OPTIONAL, proc_id STRING OPTIONAL, msg_id STRING OPTIONAL,
  structured_data STRING OPTIONAL, message STRING);
CREATE CODEC syslog FROM SYSLOG TO SCHEMA line;
CREATE RELAY orders SCHEMA line UNBRANCHED;
CREATE CLIENT any_tcp TYPE SYSLOG CONFIG { 'protocol' = 'tcp', 'addr' = '0.0.0.0:${port}' };
CREATE SYSLOG LISTENER INGESTOR tcp_in FROM any_tcp MODE NO ACK ON QUIESCE SUSPEND DECODE USING syslog
  TO orders INHERIT ALL UNBRANCHED FLUSH IMMEDIATE ON MESSAGE ERROR LOG ON GENERAL ERROR LOG;
`;

/** A port free on 127.0.0.1 now. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

function sendSyslog(host: string, port: number, line: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host, port }, () => socket.end(`${line}\n`, () => resolve()));
    socket.once('error', reject);
  });
}

const WAIT_MS = 10_000;

interface Scene {
  api: KubeApi;
  operatorNs: string;
  domain: string;
  nodeName: string;
  logs: LogLine[];
  start(extra?: {
    nodeName?: string;
    bindHost?: string;
    adminPort?: number;
    onBindError?: BindErrorMode;
  }): Promise<RunningDataplane>;
}

/** Writes graph version `version` of `domain` as the operator does; `badSha` stores a wrong sha256. */
async function publishGraph(
  api: KubeApi,
  domain: string,
  options: { version: number; statements: string; gzip?: boolean; badSha?: boolean },
): Promise<string> {
  const { version, statements } = options;
  const text = JSON.stringify(graphFromStatements(statements, domain));
  const sha = sha256Hex(Buffer.from(text));
  const stored = options.badSha === true ? sha256Hex(Buffer.from(`${text} `)) : sha;
  const payload =
    options.gzip === true
      ? { binaryData: { 'graph.json.gz': gzipSync(Buffer.from(text)).toString('base64') } }
      : { data: { 'graph.json': text } };
  await api.request({
    method: 'POST',
    path: corePath('configmaps', domain),
    body: {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: {
        name: graphConfigMapName(version),
        labels: {
          'app.kubernetes.io/managed-by': 'streamroute',
          'app.kubernetes.io/component': 'graph',
          'streamroute.io/domain': domain,
          'streamroute.io/graph-version': String(version),
        },
        annotations: {
          'streamroute.io/sha256': stored,
          'streamroute.io/encoding': options.gzip === true ? 'gzip' : 'json',
        },
      },
      immutable: true,
      ...payload,
    },
  });
  return stored;
}

/** Creates or replaces the index ConfigMap. */
async function writeIndex(api: KubeApi, namespace: string, index: GraphIndex): Promise<void> {
  const body = {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: INDEX_NAME },
    data: { 'index.json': JSON.stringify(index) },
  };
  try {
    await api.request({ method: 'POST', path: corePath('configmaps', namespace), body });
  } catch (error: unknown) {
    if (!isStatus(error, 409)) throw error;
    await api.request({ method: 'PUT', path: corePath('configmaps', namespace, INDEX_NAME), body });
  }
}

async function nodeReport(api: KubeApi, nodeName: string): Promise<NodeReportStatus | undefined> {
  try {
    const node = await api.request<{ status?: NodeReportStatus }>({
      path: customPath(DATAPLANE_NODE_PLURAL, undefined, nodeName),
    });
    return node.status;
  } catch (error: unknown) {
    if (isStatus(error, 404)) return undefined;
    throw error;
  }
}

async function untilReport(
  scene: Scene,
  holds: (status: NodeReportStatus) => boolean,
  what: string,
): Promise<NodeReportStatus> {
  let last: NodeReportStatus | undefined;
  await waitFor(
    async () => {
      last = await nodeReport(scene.api, scene.nodeName);
      return last !== undefined && holds(last);
    },
    WAIT_MS,
    `${what} (last report: ${JSON.stringify(last)})`,
  );
  return last!;
}

function post(running: RunningDataplane, path: string, order: object): Promise<number> {
  return sendOnce(running.ports().http, { path, body: JSON.stringify(order) }).then((r) => r.status);
}

async function subscribe(running: RunningDataplane, domain: string): Promise<StreamClient> {
  const path = `/v1/domains/${domain}/relays/orders/subscriptions/e2e`;
  const stream = await StreamClient.open(running.ports().admin, path);
  assert.equal(stream.response.statusCode, 200);
  return stream;
}

async function linesOf(stream: StreamClient, count: number): Promise<string[]> {
  await waitFor(() => stream.lines.length >= count, WAIT_MS, `${count} records`);
  return stream.lines.map((line) => (JSON.parse(line) as { order_id: string }).order_id);
}

describe('data plane e2e: Kubernetes mode against a real API server', function () {
  this.timeout(60_000);
  let server: KubeTestServer;
  let clients: KubeClients;
  const running: RunningDataplane[] = [];
  let scene: Scene;

  before(async function () {
    await requireKubeOrSkip(this);
    server = await sharedKubeApiServer();
    clients = kubeClients(server);
    await installCrds(clients);
  });

  beforeEach(async () => {
    const suffix = randomBytes(4).toString('hex');
    const operatorNs = `sr-system-${suffix}`;
    const domain = `shop-${suffix}`;
    await createNamespace(clients, operatorNs);
    await createNamespace(clients, domain);
    const api = new KubeApi({
      kubeconfig: server.kubeconfigPath,
      rateLimit: { qps: 100, burst: 100 },
      userAgent: 'streamroute-e2e',
    });
    const { logger, logs } = memoryLogger();
    const nodeName = `node-${suffix}`;
    scene = {
      api,
      operatorNs,
      domain,
      nodeName,
      logs,
      start: async (extra = {}) => {
        const dataplane = await startDataplane({
          nodeName: extra.nodeName ?? nodeName,
          ...(extra.bindHost === undefined ? {} : { bindHost: extra.bindHost }),
          kubeconfig: server.kubeconfigPath,
          operatorNamespace: operatorNs,
          httpAddress: { host: '127.0.0.1', port: 0 },
          httpsAddress: { host: '127.0.0.1', port: 0 },
          adminAddress: { host: '127.0.0.1', port: extra.adminPort ?? 0 },
          ...(extra.onBindError === undefined ? {} : { onBindError: extra.onBindError }),
          // A held admin port is retried sooner than production's 1 s.
          ...(extra.adminPort === undefined ? {} : { retry: { initialMs: 100, maxMs: 100 } }),
          logger,
          // Faster than production (1 QPS, 10 s spacing) so the test stays short; the logic is the same.
          rateLimit: { qps: 20, burst: 20 },
          random: () => 0.5,
          reportTiming: { minIntervalMs: 200, graphDelayMs: 200, heartbeatMs: 60_000 },
          reportPollMs: 100,
          syncRetry: { initialMs: 100, maxMs: 1_000 },
        });
        running.push(dataplane);
        return dataplane;
      },
    };
  });

  afterEach(async () => {
    for (const dataplane of running.splice(0)) await dataplane.stop();
  });

  it('a port in use at start: retried by default, serving once it frees; with onBindError exit the start stops, naming it', async () => {
    const { api, domain, operatorNs } = scene;
    const sha1 = await publishGraph(api, domain, { version: 1, statements: ORDERS_GRAPH });
    await writeIndex(api, operatorNs, { domains: { [domain]: { version: 1, sha256: sha1 } } });
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const adminPort = (blocker.address() as { port: number }).port;

    await assert.rejects(
      scene.start({ adminPort, onBindError: 'exit' }),
      (error: unknown) =>
        error instanceof BindError &&
        error.message ===
          `cannot listen on 127.0.0.1:${adminPort} (admin API, --admin-listen-addr): EADDRINUSE, address already in use; free the address or choose another, or start with --on-bind-error retry to wait for it`,
    );

    const dataplane = await scene.start({ adminPort });
    assert.equal(dataplane.admin.status.state, 'Retrying');
    assert.equal(dataplane.admin.status.error?.code, 'EADDRINUSE');
    assert.equal(
      await post(dataplane, '/orders', { order_id: 'P1', amount: 1 }),
      202,
      'HTTP serves meanwhile',
    );
    await new Promise<void>((resolve) => blocker.close(() => resolve()));
    await waitFor(() => dataplane.admin.status.state === 'Running', WAIT_MS, 'the admin API bound');
    assert.equal(dataplane.ports().admin, adminPort);
  });

  it('serves the index’s graph, hot-reloads to a new (gzip) version, reports it, and drops a domain that leaves the index', async () => {
    const { api, domain, operatorNs } = scene;
    const sha1 = await publishGraph(api, domain, { version: 1, statements: ORDERS_GRAPH });
    await writeIndex(api, operatorNs, { domains: { [domain]: { version: 1, sha256: sha1 } } });
    const dataplane = await scene.start();
    const stream = await subscribe(dataplane, domain);
    assert.equal(await post(dataplane, '/orders', { order_id: 'A1', amount: 1 }), 202);
    assert.equal(await post(dataplane, '/more-orders', { order_id: 'A2', amount: 2 }), 404, 'not in v1');
    assert.deepEqual(await linesOf(stream, 1), ['A1']);

    const v1Report = await untilReport(scene, (s) => s.domains[0]?.graphVersion === 1, 'the v1 report');
    assert.equal(v1Report.domains[0]?.domain, domain);
    assert.ok(v1Report.domains[0]?.appliedAt !== undefined);
    assert.deepEqual(
      v1Report.components.map((c) => `${c.kind} ${c.name} ${c.state}`),
      ['HttpIngestor orders-in Running'],
    );

    const sha2 = await publishGraph(api, domain, { version: 2, statements: V2, gzip: true });
    await writeIndex(api, operatorNs, { domains: { [domain]: { version: 2, sha256: sha2 } } });
    await waitFor(
      async () => (await post(dataplane, '/more-orders', { order_id: 'B1', amount: 3 })) === 202,
      WAIT_MS,
      'v2',
    );
    assert.equal(await post(dataplane, '/orders', { order_id: 'B2', amount: 4 }), 202);
    assert.deepEqual(await linesOf(stream, 3), ['A1', 'B1', 'B2'], 'the subscription survives the reload');
    const v2Report = await untilReport(scene, (s) => s.domains[0]?.graphVersion === 2, 'the v2 report');
    assert.deepEqual(
      v2Report.components.map((c) => c.name),
      ['more-in', 'orders-in'],
    );
    const loaded = scene.logs.filter((line) => line.event === 'graph_loaded');
    assert.deepEqual(
      loaded.map((line) => [line.domain, line.version, line.encoding]),
      [
        [domain, 1, 'json'],
        [domain, 2, 'gzip'],
      ],
    );
    assert.ok(
      loaded.every((line) => typeof line.jsonBytes === 'number' && typeof line.storedBytes === 'number'),
    );
    assert.ok(!JSON.stringify(scene.logs).includes('B1'), 'no payload value in the logs');

    await writeIndex(api, operatorNs, { domains: {} });
    await waitFor(
      async () => (await post(dataplane, '/orders', { order_id: 'C1', amount: 5 })) === 404,
      WAIT_MS,
      'domain removed',
    );
    await untilReport(scene, (s) => s.domains.length === 0 && s.components.length === 0, 'an empty report');
  });

  it('after a restart serves the graph before its first request, with no watch event needed', async () => {
    const { api, domain, operatorNs } = scene;
    const sha1 = await publishGraph(api, domain, { version: 1, statements: ORDERS_GRAPH });
    await writeIndex(api, operatorNs, { domains: { [domain]: { version: 1, sha256: sha1 } } });
    const first = await scene.start();
    assert.equal(await post(first, '/orders', { order_id: 'R1', amount: 1 }), 202);
    await first.stop();

    const restarted = await scene.start();
    // The very first request after start() resolved: the graph was applied before the listeners opened.
    assert.deepEqual([...restarted.dataPlane.versions()], [[domain, 1]]);
    assert.equal(await post(restarted, '/orders', { order_id: 'R2', amount: 2 }), 202);
    const applied = scene.logs.findLastIndex((line) => line.event === 'graph_loaded');
    const started = scene.logs.findLastIndex((line) => line.event === 'dataplane_started');
    assert.ok(
      applied >= 0 && applied < started,
      'the graph is applied before the data plane reports started',
    );
  });

  it('keeps the running graph when a new version fails its sha256 check, and reports the error', async () => {
    const { api, domain, operatorNs } = scene;
    const sha1 = await publishGraph(api, domain, { version: 1, statements: ORDERS_GRAPH });
    await writeIndex(api, operatorNs, { domains: { [domain]: { version: 1, sha256: sha1 } } });
    const dataplane = await scene.start();
    const stored = await publishGraph(api, domain, { version: 2, statements: V2, badSha: true });
    await writeIndex(api, operatorNs, { domains: { [domain]: { version: 2, sha256: stored } } });

    const report = await untilReport(
      scene,
      (s) => s.domains[0]?.error?.includes('sha256 mismatch') === true,
      'the refusal in the report',
    );
    assert.equal(report.domains[0]?.graphVersion, 1, 'v1 still runs');
    assert.match(
      report.domains[0].error!,
      /^graph version 2: ConfigMap .*streamroute-graph-v2: sha256 mismatch/,
    );
    assert.deepEqual([...dataplane.dataPlane.versions()], [[domain, 1]]);
    assert.equal(await post(dataplane, '/orders', { order_id: 'S1', amount: 1 }), 202);
    assert.equal(await post(dataplane, '/more-orders', { order_id: 'S2', amount: 1 }), 404);
    const failed = scene.logs.filter((line) => line.event === 'graph_load_failed');
    assert.equal(failed.length, 1, 'refused once, not retried');
  });

  it('--bind-host: two nodes on one machine bind the same wildcard syslog listener on their own IPs', async () => {
    const { api, domain, operatorNs } = scene;
    const port = await freePort();
    const sha = await publishGraph(api, domain, { version: 1, statements: SYSLOG(port) });
    await writeIndex(api, operatorNs, { domains: { [domain]: { version: 1, sha256: sha } } });
    const a = await scene.start({ nodeName: `${scene.nodeName}-a`, bindHost: '127.0.0.2' });
    const b = await scene.start({ nodeName: `${scene.nodeName}-b`, bindHost: '127.0.0.3' });
    for (const node of [a, b]) {
      const described = await node.dataPlane.describe(domain, 'ingestor', 'tcp-in');
      assert.equal(described?.state, 'Running', JSON.stringify(described?.transientError));
    }
    const [toA, toB] = [await subscribe(a, domain), await subscribe(b, domain)];
    await sendSyslog('127.0.0.2', port, '<14>1 2026-11-24T18:00:00Z host app - - - for-a');
    await sendSyslog('127.0.0.3', port, '<14>1 2026-11-24T18:00:00Z host app - - - for-b');
    const message = (stream: StreamClient): string[] =>
      stream.lines.map((line) => (JSON.parse(line) as { message: string }).message);
    await waitFor(() => toA.lines.length >= 1 && toB.lines.length >= 1, WAIT_MS, 'one line at each node');
    assert.deepEqual(message(toA), ['for-a']);
    assert.deepEqual(message(toB), ['for-b']);
  });
});

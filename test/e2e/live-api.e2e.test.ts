// The operator's aggregated API (live.streamroute.io, decision 0019) on a REAL kube-apiserver: registered
// as an APIService, reached by users through the API server with their own identity — a ServiceAccount
// token bound in one namespace, another in a second, a client-certificate-only user bound through its
// group — and refused to anyone who calls it without the API server's front-proxy certificate. The
// handlers here echo who asked; the subscription fan-out to the data plane is tested where it is built.
import assert from 'node:assert/strict';
import { request, type RequestOptions } from 'node:https';
import { checkServerIdentity, type PeerCertificate } from 'node:tls';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:https';
import pino from 'pino';
import { KubeApi } from '../../dataplane/kube-client/kube-api.js';
import { Registry } from 'prom-client';
import { readCounter } from '../../dataplane/core/telemetry.js';
import { AccessReview } from '../../operator/access/access-review.js';
import { LiveMetrics } from '../../operator/access/live-metrics.js';
import { createAggregatedApi, LIVE_GROUP, LIVE_VERSION } from '../../operator/access/aggregated-api.js';
import {
  EXTENSION_AUTH_CONFIGMAP,
  frontProxyConfig,
  type Caller,
} from '../../operator/access/front-proxy.js';
import { eventually, StreamrouteProcess } from '../support/cluster-processes.js';
import { freeTcpPort } from '../support/syslog-wire-peer.js';
import { requireKubeOrSkip, startKubeApiServer, type KubeTestServer } from '../support/kube-apiserver.js';
import { applyRaw } from '../support/kube-client.js';
import { signed, testPki } from '../support/test-pki.js';
import { firstLine, LIVE_SERVICE, LIVE_SYSTEM, READER_ROLE, register } from '../support/live-api.js';

const SYSTEM = LIVE_SYSTEM;
const SERVICE = LIVE_SERVICE;
const BASE = `/apis/${LIVE_GROUP}/${LIVE_VERSION}/namespaces`;

interface Answer {
  status: number;
  body: string;
  /** ms from the request to each chunk of the body. */
  chunkTimes: number[];
}

/** One GET; `auth` is a bearer token, a client certificate, or nothing. */
function get(
  url: string,
  auth: {
    token?: string;
    cert?: string | Buffer;
    key?: string | Buffer;
    ca?: string | Buffer;
    headers?: Record<string, string>;
    servername?: string;
  },
): Promise<Answer> {
  const started = performance.now();
  const options: RequestOptions = {
    ...(auth.ca === undefined ? {} : { ca: auth.ca }),
    ...(auth.cert === undefined ? {} : { cert: auth.cert, key: auth.key }),
    headers: {
      ...(auth.token === undefined ? {} : { authorization: `Bearer ${auth.token}` }),
      ...auth.headers,
    },
    // a direct call dials 127.0.0.1 but checks the name the API server checks
    ...(auth.servername === undefined
      ? {}
      : {
          checkServerIdentity: (_host: string, cert: PeerCertificate) =>
            checkServerIdentity(auth.servername ?? '', cert),
        }),
    agent: false,
  };
  return new Promise((resolve, reject) => {
    const req = request(url, options, (response) => {
      let body = '';
      const chunkTimes: number[] = [];
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        body += chunk;
        chunkTimes.push(performance.now() - started);
      });
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body, chunkTimes }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('the live API through a real kube-apiserver (aggregated API, decision 0019)', function () {
  this.timeout(120_000);
  let server: KubeTestServer;
  let live: Server;
  let livePort: number;
  let review: AccessReview;
  const registry = new Registry();
  const seen: { caller: Caller; what: string }[] = [];
  const tokens: Record<string, string> = {};
  let carol: { cert: string; key: string };

  before(async function () {
    await requireKubeOrSkip(this);
    server = await startKubeApiServer();
    const admin = new KubeApi({
      kubeconfig: server.kubeconfigPath,
      rateLimit: { qps: 100, burst: 100 },
      userAgent: 'live-api-test',
    });
    const published = await admin.request<{ data?: Record<string, string> }>({
      path: `/api/v1/namespaces/${EXTENSION_AUTH_CONFIGMAP.namespace}/configmaps/${EXTENSION_AUTH_CONFIGMAP.name}`,
    });
    const frontProxy = frontProxyConfig(published.data);
    assert.ok(frontProxy.ok, frontProxy.ok ? '' : frontProxy.reason);
    const pki = testPki();
    const serving = signed(pki.dir, 'live-serving', pki.ca, {
      cn: `${SERVICE}.${SYSTEM}.svc`,
      ext: `subjectAltName=DNS:${SERVICE}.${SYSTEM}.svc`,
      usage: 'serverAuth',
    });
    review = new AccessReview({ api: admin });
    live = createAggregatedApi({
      serving,
      frontProxy: frontProxy.config,
      review,
      metrics: new LiveMetrics(registry),
      logger: pino({ level: 'silent' }),
      handlers: {
        relayLog: async ({ caller, namespace, relay }, response) => {
          seen.push({ caller, what: `${namespace}/${relay}` });
          response.writeHead(200, { 'content-type': 'application/x-ndjson' });
          for (let line = 0; line < 3; line++) {
            response.write(`${JSON.stringify({ line, user: caller.user })}\n`);
            await new Promise((resolve) => setTimeout(resolve, 300));
          }
          response.end();
        },
        describe: ({ caller, namespace, kind, name }) => {
          seen.push({ caller, what: `${namespace}/${kind}/${name}` });
          return Promise.resolve({ kind, name, user: caller.user });
        },
      },
    });
    await new Promise<void>((resolve) => live.listen(0, '127.0.0.1', resolve));
    livePort = (live.address() as AddressInfo).port;

    for (const namespace of [SYSTEM, 'domain-a', 'domain-b'])
      await applyRaw(server, `/api/v1/namespaces/${namespace}`, {
        apiVersion: 'v1',
        kind: 'Namespace',
        metadata: { name: namespace },
      });
    await register(server, livePort, pki.ca.cert);

    // Who may read what: a role for the live API, bound per namespace.
    await applyRaw(
      server,
      '/apis/rbac.authorization.k8s.io/v1/clusterroles/streamroute-live-reader',
      READER_ROLE,
    );
    const bind = (namespace: string, name: string, subject: object) =>
      applyRaw(server, `/apis/rbac.authorization.k8s.io/v1/namespaces/${namespace}/rolebindings/${name}`, {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'RoleBinding',
        metadata: { name, namespace },
        roleRef: {
          apiGroup: 'rbac.authorization.k8s.io',
          kind: 'ClusterRole',
          name: 'streamroute-live-reader',
        },
        subjects: [subject],
      });
    for (const namespace of ['domain-a', 'domain-b']) {
      await applyRaw(server, `/api/v1/namespaces/${namespace}/serviceaccounts/subscriber`, {
        apiVersion: 'v1',
        kind: 'ServiceAccount',
        metadata: { name: 'subscriber', namespace },
      });
      const requested = await admin.request<{ status: { token: string } }>({
        method: 'POST',
        path: `/api/v1/namespaces/${namespace}/serviceaccounts/subscriber/token`,
        body: {
          apiVersion: 'authentication.k8s.io/v1',
          kind: 'TokenRequest',
          spec: { expirationSeconds: 3600 },
        },
      });
      tokens[namespace] = requested.status.token;
      await bind(namespace, 'subscriber-live', { kind: 'ServiceAccount', name: 'subscriber', namespace });
    }
    // carol has no token and no Secret: a client certificate whose group is bound in domain-a only
    carol = await server.clientCertUser('carol', ['team-a']);
    await bind('domain-a', 'team-a-live', {
      kind: 'Group',
      name: 'team-a',
      apiGroup: 'rbac.authorization.k8s.io',
    });
  });

  after(async () => {
    // (Skipped without an API server: then there is no live server, and nothing to wait for.)
    if (live !== undefined) {
      live.closeAllConnections(); // the API server pools its connections to us
      await new Promise((resolve) => live.close(resolve));
    }
    await server?.stop();
  });

  const viaApi = (path: string) => `${server.server}${BASE}/${path}`;
  const token = (namespace: string): string => tokens[namespace] ?? assert.fail(`no token for ${namespace}`);

  it('streams a relay to a ServiceAccount bound in its namespace, as that user, line by line', async () => {
    const answer = await get(viaApi('domain-a/relays/audit/log'), {
      token: token('domain-a'),
      ca: server.ca,
    });
    assert.equal(answer.status, 200, answer.body);
    const lines = answer.body
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { user: string });
    assert.deepEqual(
      lines.map((line) => line.user),
      Array(3).fill('system:serviceaccount:domain-a:subscriber'),
    );
    // not buffered by the API server: the first line came well before the last
    assert.ok(
      (answer.chunkTimes.at(-1) ?? 0) - (answer.chunkTimes[0] ?? 0) >= 400,
      JSON.stringify(answer.chunkTimes),
    );
    const caller = seen.at(-1)?.caller;
    assert.ok(caller?.groups.includes('system:serviceaccounts:domain-a'), JSON.stringify(caller));
  });

  it('serves a client-certificate user (no token, no Secret) through its group, in its namespace only', async () => {
    const inA = await get(viaApi('domain-a/httpingestors/orders-in/describe'), { ...carol, ca: server.ca });
    assert.equal(inA.status, 200, inA.body);
    assert.deepEqual(JSON.parse(inA.body), { kind: 'httpingestors', name: 'orders-in', user: 'carol' });
    assert.ok(seen.at(-1)?.caller.groups.includes('team-a'));
    const inB = await get(viaApi('domain-b/relays/audit/log'), { ...carol, ca: server.ca });
    assert.equal(inB.status, 403, inB.body);
  });

  it('refuses each ServiceAccount in the other namespace, before the request reaches the operator', async () => {
    const before = seen.length;
    const aInB = await get(viaApi('domain-b/relays/audit/log'), { token: token('domain-a'), ca: server.ca });
    const bInA = await get(viaApi('domain-a/emitters/out/describe'), {
      token: token('domain-b'),
      ca: server.ca,
    });
    assert.equal(aInB.status, 403);
    assert.match(
      (JSON.parse(aInB.body) as { message: string }).message,
      /cannot get resource "relays\/log" in API group "live\.streamroute\.io" in the namespace "domain-b"/,
    );
    assert.equal(bInA.status, 403);
    assert.equal(seen.length, before);
    const bInB = await get(viaApi('domain-b/relays/audit/log'), { token: token('domain-b'), ca: server.ca });
    assert.equal(bInB.status, 200);
  });

  it('answers 401 without credentials, at the API server and at the operator', async () => {
    const anonymous = await get(viaApi('domain-a/relays/audit/log'), { ca: server.ca });
    assert.ok([401, 403].includes(anonymous.status), `${anonymous.status}`);
    const direct = `https://127.0.0.1:${livePort}${BASE}/domain-a/relays/audit/log`;
    const pki = testPki();
    const servername = `${SERVICE}.${SYSTEM}.svc`;
    const forged = { 'X-Remote-User': 'system:admin', 'X-Remote-Group': 'system:masters' };
    const attempts = [
      await get(direct, { ca: pki.ca.cert, headers: forged, servername }), // no client certificate
      await get(direct, { ...carol, ca: pki.ca.cert, headers: forged, servername }), // a cluster user's certificate
      await get(direct, {
        cert: pki.client.cert,
        key: pki.client.key,
        ca: pki.ca.cert,
        headers: forged,
        servername,
      }), // another CA's
    ];
    for (const attempt of attempts) {
      assert.equal(attempt.status, 401, attempt.body);
      assert.equal((JSON.parse(attempt.body) as { reason: string }).reason, 'Unauthorized');
    }
    const refusals = { route: 'log', outcome: 'unauthenticated' };
    assert.equal(await readCounter(registry, 'streamroute_live_requests_total', refusals), attempts.length);
    const allowed = await readCounter(registry, 'streamroute_live_requests_total', {
      route: 'log',
      outcome: 'allowed',
    });
    assert.ok(allowed >= 2, `allowed log requests counted: ${allowed}`);
  });

  it('lists only subresources in discovery, so kubectl’s plurals (httpingestors, relays) stay the CRDs’', async () => {
    const discovery = await get(`${server.server}/apis/${LIVE_GROUP}/${LIVE_VERSION}`, {
      token: server.token,
      ca: server.ca,
    });
    assert.equal(discovery.status, 200, discovery.body);
    const names = (JSON.parse(discovery.body) as { resources: { name: string }[] }).resources.map(
      (r) => r.name,
    );
    assert.deepEqual(names, [
      'relays/log',
      'httpingestors/describe',
      'syslogingestors/describe',
      'topicingestors/describe',
      'emitters/describe',
    ]);
  });

  it('asks the API server once for a storm of identical starts, and not again within the cache time', async () => {
    const caller: Caller = { user: 'carol', groups: ['team-a', 'system:authenticated'], extra: {} };
    const attributes = {
      namespace: 'domain-a',
      verb: 'get',
      group: LIVE_GROUP,
      resource: 'relays',
      subresource: 'log',
      name: 'audit',
    };
    const fresh = new AccessReview({
      api: new KubeApi({
        kubeconfig: server.kubeconfigPath,
        rateLimit: { qps: 100, burst: 100 },
        userAgent: 'live-api-test',
      }),
    });
    const decisions = await Promise.all(Array.from({ length: 50 }, () => fresh.decide(caller, attributes)));
    assert.ok(decisions.every((decision) => decision.allowed));
    assert.equal(fresh.sent, 1);
    assert.equal((await fresh.decide(caller, attributes)).allowed, true);
    assert.equal((await fresh.decide(caller, { ...attributes, namespace: 'domain-b' })).allowed, false);
    assert.equal(fresh.sent, 2);
  });
});

describe('`streamroute operator --live-listen-addr`: the live API served by the operator process', function () {
  this.timeout(120_000);
  let server: KubeTestServer;
  let operator: StreamrouteProcess;
  let reader: { cert: string; key: string };

  before(async function () {
    await requireKubeOrSkip(this);
    server = await startKubeApiServer();
    const pki = testPki();
    const serving = signed(pki.dir, 'live-operator', pki.ca, {
      cn: `${SERVICE}.${SYSTEM}.svc`,
      ext: `subjectAltName=DNS:${SERVICE}.${SYSTEM}.svc`,
      usage: 'serverAuth',
    });
    const port = await freeTcpPort();
    for (const namespace of [SYSTEM, 'shop'])
      await applyRaw(server, `/api/v1/namespaces/${namespace}`, {
        apiVersion: 'v1',
        kind: 'Namespace',
        metadata: { name: namespace },
      });
    operator = new StreamrouteProcess('operator-live', [
      'operator',
      '--kubeconfig',
      server.kubeconfigPath,
      '--namespace',
      SYSTEM,
      '--no-leader-elect',
      '--health-listen-addr',
      '127.0.0.1:0',
      '--live-listen-addr',
      `127.0.0.1:${port}`,
      '--live-tls-cert-file',
      serving.certFile,
      '--live-tls-key-file',
      serving.keyFile,
      // short, so the test sees a withdrawn role and a stream's end of time
      '--live-reauthorize-seconds',
      '1',
      '--live-max-stream-seconds',
      '20',
    ]);
    await eventually('the live API to listen', () => operator.log().includes('"live API listening"'));
    await register(server, port, pki.ca.cert);
    reader = await server.clientCertUser('dana', ['shop-readers']);
    await applyRaw(
      server,
      '/apis/rbac.authorization.k8s.io/v1/clusterroles/streamroute-live-reader',
      READER_ROLE,
    );
    await applyRaw(server, '/apis/rbac.authorization.k8s.io/v1/namespaces/shop/rolebindings/readers', {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'RoleBinding',
      metadata: { name: 'readers', namespace: 'shop' },
      roleRef: {
        apiGroup: 'rbac.authorization.k8s.io',
        kind: 'ClusterRole',
        name: 'streamroute-live-reader',
      },
      subjects: [{ kind: 'Group', name: 'shop-readers', apiGroup: 'rbac.authorization.k8s.io' }],
    });
  });

  after(async () => {
    await operator?.kill().catch(() => undefined);
    await server?.stop();
  });

  it('answers describe with every node (none here) and says on the stream that no data-plane pod runs yet', async () => {
    const described = await get(`${server.server}${BASE}/shop/httpingestors/orders-in/describe`, {
      ...reader,
      ca: server.ca,
    });
    assert.equal(described.status, 200, described.body);
    assert.deepEqual(JSON.parse(described.body), {
      kind: 'httpingestors',
      name: 'orders-in',
      namespace: 'shop',
      nodes: [],
    });
    const stream = await firstLine(`${server.server}${BASE}/shop/relays/orders/log?subscription=dana`, {
      ...reader,
      ca: server.ca,
    });
    assert.match(
      (JSON.parse(stream) as Record<string, string>)['@warning'] ?? '',
      /no running data-plane pods in namespace streamroute-system yet/,
    );
    assert.match(
      operator.log(),
      /"live_subscription_started".*"user":"dana".*"domain":"shop".*"relay":"orders".*"subscription":"dana"/,
    );
  });

  it('ends a stream whose role was taken away, and a stream at its maximum time, each with its reason', async () => {
    const bindUser = (user: string) =>
      applyRaw(server, `/apis/rbac.authorization.k8s.io/v1/namespaces/shop/rolebindings/${user}`, {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'RoleBinding',
        metadata: { name: user, namespace: 'shop' },
        roleRef: {
          apiGroup: 'rbac.authorization.k8s.io',
          kind: 'ClusterRole',
          name: 'streamroute-live-reader',
        },
        subjects: [{ kind: 'User', name: user, apiGroup: 'rbac.authorization.k8s.io' }],
      });
    const [erin, frank] = [await server.clientCertUser('erin', []), await server.clientCertUser('frank', [])];
    await bindUser('erin');
    await bindUser('frank');
    const url = (user: string) => `${server.server}${BASE}/shop/relays/orders/log?subscription=${user}`;
    await eventually(
      'erin to be allowed',
      async () => (await firstLine(url('erin'), { ...erin, ca: server.ca })) !== '',
    );
    const started = performance.now();
    const erinStream = get(url('erin'), { ...erin, ca: server.ca });
    const frankStream = get(url('frank'), { ...frank, ca: server.ca });
    await new Promise((resolve) => setTimeout(resolve, 500));
    const admin = new KubeApi({
      kubeconfig: server.kubeconfigPath,
      rateLimit: { qps: 10, burst: 10 },
      userAgent: 'test',
    });
    await admin.request({
      method: 'DELETE',
      path: '/apis/rbac.authorization.k8s.io/v1/namespaces/shop/rolebindings/erin',
    });
    const revoked = await erinStream;
    // one review a second, answers cached for at most 10 s
    assert.ok(
      performance.now() - started < 15_000,
      `erin's stream ended after ${performance.now() - started} ms`,
    );
    assert.match(
      revoked.body,
      /"@warning":"your access to this relay was withdrawn \(RBAC\): the stream ends"/,
    );
    const again = await get(url('erin'), { ...erin, ca: server.ca });
    assert.equal(again.status, 403);
    const ended = await frankStream;
    const lasted = performance.now() - started;
    assert.ok(lasted > 19_000 && lasted < 30_000, `frank's stream lasted ${lasted} ms`);
    assert.match(
      ended.body,
      /"@warning":"the stream reached its maximum time and ends; open it again to authenticate again"/,
    );
    // the operator logs the end after it ended the response: wait for the lines
    for (const ended of [
      /"live_subscription_ended".*"user":"erin".*"reason":"revoked"/,
      /"live_subscription_ended".*"user":"frank".*"reason":"lifetime"/,
    ])
      await eventually(`the log line ${ended.source}`, () => ended.test(operator.log()));
  });
});

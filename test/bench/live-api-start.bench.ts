// How long a subscription takes to start through the live API (decision 0019), and what it asks of the API
// server: a client-certificate user's GET of relays/<r>/log through the REAL kube-apiserver (which
// authenticates the user, checks RBAC and proxies to the operator's aggregated API, here in this process),
// to the first streamed line; side by side with a built-in GET through the same API server as the same
// user (the cost of any authorized request). Two sets of rows: the route alone (a handler that answers at
// once), and end to end — the operator's real handlers, which take the data-plane pods from a watch and
// subscribe on each pod's internal listener over mutual TLS (two "pods": admin servers in this process
// on 127.0.0.2 and 127.0.0.3, their Pod objects written as a kubelet would), to the first record of every
// pod. Counts what each start asks of the API server: the user's request, plus the operator's own
// requests (SubjectAccessReviews; the pod watch is open already): a repeated start within the cache time
// (10 s) costs the user's request alone, a first start by a user one review more.
//
//   npx tsx test/bench/live-api-start.bench.ts            # 200 starts per variant
//   STARTS=1000 npx tsx test/bench/live-api-start.bench.ts
import type { AddressInfo } from 'node:net';
import { request } from 'node:https';
import pino from 'pino';
import { KubeApi } from '../../dataplane/kube-client/kube-api.js';
import { AccessReview } from '../../operator/access/access-review.js';
import { createAggregatedApi, LIVE_GROUP, LIVE_VERSION } from '../../operator/access/aggregated-api.js';
import { EXTENSION_AUTH_CONFIGMAP, frontProxyConfig } from '../../operator/access/front-proxy.js';
import { startKubeApiServer, type KubeTestServer } from '../support/kube-apiserver.js';
import { applyRaw } from '../support/kube-client.js';
import {
  LIVE_SERVICE,
  LIVE_SYSTEM,
  READER_ROLE,
  register,
  registerDataplanePod,
} from '../support/live-api.js';
import { signed, testPki } from '../support/test-pki.js';
import { percentile } from './kube-bench-support.js';
import { startAdmin } from '../fixtures/admin-client.js';
import { systemClock } from '../../dataplane/core/clock.js';
import { DEFAULT_INTERNAL_CLIENT_NAME } from '../../dataplane/kube/internal-flags.js';
import { DEFAULT_INTERNAL_SERVER_NAME } from '../../operator/access/live-api-defaults.js';
import { internalAccess, WatchedPods } from '../../operator/cluster/internal-access.js';
import { liveHandlers } from '../../operator/cluster/live-handlers.js';

const STARTS = Number(process.env['STARTS'] ?? 200);
const DOMAIN = 'shop';

interface User {
  cert: string;
  key: string;
}

/** ms from the request to `lines` lines of the body (or its end), then the request is cut. */
function linesMs(
  server: KubeTestServer,
  path: string,
  user: User,
  lines: number,
): Promise<{ ms: number; status: number }> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = request(`${server.server}${path}`, { ...user, ca: server.ca, agent: false }, (response) => {
      let seen = 0;
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        seen += chunk.split('\n').length - 1;
        if (seen < lines) return;
        resolve({ ms: performance.now() - started, status: response.statusCode ?? 0 });
        req.destroy();
      });
      response.once('end', () =>
        resolve({ ms: performance.now() - started, status: response.statusCode ?? 0 }),
      );
    });
    req.on('error', (error) => (req.destroyed ? undefined : reject(error)));
    req.end();
  });
}

/** What the operator's side asked of the API server: its reviews, and every request of its client. */
interface OperatorCounts {
  review: AccessReview;
  api: KubeApi;
}

const requestsOf = (api: KubeApi): number => [...api.sent.values()].reduce((sum, count) => sum + count, 0);

async function variant(
  label: string,
  run: (i: number) => Promise<{ ms: number; status: number }>,
  counts?: OperatorCounts,
) {
  const reviewsBefore = counts?.review.sent ?? 0;
  const requestsBefore = counts === undefined ? 0 : requestsOf(counts.api);
  const times: number[] = [];
  for (let i = 0; i < STARTS; i++) {
    const { ms, status } = await run(i);
    if (status !== 200) throw new Error(`${label}: HTTP ${status}`);
    times.push(ms);
  }
  const reviews = counts === undefined ? '' : ((counts.review.sent - reviewsBefore) / STARTS).toFixed(2);
  // the user's own request, and what the operator sent
  const requests =
    counts === undefined ? '1' : (1 + (requestsOf(counts.api) - requestsBefore) / STARTS).toFixed(2);
  console.log(
    `| ${label} | ${percentile(times, 50).toFixed(2)} | ${percentile(times, 99).toFixed(2)} | ${reviews} | ${requests} |`,
  );
}

/** Two data-plane "pods": admin servers with internal listeners, whose relay sends one record to each new subscriber. */
async function startPods(server: KubeTestServer, admin: KubeApi): Promise<() => Promise<void>> {
  const pki = testPki();
  const internal = signed(pki.dir, 'bench-dataplane-internal', pki.ca, {
    cn: DEFAULT_INTERNAL_SERVER_NAME,
    ext: `subjectAltName=DNS:${DEFAULT_INTERNAL_SERVER_NAME}`,
    usage: 'serverAuth',
  });
  const stops: (() => Promise<void>)[] = [];
  for (const [name, ip] of [
    ['bench-a', '127.0.0.2'],
    ['bench-b', '127.0.0.3'],
  ] as const) {
    const pod = await startAdmin({
      internal: {
        address: { host: ip, port: 0 },
        cert: internal.cert,
        key: internal.key,
        clientCa: pki.ca.cert,
        clientName: DEFAULT_INTERNAL_CLIENT_NAME,
      },
    });
    const relay = pod.backend.addRelay('orders');
    const subscribe = pod.backend.subscribe.bind(pod.backend);
    pod.backend.subscribe = (domain, relayName, subscriber) => {
      const result = subscribe(domain, relayName, subscriber);
      setImmediate(() => relay.publish({ pod: name }));
      return result;
    };
    const internalPort = pod.server.internalStatus?.port ?? 0;
    await registerDataplanePod(server, admin, LIVE_SYSTEM, { name, ip, internalPort });
    stops.push(() => pod.server.stop(0));
  }
  return async () => {
    for (const stop of stops) await stop();
  };
}

async function main(): Promise<void> {
  const server = await startKubeApiServer();
  try {
    const admin = new KubeApi({
      kubeconfig: server.kubeconfigPath,
      rateLimit: { qps: 1000, burst: 1000 },
      userAgent: 'bench',
    });
    const published = await admin.request<{ data?: Record<string, string> }>({
      path: `/api/v1/namespaces/${EXTENSION_AUTH_CONFIGMAP.namespace}/configmaps/${EXTENSION_AUTH_CONFIGMAP.name}`,
    });
    const frontProxy = frontProxyConfig(published.data);
    if (!frontProxy.ok) throw new Error(frontProxy.reason);
    const pki = testPki();
    const serving = signed(pki.dir, 'live-bench', pki.ca, {
      cn: `${LIVE_SERVICE}.${LIVE_SYSTEM}.svc`,
      ext: `subjectAltName=DNS:${LIVE_SERVICE}.${LIVE_SYSTEM}.svc`,
      usage: 'serverAuth',
    });
    const review = new AccessReview({ api: admin });
    const live = createAggregatedApi({
      serving,
      frontProxy: frontProxy.config,
      review,
      logger: pino({ level: 'silent' }),
      handlers: {
        relayLog: ({ signal }, response) => {
          response.writeHead(200, { 'content-type': 'application/x-ndjson' });
          response.write('{"started":true}\n');
          return new Promise((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
        },
        describe: () => Promise.resolve({}),
      },
    });
    await new Promise<void>((resolve) => live.listen(0, '127.0.0.1', resolve));
    for (const namespace of [LIVE_SYSTEM, DOMAIN])
      await applyRaw(server, `/api/v1/namespaces/${namespace}`, {
        apiVersion: 'v1',
        kind: 'Namespace',
        metadata: { name: namespace },
      });
    await register(server, (live.address() as AddressInfo).port, pki.ca.cert);
    await applyRaw(
      server,
      '/apis/rbac.authorization.k8s.io/v1/clusterroles/streamroute-live-reader',
      READER_ROLE,
    );
    await applyRaw(server, '/apis/rbac.authorization.k8s.io/v1/clusterroles/ns-reader', {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRole',
      metadata: { name: 'ns-reader' },
      rules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get'] }],
    });
    for (const role of ['streamroute-live-reader', 'ns-reader'])
      await applyRaw(server, `/apis/rbac.authorization.k8s.io/v1/namespaces/${DOMAIN}/rolebindings/${role}`, {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'RoleBinding',
        metadata: { name: role, namespace: DOMAIN },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: role },
        subjects: [{ kind: 'Group', name: 'shop-team', apiGroup: 'rbac.authorization.k8s.io' }],
      });
    await admin.request({
      method: 'POST',
      path: `/api/v1/namespaces/${DOMAIN}/configmaps`,
      body: { metadata: { name: 'probe' }, data: { a: 'b' } },
    });
    const user = await server.clientCertUser('bench-user', ['shop-team']);
    // a user per start for the uncached row (a review's answer is kept per caller)
    const others: User[] = [];
    for (let i = 0; i < STARTS; i++)
      others.push(await server.clientCertUser(`bench-user-${i}`, ['shop-team']));
    const log = `/apis/${LIVE_GROUP}/${LIVE_VERSION}/namespaces/${DOMAIN}/relays/orders/log`;
    for (let i = 0; i < 20; i++) await linesMs(server, log, user, 1); // warm up
    console.log(
      `${STARTS} starts per row, one at a time, each on a new TLS connection, as a client-certificate user\n`,
    );
    console.log(
      '| request | p50 ms | p99 ms | SubjectAccessReviews per start | API-server requests per start |\n|---|---:|---:|---:|---:|',
    );
    await variant('built-in GET of a ConfigMap (baseline)', () =>
      linesMs(server, `/api/v1/namespaces/${DOMAIN}/configmaps/probe`, user, 1),
    );
    await variant('subscription start, same user (review cached)', () => linesMs(server, log, user, 1), {
      review,
      api: admin,
    });
    await variant(
      'subscription start, first by its user (one review)',
      (i) => linesMs(server, log, others[i] as User, 1),
      { review, api: admin },
    );
    live.closeAllConnections();
    live.close();

    // End to end: the operator's real handlers and the internal channel to two pods.
    const stopPods = await startPods(server, admin);
    const operatorApi = new KubeApi({
      kubeconfig: server.kubeconfigPath,
      rateLimit: { qps: 1000, burst: 1000 },
      userAgent: 'bench-operator',
    });
    const operatorReview = new AccessReview({ api: operatorApi });
    const client = signed(pki.dir, 'bench-operator-internal', pki.ca, {
      cn: DEFAULT_INTERNAL_CLIENT_NAME,
      ext: `subjectAltName=DNS:${DEFAULT_INTERNAL_CLIENT_NAME}`,
      usage: 'clientAuth',
    });
    const stopWatch = new AbortController();
    const logger = pino({ level: 'silent' });
    const pods = new WatchedPods({
      api: operatorApi,
      namespace: LIVE_SYSTEM,
      clock: systemClock,
      logger,
      signal: stopWatch.signal,
    });
    const access = internalAccess(pods, { ca: pki.ca.cert, cert: client.cert, key: client.key });
    const operator = createAggregatedApi({
      serving,
      frontProxy: frontProxy.config,
      review: operatorReview,
      logger,
      handlers: liveHandlers({
        api: operatorApi,
        clusterOptions: {},
        operatorNamespace: LIVE_SYSTEM,
        logger,
        access,
      }),
    });
    await new Promise<void>((resolve) => operator.listen(0, '127.0.0.1', resolve));
    await register(server, (operator.address() as AddressInfo).port, pki.ca.cert);
    let n = 0;
    const subscribe = (who: User) => linesMs(server, `${log}?subscription=s-${n++}`, who, 2);
    // warm up: the aggregator moves to the new port, the operator lists the pods
    for (let ok = 0; ok < 20;) if ((await subscribe(user)).status === 200) ok++;
    const endToEnd = { review: operatorReview, api: operatorApi };
    await variant('end to end, 2 pods: same user (review cached)', () => subscribe(user), endToEnd);
    const fresh: User[] = [];
    for (let i = 0; i < STARTS; i++) fresh.push(await server.clientCertUser(`bench-e2e-${i}`, ['shop-team']));
    await variant(
      'end to end, 2 pods: first by its user (one review)',
      (i) => subscribe(fresh[i] as User),
      endToEnd,
    );
    stopWatch.abort();
    operator.closeAllConnections();
    operator.close();
    await stopPods();
  } finally {
    await server.stop();
  }
}

await main();
process.exit(0);

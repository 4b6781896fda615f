// How long a subscription takes to start through the live API (decision 0019), and what it asks of the API
// server: a client-certificate user's GET of relays/<r>/log through the REAL kube-apiserver (which
// authenticates the user, checks RBAC and proxies to the operator's aggregated API, here in this process),
// to the first streamed line; side by side with a built-in GET through the same API server as the same
// user (the cost of any authorized request). The handler behind the route answers at once: the fan-out to
// the data-plane pods is not measured here. Counts the SubjectAccessReviews the operator sent: a repeated
// start within the cache time (10 s) sends none; a first start by a user, one.
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
import { LIVE_SERVICE, LIVE_SYSTEM, READER_ROLE, register } from '../support/live-api.js';
import { signed, testPki } from '../support/test-pki.js';
import { percentile } from './kube-bench-support.js';

const STARTS = Number(process.env['STARTS'] ?? 200);
const DOMAIN = 'shop';

interface User {
  cert: string;
  key: string;
}

/** ms from the request to the first byte of the body (the first line), then the request is cut. */
function firstByteMs(
  server: KubeTestServer,
  path: string,
  user: User,
): Promise<{ ms: number; status: number }> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = request(`${server.server}${path}`, { ...user, ca: server.ca, agent: false }, (response) => {
      response.once('data', () => {
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

async function variant(
  label: string,
  run: (i: number) => Promise<{ ms: number; status: number }>,
  review?: AccessReview,
) {
  const before = review?.sent ?? 0;
  const times: number[] = [];
  for (let i = 0; i < STARTS; i++) {
    const { ms, status } = await run(i);
    if (status !== 200) throw new Error(`${label}: HTTP ${status}`);
    times.push(ms);
  }
  const reviews = review === undefined ? '' : ((review.sent - before) / STARTS).toFixed(2);
  console.log(
    `| ${label} | ${percentile(times, 50).toFixed(2)} | ${percentile(times, 99).toFixed(2)} | ${reviews} |`,
  );
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
    for (let i = 0; i < 20; i++) await firstByteMs(server, log, user); // warm up
    console.log(
      `${STARTS} starts per row, one at a time, each on a new TLS connection, as a client-certificate user\n`,
    );
    console.log('| request | p50 ms | p99 ms | SubjectAccessReviews per start |\n|---|---:|---:|---:|');
    await variant('built-in GET of a ConfigMap (baseline)', () =>
      firstByteMs(server, `/api/v1/namespaces/${DOMAIN}/configmaps/probe`, user),
    );
    await variant(
      'subscription start, same user (review cached)',
      () => firstByteMs(server, log, user),
      review,
    );
    await variant(
      'subscription start, first by its user (one review)',
      (i) => firstByteMs(server, log, others[i] as User),
      review,
    );
    live.closeAllConnections();
    live.close();
  } finally {
    await server.stop();
  }
}

await main();
process.exit(0);

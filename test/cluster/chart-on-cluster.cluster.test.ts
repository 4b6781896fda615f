// The product as a platform team installs it: the locally built images on a real single-node Kubernetes
// (kube-apiserver, etcd, controller-manager, scheduler, kube-proxy, kubelet, containerd; test/cluster/up.sh),
// the chart installed with helm, statements applied with the CLI and YAML with kubectl, traffic sent to the
// node's address from outside the node, records read with `streamroute subscribe` (through a port-forward)
// and at a real rsyslog. Then the faults a cluster has: pods deleted, the leader lost, the kubelet and
// containerd restarted, a rolling update; and `helm uninstall`. The tests run in order and share the
// release: each says what it leaves for the next.
import assert from 'node:assert/strict';
import { request as httpsRequest } from 'node:https';
import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { testPki } from '../support/test-pki.js';
import type { StreamrouteProcess } from '../support/cluster-processes.js';
import type { WireReceiver } from '../support/syslog-wire-peer.js';
import { startRsyslogReceiver } from '../support/syslog-wire-rsyslog.js';
import { Cluster, clusterFacts, RELEASE, ROOT, SYSTEM } from './cluster-support.js';
import { httpRequest, sendTcp, sendTls, sendUdp, tryConnect } from './node-traffic.js';
import { since, waitUntil } from './wait.js';
import { certificateUser, liveGet, viewerAccount } from './live-users.js';

const DOMAIN = 'shop';
const HTTP_PORT = 8080;
const ADMIN_PORT = 8081;
const HEALTH_PORT = 8090;
const SYSLOG_PORT = 5514;
const TLS_PORT = 6514;
const DATAPLANE = `${RELEASE}-dataplane`;
const OPERATOR = `${RELEASE}-operator`;
const MINUTE = 60_000;

interface PodList {
  items: Pod[];
}
interface Pod {
  metadata: { name: string; uid: string; labels?: Record<string, string> };
  spec: {
    nodeName?: string;
    hostNetwork?: boolean;
    securityContext?: Record<string, unknown>;
    containers: { image: string; securityContext?: Record<string, unknown> }[];
    volumes?: { name: string; projected?: { sources: Record<string, unknown>[] } }[];
  };
  status: {
    phase?: string;
    conditions?: { type: string; status: string }[];
    containerStatuses?: { ready: boolean; restartCount: number; containerID?: string; image: string }[];
  };
}

const isReady = (pod: Pod): boolean =>
  pod.status.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ?? false;

describe('streamroute on a real single-node Kubernetes: images, chart, kubelet', function () {
  const facts = clusterFacts();
  const cluster = new Cluster(facts);
  const { nodeIp } = facts;
  let receiver: WireReceiver;
  const subscribers: StreamrouteProcess[] = [];
  const timings: Record<string, number> = {};
  /** The version the node serves after the CLI applied the graph. */
  let graphVersion = 0;

  const pods = async (component: 'operator' | 'dataplane'): Promise<Pod[]> =>
    (
      await cluster.json<PodList>([
        'get',
        'pods',
        '-n',
        SYSTEM,
        '-l',
        `app.kubernetes.io/component=${component}`,
      ])
    ).items;
  const dataplanePod = async (): Promise<Pod> => {
    const [pod, ...more] = await pods('dataplane');
    assert.ok(pod !== undefined && more.length === 0, 'one data-plane pod on the one node');
    return pod;
  };
  const post = (path: string, body: unknown) =>
    httpRequest(
      { host: nodeIp, port: HTTP_PORT, path, method: 'POST', hostHeader: 'orders.shop' },
      JSON.stringify(body),
    );
  const dataplaneLogs = () => cluster.must(['logs', '-n', SYSTEM, `daemonset/${DATAPLANE}`, '--tail', '-1']);
  const subscribe = async (name: string, relay: string): Promise<StreamrouteProcess> => {
    const process = cluster.streamrouteProcess(`subscribe-${name}`, [
      'subscribe',
      '-d',
      DOMAIN,
      '--operator-namespace',
      SYSTEM,
      name,
      relay,
    ]);
    subscribers.push(process);
    // Records before a subscriber joins are not kept: wait until the pod has it.
    await waitUntil(
      `subscription ${name} to join on the data-plane pod`,
      async () =>
        (await dataplaneLogs())
          .split('\n')
          .some((line) => line.includes('subscriber_joined') && line.includes(`"subscription":"${name}"`)),
      60_000,
      500,
    );
    return process;
  };
  const printed = (process: StreamrouteProcess): Record<string, unknown>[] =>
    process
      .log()
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as Record<string, unknown>);
  const servedVersion = async (): Promise<number | undefined> => {
    const node = await cluster.json<{ status?: { domains?: { domain: string; graphVersion: number }[] } }>([
      'get',
      'dataplanenode',
      facts.nodeName,
    ]);
    return node.status?.domains?.find((entry) => entry.domain === DOMAIN)?.graphVersion;
  };
  /** The published version once the node reports running it (reports lag the graph by up to 10 s). */
  const reportedPublished = async (): Promise<number | false> => {
    const pointer = await cluster.must([
      'get',
      'configmap',
      'streamroute-graph',
      '-n',
      DOMAIN,
      '-o',
      'jsonpath={.data.version}',
    ]);
    return Number(pointer) === (await servedVersion()) && Number(pointer);
  };

  this.timeout(10 * MINUTE);

  before(async () => {
    // A domain left by an earlier run (STREAMROUTE_KEEP_CLUSTER) would change what the graph holds.
    await cluster.must(['delete', 'namespace', DOMAIN, '--ignore-not-found', '--wait', '--timeout', '2m']);
    receiver = await startRsyslogReceiver({ out: { transport: 'tcp', address: facts.hostIp } });
  });

  after(async () => {
    for (const process of subscribers) await process.kill().catch(() => undefined);
    await receiver?.stop();
    console.log(`\n  cluster timings (ms): ${JSON.stringify(timings)}`);
  });

  afterEach(async function () {
    if (this.currentTest?.state !== 'failed') return;
    const what = await cluster.kubectl([
      'get',
      'pods,daemonsets,deployments,events',
      '-n',
      SYSTEM,
      '-o',
      'wide',
    ]);
    console.log(`--- ${SYSTEM} ---\n${what.stdout}${what.stderr}`);
    const logs = await cluster.kubectl([
      'logs',
      '-n',
      SYSTEM,
      '-l',
      'app.kubernetes.io/name=streamroute',
      '--tail',
      '30',
    ]);
    console.log(`--- logs ---\n${logs.stdout}${logs.stderr}`);
  });

  it('helm install: two operator replicas and the data-plane DaemonSet become Ready through their probes', async () => {
    const started = performance.now();
    const installed = await cluster.helm([...cluster.installArgs(), '--wait', '--timeout', '5m']);
    assert.equal(installed.code, 0, installed.stderr);
    timings['helm install → all pods Ready'] = since(started);
    const deployment = await cluster.json<{ status: { readyReplicas?: number } }>([
      'get',
      'deployment',
      OPERATOR,
      '-n',
      SYSTEM,
    ]);
    assert.equal(deployment.status.readyReplicas, 2);
    // helm --wait can return before the DaemonSet controller has counted its first pod (status 0 of 0).
    await waitUntil(
      'the DaemonSet to count one scheduled and Ready pod',
      async () => {
        const daemonSet = await cluster.json<{
          status: { numberReady?: number; desiredNumberScheduled?: number };
        }>(['get', 'daemonset', DATAPLANE, '-n', SYSTEM]);
        return daemonSet.status.desiredNumberScheduled === 1 && daemonSet.status.numberReady === 1;
      },
      2 * MINUTE,
      500,
    );
    const operatorNames = (await pods('operator')).map((pod) => pod.metadata.name);
    const holder = await waitUntil(
      'a leader in the operator Lease',
      async () =>
        (
          await cluster.json<{ spec?: { holderIdentity?: string } }>([
            'get',
            'lease',
            'streamroute-operator',
            '-n',
            SYSTEM,
          ])
        ).spec?.holderIdentity,
      60_000,
      500,
    );
    assert.ok(
      operatorNames.some((name) => holder.includes(name)),
      `lease holder ${holder} is one of ${operatorNames.join(', ')}`,
    );
  });

  it('runs as the chart says: non-root, read-only root filesystem, no capabilities, projected tokens', async () => {
    for (const pod of [...(await pods('operator')), await dataplanePod()]) {
      const container = pod.spec.containers[0]!;
      assert.equal(container.securityContext?.['readOnlyRootFilesystem'], true, pod.metadata.name);
      assert.equal(container.securityContext?.['allowPrivilegeEscalation'], false, pod.metadata.name);
      assert.deepEqual(
        (container.securityContext?.['capabilities'] as { drop?: string[] }).drop,
        ['ALL'],
        pod.metadata.name,
      );
      assert.equal(pod.spec.securityContext?.['runAsNonRoot'], true, pod.metadata.name);
      const token = pod.spec.volumes?.find((volume) =>
        volume.projected?.sources.some((source) => 'serviceAccountToken' in source),
      );
      assert.ok(token, `${pod.metadata.name} mounts a projected service-account token`);
    }
    // What the kernel says of the real processes (the container runtime runs them on this machine).
    const processes = streamrouteProcesses();
    assert.equal(processes.filter((p) => p.command === 'operator').length, 2, 'two operator processes');
    assert.equal(processes.filter((p) => p.command === 'dataplane').length, 1, 'one data-plane process');
    for (const process of processes) {
      assert.match(
        process.status,
        /^Uid:\s+65532\s+65532\s+65532\s+65532$/m,
        `${process.command} runs as 65532`,
      );
      assert.match(process.status, /^CapEff:\s+0+$/m, `${process.command} has no effective capabilities`);
      assert.match(process.status, /^NoNewPrivs:\s+1$/m, `${process.command} cannot gain privileges`);
      assert.ok(process.rootReadOnly, `${process.command}'s root filesystem is read-only`);
    }
  });

  it('serves statements applied with the CLI: HTTP and syslog over UDP, TCP and TLS at the node address, to subscribe and rsyslog', async () => {
    const pki = testPki();
    const keys = mkdtempSync(join(tmpdir(), 'streamroute-cluster-pki-'));
    writeFileSync(join(keys, 'server.crt'), pki.server.cert);
    writeFileSync(join(keys, 'server.key'), pki.server.key);
    await cluster.must(['create', 'namespace', DOMAIN]);
    const uploaded = await cluster.streamroute([
      '-d',
      DOMAIN,
      '-c',
      `CREATE RESOURCE pki; UPLOAD RESOURCE pki VERSION '${keys}';`,
    ]);
    assert.equal(uploaded.code, 0, uploaded.stderr);
    const started = performance.now();
    const applied = await cluster.streamroute(
      ['-d', DOMAIN, '-f', '-'],
      clusterGraph(facts.hostIp, receiver.ports['out'] ?? 0),
    );
    assert.equal(applied.code, 0, applied.stderr);
    // The upload published a version of its own; the graph is served once the node answers its path.
    await waitUntil(
      'POST /orders to be served',
      async () => (await post('/orders', {})).status === 202,
      60_000,
      100,
    );
    timings['CLI apply → served'] = since(started);
    graphVersion = await waitUntil(
      'the node to report the published version',
      reportedPublished,
      60_000,
      500,
    );

    const orders = await subscribe('tail', 'orders');
    const lines = await subscribe('lines', 'lines');
    assert.equal((await post('/orders', { order_id: 'A-1', amount: 250 })).status, 202);
    await sendUdp(nodeIp, SYSLOG_PORT, 'over udp');
    await sendTcp(nodeIp, SYSLOG_PORT, 'over tcp');
    await sendTls(nodeIp, TLS_PORT, 'over tls', { ca: pki.ca.cert, servername: 'localhost' });

    await waitUntil('the order at the subscriber', () => printed(orders).length === 1, 30_000);
    assert.deepEqual(printed(orders), [{ order_id: 'A-1', amount: 250 }]);
    await waitUntil('three syslog lines at the subscriber', () => printed(lines).length === 3, 30_000);
    assert.deepEqual(
      printed(lines)
        .map((line) => line['message'])
        .sort(),
      ['over tcp', 'over tls', 'over udp'],
    );
    const forwarded = [];
    for (let i = 0; i < 3; i++) forwarded.push((await receiver.next('out', 30_000)).message);
    assert.deepEqual(forwarded.sort(), ['over tcp', 'over tls', 'over udp']);
  });

  it('streams a relay through the live API to users with rights in the domain only (decision 0019)', async () => {
    await cluster.must(['create', 'namespace', 'elsewhere']);
    const inDomain = await viewerAccount(cluster, DOMAIN, 'reader');
    const elsewhere = await viewerAccount(cluster, 'elsewhere', 'reader');
    const certOnly = certificateUser(facts, 'erin', 'shop-team');
    await cluster.must([
      'create',
      'rolebinding',
      'shop-team-view',
      '-n',
      DOMAIN,
      '--clusterrole',
      'view',
      '--group',
      'shop-team',
    ]);
    await waitUntil(
      'the live APIService to be Available',
      async () =>
        (await cluster.must([
          'get',
          'apiservice',
          'v1alpha1.live.streamroute.io',
          '-o',
          'jsonpath={.status.conditions[?(@.type=="Available")].status}',
        ])) === 'True',
      60_000,
      500,
    );
    const log = `namespaces/${DOMAIN}/relays/orders/log`;
    for (const [user, subscription] of [
      [inDomain, 'live-sa'],
      [certOnly, 'live-cert'],
    ] as const) {
      const stream = await liveGet(facts, `${log}?subscription=${subscription}`, user);
      try {
        if (stream.status !== 200) assert.fail(`${user.name}: ${stream.status} ${await stream.body}`);
        // Records before a subscriber joins are not kept: wait until the pod has it.
        await waitUntil(
          `${subscription} to join on the data-plane pod`,
          async () => (await dataplaneLogs()).includes(`"subscription":"${subscription}"`),
          30_000,
        );
        const order = { order_id: `L-${subscription}`, amount: 7 };
        assert.equal((await post('/orders', order)).status, 202);
        await waitUntil(
          `the order at ${user.name}`,
          () => stream.lines.some((line) => line.includes(order.order_id)),
          30_000,
        );
        assert.deepEqual(
          JSON.parse(stream.lines.find((line) => line.includes(order.order_id)) ?? '{}'),
          order,
        );
      } finally {
        stream.close();
      }
    }
    const described = await liveGet(facts, `namespaces/${DOMAIN}/httpingestors/orders-in/describe`, certOnly);
    assert.equal(described.status, 200);
    const { nodes } = JSON.parse(await described.body) as {
      nodes: { node: string; description?: { state: string } }[];
    };
    assert.deepEqual(
      nodes.map((node) => [node.node, node.description?.state]),
      [[facts.nodeName, 'Running']],
    );
    const refused = await liveGet(facts, log, elsewhere);
    assert.equal(refused.status, 403, await refused.body);
    const anonymous = await liveGet(facts, log, undefined);
    assert.ok([401, 403].includes(anonymous.status), `anonymous: ${anonymous.status}`);
    // The data plane's only non-loopback listener that serves records, called without the operator's
    // client certificate: 401, no route reached.
    const direct = await insecureGet(
      nodeIp,
      INTERNAL_PORT,
      `/v1/domains/${DOMAIN}/relays/orders/subscriptions/x`,
    );
    assert.equal(direct.status, 401, direct.body);
    assert.match(direct.body, /"code":"unauthenticated".*no client certificate/);
  });

  it('serves YAML applied with kubectl as the next graph version', async () => {
    assert.equal((await post('/refunds', { order_id: 'R-0', amount: 1 })).status, 404);
    const converted = await cluster.streamroute(['convert', '-n', DOMAIN, '-'], REFUNDS_SQL);
    assert.equal(converted.code, 0, converted.stderr);
    const started = performance.now();
    await cluster.must(['apply', '-f', '-'], converted.stdout);
    await waitUntil(
      'POST /refunds to be served',
      async () => (await post('/refunds', { order_id: 'R-1', amount: 5 })).status === 202,
      60_000,
      100,
    );
    timings['kubectl apply → served'] = since(started);
    await waitUntil(
      'the node to report the next version',
      async () => ((await reportedPublished()) || 0) > graphVersion,
      60_000,
      500,
    );
  });

  it('names the DataplaneNode from the downward API and shows the pod in status and kubectl get columns', async () => {
    const nodes = await cluster.must(['get', 'dataplanenodes', '-o', 'name']);
    assert.deepEqual(nodes.trim().split('\n'), [`dataplanenode.streamroute.io/${facts.nodeName}`]);
    await waitUntil(
      'the ingestor columns to show Ready on one node',
      async () => {
        const table = await cluster.must(['get', 'httpingestors', 'orders-in', '-n', DOMAIN, '--no-headers']);
        const [, , , accepted, ready, nodes, errors] = table.trim().split(/\s+/);
        return accepted === 'True' && ready === 'True' && nodes === '1' && errors === '0';
      },
      60_000,
      1_000,
    );
    await waitUntil(
      'the emitter columns to show Ready on one node',
      async () =>
        /True\s+True\s+1\s+0/.test(await cluster.must(['get', 'emitters', 'to-collector', '-n', DOMAIN])),
      60_000,
      1_000,
    );
  });

  it('keeps records on the pod loopback: the node address has no records API, health and metrics carry none', async () => {
    assert.equal(await tryConnect(nodeIp, ADMIN_PORT), 'ECONNREFUSED');
    const health = await httpRequest({ host: nodeIp, port: HEALTH_PORT, path: '/healthz' });
    assert.equal(health.status, 200);
    const metrics = await httpRequest({ host: nodeIp, port: HEALTH_PORT, path: '/metrics' });
    assert.equal(metrics.status, 200);
    assert.match(metrics.body, /streamroute_records_in_total/);
    assert.doesNotMatch(metrics.body, /A-1|over udp/);
    const records = await httpRequest({
      host: nodeIp,
      port: HEALTH_PORT,
      path: `/v1/domains/${DOMAIN}/relays/orders/subscriptions/x`,
    });
    assert.equal(records.status, 404);
    // On the node itself the admin API answers on loopback (what the port-forward reaches).
    const local = await cluster.inNode('curl', [
      '-s',
      '-o',
      '/dev/null',
      '-w',
      '%{http_code}',
      `http://127.0.0.1:${ADMIN_PORT}/healthz`,
    ]);
    assert.equal(local.stdout, '200');
  });

  it('recreates a deleted data-plane pod that restores its graph before it listens, losing no applied change', async () => {
    const before = await dataplanePod();
    const statuses = new Map<string, number>();
    let polling = true;
    const poller = (async () => {
      while (polling) {
        const outcome = await post('/orders', { order_id: 'P', amount: 1 }).then(
          (answer) => String(answer.status),
          (error: NodeJS.ErrnoException) => error.code ?? 'error',
        );
        statuses.set(outcome, (statuses.get(outcome) ?? 0) + 1);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    })();
    const started = performance.now();
    await cluster.must(['delete', 'pod', before.metadata.name, '-n', SYSTEM, '--wait=false']);
    // A change accepted by the API server while the pod is gone.
    const applied = await cluster.streamroute(['-d', DOMAIN, '-c', LATE_SQL]);
    assert.equal(applied.code, 0, applied.stderr);
    const after = await waitUntil(
      'a new Ready data-plane pod',
      async () => {
        const pod = (await pods('dataplane')).find((p) => p.metadata.uid !== before.metadata.uid);
        return pod !== undefined && isReady(pod) ? pod : undefined;
      },
      3 * MINUTE,
      500,
    );
    await waitUntil(
      'POST /late to be served',
      async () => (await post('/late', { order_id: 'L', amount: 1 })).status === 202,
      MINUTE,
      100,
    );
    timings['pod deleted → serving the change applied meanwhile'] = since(started);
    polling = false;
    await poller;
    assert.notEqual(after.metadata.uid, before.metadata.uid);
    assert.equal(
      statuses.get('404'),
      undefined,
      `answers while the pod was replaced: ${JSON.stringify([...statuses])}`,
    );
    assert.ok((statuses.get('202') ?? 0) > 0);
  });

  it('moves leadership to the other operator replica when the leader pod is deleted', async () => {
    const lease = async () =>
      (
        await cluster.json<{ spec?: { holderIdentity?: string } }>([
          'get',
          'lease',
          'streamroute-operator',
          '-n',
          SYSTEM,
        ])
      ).spec?.holderIdentity ?? '';
    const leader = await lease();
    const leaderPod = (await pods('operator')).find((pod) => leader.includes(pod.metadata.name));
    assert.ok(leaderPod, `the leader ${leader} is an operator pod`);
    const started = performance.now();
    await cluster.must(['delete', 'pod', leaderPod.metadata.name, '-n', SYSTEM, '--wait=false']);
    const next = await waitUntil(
      'another replica to hold the lease',
      async () => {
        const holder = await lease();
        return holder !== '' && !holder.includes(leaderPod.metadata.name) ? holder : undefined;
      },
      MINUTE,
      250,
    );
    timings['leader deleted → new leader'] = since(started);
    assert.ok(
      since(started) < 20_000,
      `the lease moved within the lease time (15 s) plus a renewal: ${since(started)} ms`,
    );
    const changed = await cluster.streamroute(['-d', DOMAIN, '-c', DROP_LATE_SQL]);
    assert.equal(changed.code, 0, changed.stderr);
    await waitUntil(
      'the new leader to publish the drop',
      async () => (await post('/late', {})).status === 404,
      MINUTE,
      250,
    );
    assert.ok(next.length > 0);
  });

  for (const component of ['kubelet', 'containerd'] as const) {
    it(`keeps serving through a restart of ${component}`, async () => {
      const before = await dataplanePod();
      await cluster.script('restart.sh', [component]);
      assert.equal((await post('/orders', { order_id: `K-${component}`, amount: 1 })).status, 202);
      await waitUntil(
        'the node Ready again',
        async () => (await cluster.must(['get', 'node', facts.nodeName, '--no-headers'])).includes(' Ready'),
        2 * MINUTE,
        1_000,
      );
      const after = await dataplanePod();
      assert.equal(after.metadata.uid, before.metadata.uid, 'the same pod');
      assert.equal(
        after.status.containerStatuses?.[0]?.restartCount,
        before.status.containerStatuses?.[0]?.restartCount,
      );
      assert.equal((await post('/orders', { order_id: `K2-${component}`, amount: 1 })).status, 202);
    });
  }

  it('rolls the DaemonSet to a new image tag with helm upgrade (maxUnavailable 1)', async () => {
    const before = await dataplanePod();
    const started = performance.now();
    const upgraded = await cluster.helm([
      ...cluster.upgradeDataplaneArgs(facts.nextTag),
      '--wait',
      '--timeout',
      '5m',
    ]);
    assert.equal(upgraded.code, 0, upgraded.stderr);
    const after = await waitUntil(
      'the data-plane pod on the new tag, Ready',
      async () => {
        const pod = await dataplanePod();
        return pod.spec.containers[0]?.image.endsWith(`:${facts.nextTag}`) && isReady(pod) ? pod : undefined;
      },
      3 * MINUTE,
      500,
    );
    timings['helm upgrade → new data-plane pod Ready'] = since(started);
    assert.notEqual(after.metadata.uid, before.metadata.uid);
    assert.equal((await post('/orders', { order_id: 'U-1', amount: 1 })).status, 202);
  });

  it('helm uninstall leaves nothing of the release behind and keeps the CRDs', async () => {
    for (const process of subscribers.splice(0)) await process.kill();
    const removed = await cluster.helm(['uninstall', RELEASE, '-n', SYSTEM, '--wait', '--timeout', '3m']);
    assert.equal(removed.code, 0, removed.stderr);
    await waitUntil(
      'the release pods gone',
      async () => (await cluster.must(['get', 'pods', '-n', SYSTEM, '-o', 'name'])).trim() === '',
      2 * MINUTE,
      1_000,
    );
    const selector = `app.kubernetes.io/instance=${RELEASE}`;
    const namespaced = await cluster.must([
      'get',
      'all,configmaps,secrets,serviceaccounts,roles,rolebindings,poddisruptionbudgets',
      '-n',
      SYSTEM,
      '-l',
      selector,
      '-o',
      'name',
    ]);
    assert.equal(namespaced.trim(), '');
    const clusterWide = await cluster.must([
      'get',
      'clusterroles,clusterrolebindings',
      '-l',
      selector,
      '-o',
      'name',
    ]);
    assert.equal(clusterWide.trim(), '');
    const crds = await cluster.must(['get', 'crds', '-o', 'name']);
    assert.match(crds, /httpingestors\.streamroute\.io/);
    assert.equal(await tryConnect(nodeIp, HTTP_PORT), 'ECONNREFUSED');
  });
});

/** The example graph of README "Run on Kubernetes", its collector replaced by the test's rsyslog, plus UDP and TLS. */
function clusterGraph(hostIp: string, receiverPort: number): string {
  const example = readFileSync(join(ROOT, 'examples', 'kubernetes', 'graph.sql'), 'utf8').replaceAll(
    'syslog-collector.logging.svc.cluster.local:514',
    `${hostIp}:${receiverPort}`,
  );
  return `${example}
CREATE CLIENT node_udp TYPE SYSLOG CONFIG { 'protocol' = 'udp', 'addr' = '0.0.0.0:${SYSLOG_PORT}' };
CREATE CLIENT node_tls TYPE SYSLOG MOUNT pki VERSION LATEST CONFIG {
  'protocol' = 'tls', 'addr' = '0.0.0.0:${TLS_PORT}',
  'tls_cert_file' = '{{ pki }}/server.crt', 'tls_key_file' = '{{ pki }}/server.key'
};
CREATE SYSLOG LISTENER INGESTOR udp_in FROM node_udp MODE NO ACK ON QUIESCE SUSPEND DECODE USING syslog
  TO lines INHERIT ALL UNBRANCHED FLUSH IMMEDIATE ON MESSAGE ERROR LOG ON GENERAL ERROR LOG;
CREATE SYSLOG LISTENER INGESTOR tls_in FROM node_tls MODE NO ACK ON QUIESCE SUSPEND DECODE USING syslog
  TO lines INHERIT ALL UNBRANCHED FLUSH IMMEDIATE ON MESSAGE ERROR LOG ON GENERAL ERROR LOG;
`;
}

const REFUNDS_SQL = `
CREATE ENDPOINT refunds_ep ON orders_host PATH '/refunds' TYPE HTTP;
CREATE HTTP ENDPOINT INGESTOR refunds_in FROM refunds_ep MODE NO ACK
  ON QUIESCE BUFFER MAX SIZE 1MiB DECODE USING orders_json
  TO orders INHERIT ALL UNBRANCHED FLUSH IMMEDIATE ON MESSAGE ERROR LOG ON GENERAL ERROR LOG;
`;
const LATE_SQL = REFUNDS_SQL.replaceAll('refunds', 'late');
const DROP_LATE_SQL = 'DROP HTTP ENDPOINT INGESTOR late_in; DROP ENDPOINT late_ep;';

interface ProcessFacts {
  command: 'operator' | 'dataplane';
  status: string;
  rootReadOnly: boolean;
}

/** The chart's live.internalPort. */
const INTERNAL_PORT = 9444;

/** A GET over TLS that trusts any server certificate and presents none. */
function insecureGet(host: string, port: number, path: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const outgoing = httpsRequest(
      { host, port, path, rejectUnauthorized: false, agent: false },
      (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (body += chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
      },
    );
    outgoing.on('error', reject);
    outgoing.end();
  });
}

/** The streamroute processes the container runtime started on this machine, as /proc shows them. */
function streamrouteProcesses(): ProcessFacts[] {
  const found: ProcessFacts[] = [];
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    let argv: string[];
    try {
      argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    } catch {
      continue;
    }
    const entry = argv.findIndex((arg) => arg.endsWith('dist/operator/cli/main.js'));
    const command = argv[entry + 1];
    if (entry < 0 || (command !== 'operator' && command !== 'dataplane')) continue;
    const rootMount = readFileSync(`/proc/${pid}/mountinfo`, 'utf8')
      .split('\n')
      .find((line) => line.split(' ')[4] === '/');
    found.push({
      command,
      status: readFileSync(`/proc/${pid}/status`, 'utf8'),
      rootReadOnly: rootMount?.split(' ')[5]?.split(',').includes('ro') ?? false,
    });
  }
  return found;
}

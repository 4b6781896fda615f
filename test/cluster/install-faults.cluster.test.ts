// What goes wrong at install and on a node, on the real cluster, and what the user is shown: the chart
// installed without its CRDs, a syslog port another process already holds on the node, and an image the
// node does not have. Each shows as a condition, a readiness answer or a Kubernetes event that names the
// cause, and each wait of this harness ends at a deadline with what it saw (never a hang). The suite
// installs its own release and uninstalls it at the end; it runs after chart-on-cluster.cluster.test.ts
// (mocha sorts the files), which leaves no release behind.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { Cluster, clusterFacts, RELEASE, ROOT, SYSTEM } from './cluster-support.js';
import { tryConnect } from './node-traffic.js';
import { waitUntil } from './wait.js';

const DOMAIN = 'faults';
const TAKEN_PORT = 5599;
const OPERATOR_HEALTH_PORT = 8082;
const MINUTE = 60_000;

const TAKEN_PORT_SQL = `
CREATE SCHEMA line (facility U8, severity U8, message STRING);
CREATE CODEC syslog FROM SYSLOG TO SCHEMA line;
CREATE RELAY lines SCHEMA line UNBRANCHED;
CREATE CLIENT taken TYPE SYSLOG CONFIG { 'protocol' = 'tcp', 'addr' = '0.0.0.0:${TAKEN_PORT}' };
CREATE SYSLOG LISTENER INGESTOR taken_in FROM taken MODE NO ACK ON QUIESCE SUSPEND DECODE USING syslog
  TO lines INHERIT ALL UNBRANCHED FLUSH IMMEDIATE ON MESSAGE ERROR LOG ON GENERAL ERROR LOG;
`;

interface Condition {
  type: string;
  status: string;
  reason?: string;
  message?: string;
}

describe('install and node faults on a real single-node Kubernetes: each named, none a hang', function () {
  const facts = clusterFacts();
  const cluster = new Cluster(facts);
  let portHolder: ChildProcess | undefined;

  this.timeout(10 * MINUTE);

  const streamrouteCrds = async (): Promise<string[]> =>
    (await cluster.must(['get', 'crds', '-o', 'name']))
      .split('\n')
      .filter((name) => name.endsWith('.streamroute.io'));
  const operatorPods = async (): Promise<{ name: string; ip: string; restarts: number }[]> => {
    const { items } = await cluster.json<{
      items: {
        metadata: { name: string };
        status: { podIP?: string; containerStatuses?: { restartCount: number }[] };
      }[];
    }>(['get', 'pods', '-n', SYSTEM, '-l', 'app.kubernetes.io/component=operator']);
    return items.map((pod) => ({
      name: pod.metadata.name,
      ip: pod.status.podIP ?? '',
      restarts: pod.status.containerStatuses?.[0]?.restartCount ?? 0,
    }));
  };
  const ingestorReady = async (): Promise<Condition | undefined> => {
    const ingestor = await cluster.json<{ status?: { conditions?: Condition[] } }>([
      'get',
      'syslogingestors',
      'taken-in',
      '-n',
      DOMAIN,
    ]);
    return ingestor.status?.conditions?.find((condition) => condition.type === 'Ready');
  };

  before(async () => {
    // A release or domain left by a run that was kept (STREAMROUTE_KEEP_CLUSTER) would change what follows.
    await cluster.helm(['uninstall', RELEASE, '-n', SYSTEM, '--wait', '--ignore-not-found']);
    await cluster.must(['delete', 'namespace', DOMAIN, '--ignore-not-found', '--wait', '--timeout', '2m']);
  });

  after(async () => {
    portHolder?.kill('SIGKILL');
    await cluster.helm(['uninstall', RELEASE, '-n', SYSTEM, '--wait', '--ignore-not-found']);
    await cluster.kubectl(['delete', 'namespace', DOMAIN, '--ignore-not-found', '--wait=false']);
  });

  afterEach(async function () {
    if (this.currentTest?.state !== 'failed') return;
    console.log(`--- operator ---\n${await cluster.podTrouble('operator')}`);
    console.log(`--- dataplane ---\n${await cluster.podTrouble('dataplane')}`);
  });

  it('installed without its CRDs, the operator is not Ready and says which CRD is missing; applying them recovers it in place', async () => {
    for (const crd of await streamrouteCrds()) await cluster.must(['delete', crd, '--wait']);
    const installed = await cluster.helm([...cluster.installArgs(), '--skip-crds']);
    assert.equal(installed.code, 0, installed.stderr);

    const readyz = await waitUntil(
      "an operator pod's /readyz to name the missing CRD",
      async () => {
        const [pod] = await operatorPods();
        if (pod === undefined || pod.ip === '') return false;
        const answer = await cluster.inNode('curl', [
          '-s',
          '-w',
          ' %{http_code}',
          `http://${pod.ip}:${OPERATOR_HEALTH_PORT}/readyz`,
        ]);
        return answer.stdout.includes('is not installed') && answer.stdout;
      },
      2 * MINUTE,
      1_000,
    );
    assert.match(readyz, / 503$/);
    const body = JSON.parse(readyz.replace(/ 503$/, '')) as {
      ready: boolean;
      checks: { name: string; ok: boolean; detail: string }[];
    };
    assert.equal(body.ready, false);
    assert.ok(
      body.checks.some(
        (check) =>
          check.name === 'list /apis/streamroute.io/v1alpha1/relays' &&
          check.detail.startsWith('the CustomResourceDefinition relays.streamroute.io is not installed'),
      ),
      JSON.stringify(body.checks),
    );
    const logs = await cluster.must(['logs', '-n', SYSTEM, `deployment/${RELEASE}-operator`, '--tail', '-1']);
    assert.match(logs, /"level":50.*CustomResourceDefinition \w+\.streamroute\.io is not installed/);

    await cluster.must(['apply', '--server-side', '-f', join(ROOT, 'charts', 'streamroute', 'crds')]);
    await cluster.waitForPodsReady('operator', 3 * MINUTE);
    await cluster.waitForPodsReady('dataplane', 3 * MINUTE);
    assert.deepEqual(
      (await operatorPods()).map((pod) => pod.restarts),
      [0, 0],
      'recovered without a restart',
    );
  });

  it("a syslog port another process holds on the node: the ingestor's Ready condition names EADDRINUSE and the node, and it listens once the port is free", async () => {
    portHolder = spawn('ip', [
      'netns',
      'exec',
      facts.netns,
      'python3',
      '-c',
      `import socket, time\ns = socket.socket()\ns.bind(("0.0.0.0", ${TAKEN_PORT}))\ns.listen()\nprint("bound", flush=True)\ntime.sleep(600)`,
    ]);
    const holder = portHolder;
    await new Promise<void>((resolve, reject) => {
      holder.stdout?.once('data', () => resolve());
      holder.once('exit', (code) => reject(new Error(`the port holder exited (${code})`)));
    });
    await cluster.must(['create', 'namespace', DOMAIN]);
    const applied = await cluster.streamroute(['-d', DOMAIN, '-f', '-'], TAKEN_PORT_SQL);
    assert.equal(applied.code, 0, applied.stderr);

    const retrying = await waitUntil(
      'the SyslogIngestor to report the bind failure',
      async () => {
        const ready = await ingestorReady();
        return ready?.reason === 'Retrying' && ready;
      },
      2 * MINUTE,
      1_000,
    );
    assert.equal(retrying.status, 'False');
    assert.match(retrying.message ?? '', new RegExp(`node ${facts.nodeName}: .*EADDRINUSE`));

    holder.kill('SIGKILL');
    await waitUntil(
      'the SyslogIngestor to run once the port is free',
      async () => (await ingestorReady())?.status === 'True',
      2 * MINUTE,
      1_000,
    );
    assert.equal(await tryConnect(facts.nodeIp, TAKEN_PORT), 'connected');
  });

  it('an image the node does not have: the pod shows ErrImageNeverPull and the failed wait says so; a rollback serves again', async () => {
    const upgraded = await cluster.helm(cluster.upgradeDataplaneArgs('absent'));
    assert.equal(upgraded.code, 0, upgraded.stderr);
    // The old pod stays Ready until the DaemonSet replaces it: wait for the new one first.
    await waitUntil(
      'a data-plane pod of the absent image',
      async () => (await cluster.podTrouble('dataplane')).includes('dataplane:absent'),
      MINUTE,
      500,
    );
    await assert.rejects(cluster.waitForPodsReady('dataplane', 30_000), (error: Error) => {
      assert.match(error.message, /timed out after 30000 ms waiting for the dataplane pods to be Ready/);
      assert.match(error.message, /ErrImageNeverPull/);
      assert.match(error.message, /streamroute\/dataplane:absent/);
      return true;
    });

    const rolledBack = await cluster.helm(['rollback', RELEASE, '-n', SYSTEM, '--wait']);
    assert.equal(rolledBack.code, 0, rolledBack.stderr);
    await cluster.waitForPodsReady('dataplane', 3 * MINUTE);
    await waitUntil(
      'the SyslogIngestor to run again on the rolled-back pod',
      async () => (await tryConnect(facts.nodeIp, TAKEN_PORT)) === 'connected',
      2 * MINUTE,
      500,
    );
  });
});

// The operator in-process on a real kube-apiserver, with the real reconcile: the quickstart graph applied
// as custom resources becomes `streamroute-graph-v1` and the pointer; a changed object becomes v2; with
// two replicas only the leader publishes; a graceful stop releases the lease and the other takes over.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { pino, type Logger } from 'pino';
import { corePath, customPath, POINTER_NAME } from '../../dataplane/kube/contract.js';
import { KubeApi } from '../../dataplane/kube-client/kube-api.js';
import type { Lease } from '../../operator/controller/leader-election.js';
import { statementsToObjects } from '../../operator/language/convert.js';
import { parseScript } from '../../operator/language/parse.js';
import { GRAPH_KINDS } from '../../operator/api/index.js';
import { startOperator, type RunningOperator } from '../../operator/controller/main.js';
import { requireKubeOrSkip, sharedKubeApiServer, type KubeTestServer } from '../support/kube-apiserver.js';
import { installCrds, kubeClients } from '../support/kube-client.js';

const QUICKSTART = join(import.meta.dirname, '..', '..', 'examples', 'quickstart', 'graph.sql');

interface Item {
  metadata: { name: string; labels?: Record<string, string> };
  data?: Record<string, string>;
}

function quickstartObjects(
  namespace: string,
): { kind: string; metadata: { name: string; namespace: string } }[] {
  const parsed = parseScript(readFileSync(QUICKSTART, 'utf8'));
  const converted = statementsToObjects(parsed.statements, {});
  assert.deepEqual(
    [...parsed.diagnostics, ...converted.diagnostics].filter((d) => d.severity === 'error'),
    [],
  );
  return converted.objects.map((object) => ({
    ...object,
    kind: object.kind ?? '',
    metadata: { ...object.metadata, name: object.metadata?.name ?? '', namespace },
  }));
}

function plural(kind: string): string {
  const definition = GRAPH_KINDS.find((candidate) => candidate.kind === kind);
  assert.ok(definition, kind);
  return definition.plural;
}

describe('the operator on a real kube-apiserver', function () {
  this.timeout(180_000);
  const suffix = randomBytes(3).toString('hex');
  const system = `streamroute-system-${suffix}`;
  const domain = `quickstart-${suffix}`;
  let server: KubeTestServer;
  let api: KubeApi;
  let logger: Logger;
  const running: RunningOperator[] = [];

  before(async function () {
    await requireKubeOrSkip(this);
    server = await sharedKubeApiServer();
    await installCrds(kubeClients(server));
    api = new KubeApi({
      kubeconfig: server.kubeconfigPath,
      rateLimit: { qps: 100, burst: 200 },
      userAgent: 'e2e',
    });
    for (const name of [system, domain]) {
      await api.request({ method: 'POST', path: '/api/v1/namespaces', body: { metadata: { name } } });
    }
    logger = pino({ level: process.env['E2E_LOG_LEVEL'] ?? 'silent' }, pino.destination(2));
  });

  after(async () => {
    await Promise.all(running.map((operator) => operator.stop({ release: false })));
  });

  function start(identity: string): Promise<RunningOperator> {
    return startOperator({
      kubeconfig: server.kubeconfigPath,
      namespace: system,
      watchNamespaces: [domain],
      keepVersions: 10,
      leaderElection: { identity },
      healthAddress: { host: '127.0.0.1', port: 0 },
      rateLimit: { qps: 50, burst: 100 },
      logger: logger.child({ replica: identity }),
    }).then((operator) => {
      running.push(operator);
      return operator;
    });
  }

  async function graphVersions(): Promise<number[]> {
    const list = await api.request<{ items: Item[] }>({ path: corePath('configmaps', domain) });
    return list.items
      .map((item) => /^streamroute-graph-v(\d+)$/.exec(item.metadata.name)?.[1])
      .filter((version): version is string => version !== undefined)
      .map(Number)
      .sort((a, b) => a - b);
  }

  async function pointerVersion(): Promise<number | undefined> {
    try {
      const pointer = await api.request<Item>({ path: corePath('configmaps', domain, POINTER_NAME) });
      return Number(pointer.data?.['version']);
    } catch {
      return undefined;
    }
  }

  const lease = (): Promise<Lease> =>
    api.request<Lease>({
      path: `/apis/coordination.k8s.io/v1/namespaces/${system}/leases/streamroute-operator`,
    });

  async function eventually(what: string, check: () => Promise<boolean> | boolean, timeoutMs = 30_000) {
    const deadline = Date.now() + timeoutMs;
    while (!(await check())) {
      if (Date.now() > deadline) assert.fail(`${what}: not within ${timeoutMs} ms`);
      await sleep(100);
    }
  }

  async function setHostnames(hostnames: string[]): Promise<void> {
    await api.request({
      method: 'PATCH',
      path: customPath('vhosts', domain, 'local'),
      contentType: 'application/merge-patch+json',
      body: { spec: { hostnames } },
    });
  }

  async function metric(operator: RunningOperator, name: string): Promise<string> {
    const response = await fetch(`http://127.0.0.1:${operator.healthPort}/metrics`);
    const text = await response.text();
    return text
      .split('\n')
      .filter((line) => line.startsWith(name))
      .join('\n');
  }

  it('publishes the quickstart graph as v1 with the pointer, and v2 after a change', async () => {
    const a = await start('replica-a');
    await eventually(
      'ready',
      async () => (await fetch(`http://127.0.0.1:${a.healthPort}/readyz`)).status === 200,
    );
    assert.equal((await fetch(`http://127.0.0.1:${a.healthPort}/healthz`)).status, 200);
    await eventually('leading', () => a.controller.isLeader, 10_000);
    for (const object of quickstartObjects(domain)) {
      await api.request({ method: 'POST', path: customPath(plural(object.kind), domain), body: object });
    }
    await eventually('graph v1 and the pointer', async () => (await pointerVersion()) === 1);
    assert.deepEqual(await graphVersions(), [1]);

    await setHostnames(['localhost', 'orders.example']);
    await eventually('graph v2', async () => (await pointerVersion()) === 2);
    assert.deepEqual(await graphVersions(), [1, 2]);
    assert.match(await metric(a, 'streamroute_operator_leader'), /streamroute_operator_leader 1/);
    assert.match(await metric(a, 'streamroute_operator_reconciles_total'), /result="success"/);
  });

  it('with two replicas only the leader publishes; a graceful stop hands over', async () => {
    const [a] = running;
    assert.ok(a);
    const b = await start('replica-b');
    await eventually('b synced', () => b.controller.ready);
    await sleep(3_000);
    assert.equal(b.controller.isLeader, false);
    assert.equal((await lease()).spec?.holderIdentity, 'replica-a');

    await setHostnames(['localhost', 'orders.example', 'more.example']);
    await eventually('graph v3', async () => (await pointerVersion()) === 3);
    await sleep(2_000); // any write b would make has had time to land
    assert.deepEqual(await graphVersions(), [1, 2, 3]);
    assert.doesNotMatch(await metric(b, 'streamroute_operator_reconciles_total'), /result=/);
    assert.match(await metric(b, 'streamroute_operator_leader'), /streamroute_operator_leader 0/);

    const stopping = Date.now();
    await a.stop();
    running.splice(running.indexOf(a), 1);
    await eventually('b leads', () => b.controller.isLeader, 4_000);
    assert.ok(Date.now() - stopping < 4_000);
    // the new leader starts warm: it reconciles every known domain; nothing changed, so no new version
    await sleep(1_500);
    assert.deepEqual(await graphVersions(), [1, 2, 3]);
    await setHostnames(['localhost']);
    await eventually('graph v4 from b', async () => (await pointerVersion()) === 4);

    await b.stop();
    running.splice(running.indexOf(b), 1);
    assert.equal((await lease()).spec?.holderIdentity, '');
  });

  it('`streamroute operator` runs until SIGTERM, then releases the lease and exits 0', async () => {
    const cli = join(import.meta.dirname, '..', '..', 'operator', 'cli', 'main.ts');
    const child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        cli,
        'operator',
        '--kubeconfig',
        server.kubeconfigPath,
        '--namespace',
        system,
        '--watch-namespaces',
        domain,
        '--identity',
        'cli-replica',
        '--health-listen-addr',
        '127.0.0.1:0',
      ],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    let log = '';
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => (log += chunk));
    try {
      await eventually(
        'the CLI operator leads',
        async () => (await lease()).spec?.holderIdentity === 'cli-replica',
      );
      const port = /"port":(\d+),"msg":"health server listening"/.exec(log)?.[1];
      assert.ok(port, log);
      assert.equal((await fetch(`http://127.0.0.1:${port}/readyz`)).status, 200);
      child.kill('SIGTERM');
      assert.equal(await exited, 0, log);
      assert.equal((await lease()).spec?.holderIdentity, '');
      assert.match(log, /"msg":"released the lease"/);
    } finally {
      child.kill('SIGKILL');
    }
  });
});

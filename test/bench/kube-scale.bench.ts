// Scale benchmark on a real kube-apiserver: the operator (a child process) and N simulated nodes
// (kube-simulated-node.ts: the data plane's own watch, sync and reporter, 1 QPS burst 5 each) on one
// domain. It reports what the API server counts:
//   - writes/s in steady state, over a window in which every node's first heartbeat falls (each lands
//     uniformly in 150–450 s after its last write, so the window's rate is the fleet's long-run rate);
//   - writes/s in the minute after a new graph version (every node reports the version once);
//   - roll-up latency: from a node's report write to the ingestor's status counting it (p50/p99);
//   - the operator's memory.
//
//   npm run build && npx tsx test/bench/kube-scale.bench.ts      # 1,000 nodes, ~9 minutes
// (the operator runs compiled, as in its image: tsx would add its own compiler's memory)
//   NODES=200 STEADY_S=60 npx tsx test/bench/kube-scale.bench.ts   # a quick look
import { join } from 'node:path';
import { parseScript } from '../../operator/language/parse.js';
import { statementsToObjects } from '../../operator/language/convert.js';
import { KubeApi } from '../../dataplane/kube-client/kube-api.js';
import { corePath, customPath, POINTER_NAME } from '../../dataplane/kube/contract.js';
import { startKubeApiServer } from '../support/kube-apiserver.js';
import { createNamespace, installCrds, kubeClients, serverSideApply } from '../support/kube-client.js';
import { StreamrouteProcess } from '../support/cluster-processes.js';
import { freeTcpPort } from '../support/syslog-wire-peer.js';
import { apiserverWrites, difference, percentile, processMemory, total } from './kube-bench-support.js';
import { startSimulatedNode, type SimulatedNode } from './kube-simulated-node.js';
import { ORDERS_GRAPH } from '../fixtures/orders-graph.js';

const NODES = Number(process.env['NODES'] ?? 1000);
/** Steady-state window: from 160 s after the fleet's startup writes, this long. */
const STEADY_START_S = Number(process.env['STEADY_START_S'] ?? 160);
const STEADY_S = Number(process.env['STEADY_S'] ?? 240);
const AFTER_GRAPH_S = 60;
const SYSTEM = 'streamroute-system';
const DOMAIN = 'shop';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const seconds = (ms: number) => (ms / 1000).toFixed(1);

async function until(
  what: string,
  check: () => boolean | Promise<boolean>,
  timeoutMs: number,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(250);
  }
}

function objects(text: string) {
  const parsed = parseScript(text);
  return statementsToObjects(parsed.statements, {}).objects.map((object) => ({
    ...object,
    metadata: { ...object.metadata, namespace: DOMAIN },
  }));
}

interface Rollup {
  versions?: { version: number; nodes: number }[];
}

async function main(): Promise<void> {
  const server = await startKubeApiServer();
  const admin = new KubeApi({
    kubeconfig: server.kubeconfigPath,
    rateLimit: { qps: 100, burst: 200 },
    userAgent: 'bench',
  });
  const clients = kubeClients(server);
  await installCrds(clients);
  await createNamespace(clients, SYSTEM);
  await createNamespace(clients, DOMAIN);
  const operator = new StreamrouteProcess(
    'operator',
    [
      'operator',
      '--kubeconfig',
      server.kubeconfigPath,
      '--namespace',
      SYSTEM,
      '--health-listen-addr',
      `127.0.0.1:${await freeTcpPort()}`,
    ],
    { compiled: true },
  );
  const pointer = async (): Promise<number> => {
    const found = await admin
      .request<{ data?: Record<string, string> }>({ path: corePath('configmaps', DOMAIN, POINTER_NAME) })
      .catch(() => undefined);
    return Number(found?.data?.['version'] ?? 0);
  };
  try {
    for (const object of objects(ORDERS_GRAPH)) await serverSideApply(clients, object);
    await until('graph v1', async () => (await pointer()) === 1, 60_000);

    console.log(`starting ${NODES} simulated nodes…`);
    const started = Date.now();
    const nodes: SimulatedNode[] = [];
    for (let i = 0; i < NODES; i++) {
      nodes.push(startSimulatedNode(`node-${String(i).padStart(4, '0')}`, server.kubeconfigPath, SYSTEM));
      if (i % 50 === 49) await sleep(10);
    }
    await until('every node reporting v1', () => nodes.every((n) => n.reportedAt.has(1)), 300_000);
    const fleetUp = Date.now();
    console.log(`fleet reporting v1 after ${seconds(fleetUp - started)} s`);

    // Steady state: every node's first heartbeat falls in 150–450 s after its last write.
    await sleep(Math.max(0, fleetUp + STEADY_START_S * 1000 - Date.now()));
    const steadyBefore = await apiserverWrites(server);
    await sleep(STEADY_S * 1000);
    const steady = difference(await apiserverWrites(server), steadyBefore);
    const steadyRate = total(steady) / STEADY_S;
    const memorySteady = processMemory(operator.pid);

    // A new graph version: every node reports it once, spread over 0–5 s; the operator rolls it up.
    const graphBefore = await apiserverWrites(server);
    const changedAt = Date.now();
    for (const object of objects('CREATE RELAY audit SCHEMA orders UNBRANCHED;')) {
      await serverSideApply(clients, object);
    }
    const statusSeen: { at: number; count: number }[] = [];
    const watchUntil = changedAt + AFTER_GRAPH_S * 1000;
    while (Date.now() < watchUntil) {
      const ingestor = await admin.request<{ status?: { nodes?: Rollup } }>({
        path: customPath('httpingestors', DOMAIN, 'orders-in'),
      });
      const count = ingestor.status?.nodes?.versions?.find((v) => v.version === 2)?.nodes ?? 0;
      if (count > (statusSeen.at(-1)?.count ?? 0)) statusSeen.push({ at: Date.now(), count });
      await sleep(100);
    }
    const afterGraph = difference(await apiserverWrites(server), graphBefore);
    const published = (await pointer()) === 2;
    const reportTimes = nodes
      .map((node) => node.reportedAt.get(2))
      .filter((at): at is number => at !== undefined)
      .sort((a, b) => a - b);
    // The i-th report (in time order) is in the status once the status counts i + 1 nodes on v2.
    const latencies = reportTimes.flatMap((at, rank) => {
      const seen = statusSeen.find((entry) => entry.count >= rank + 1);
      return seen === undefined ? [] : [seen.at - at];
    });
    const memoryEnd = processMemory(operator.pid);

    const rows = [
      ['nodes', String(NODES)],
      [
        `steady writes/s (${STEADY_S} s window)`,
        `${steadyRate.toFixed(2)} (${[...steady].map(([k, v]) => `${k} ${v}`).join(', ')})`,
      ],
      [
        `writes/s in the ${AFTER_GRAPH_S} s after graph v2`,
        `${(total(afterGraph) / AFTER_GRAPH_S).toFixed(2)} (${[...afterGraph].map(([k, v]) => `${k} ${v}`).join(', ')})`,
      ],
      ['graph v2 published', String(published)],
      ['nodes reporting v2 within the minute', `${reportTimes.length}/${NODES}`],
      ['nodes on v2 in the ingestor status at the end', String(statusSeen.at(-1)?.count ?? 0)],
      [
        'roll-up latency report → status p50 / p99',
        `${seconds(percentile(latencies, 50))} s / ${seconds(percentile(latencies, 99))} s (${latencies.length} reports)`,
      ],
      [
        'operator memory RSS (steady / end / peak)',
        `${memorySteady.rssMiB.toFixed(0)} / ${memoryEnd.rssMiB.toFixed(0)} / ${memoryEnd.peakMiB.toFixed(0)} MiB`,
      ],
    ];
    console.log('\n| measure | value |\n|---|---|');
    for (const [name, value] of rows) console.log(`| ${name} | ${value} |`);
    await Promise.all(nodes.map((node) => node.stop()));
  } finally {
    await operator.stop();
    await server.stop();
    console.log(`operator log: ${join(operator.logFile)}`);
  }
}

await main();
process.exit(0);

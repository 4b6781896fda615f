// Scale benchmark on a real kube-apiserver: the operator (a child process) and N simulated nodes
// (kube-simulated-node.ts: the data plane's own watch, sync and reporter, 1 QPS burst 5 each) on one
// domain. It reports what the API server counts:
//   - writes/s in steady state, over a window within the one where every node's first heartbeat falls
//     (each lands uniformly in 0.5–1.5 heartbeat periods after its last write, the period following the
//     fleet size the operator publishes, decision 0018, so the window's rate is the fleet's long-run rate);
//   - writes/s in the minute after a new graph version (a sample of the fleet and any node with a problem
//     report at once, the rest with their heartbeats);
//   - pointer → applied: from the bench seeing the pointer name the new version to each node applying it;
//   - roll-up latency: from a node's report write to the ingestor's status counting it (p50/p99);
//   - the operator's memory, and the bench process's (the simulated fleet's).
//
//   npm run build && npx tsx test/bench/kube-scale.bench.ts      # 1,000 nodes, ~9 minutes
// (the operator runs compiled, as in its image: tsx would add its own compiler's memory)
//   NODES=200 STEADY_S=60 npx tsx test/bench/kube-scale.bench.ts   # a quick look
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseScript } from '../../operator/language/parse.js';
import { statementsToObjects } from '../../operator/language/convert.js';
import { KubeApi } from '../../dataplane/kube-client/kube-api.js';
import {
  ANNOTATION_FLEET_NODES,
  corePath,
  customPath,
  INDEX_NAME,
  POINTER_NAME,
} from '../../dataplane/kube/contract.js';
import { fleetPolicy, parseFleetNodes } from '../../dataplane/kube/fleet-policy.js';
import { startKubeApiServer } from '../support/kube-apiserver.js';
import { createNamespace, installCrds, kubeClients, serverSideApply } from '../support/kube-client.js';
import { StreamrouteProcess } from '../support/cluster-processes.js';
import { freeTcpPort } from '../support/syslog-wire-peer.js';
import {
  apiserverWrites,
  childPids,
  difference,
  percentile,
  processCpuSeconds,
  processMemory,
  total,
} from './kube-bench-support.js';
import { startSimulatedNode, type SimulatedNode } from './kube-simulated-node.js';
import { ORDERS_GRAPH } from '../fixtures/orders-graph.js';

const NODES = Number(process.env['NODES'] ?? 1000);
/** Steady-state window: from half a heartbeat period (+ 10 s) after the fleet's startup writes, this long. */
const STEADY_START_ENV = process.env['STEADY_START_S'];
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

/** A busy API server answers 429 (too many requests in flight): try again a few times. */
async function retried<T>(fn: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await fn();
    } catch (error) {
      if (attempt >= 20) throw error;
      await sleep(500);
    }
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
  reported?: number;
  pending?: number;
  reportWithinSeconds?: number;
}
interface Condition {
  type: string;
  status: string;
  reason: string;
  message: string;
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
  const fleetNodes = async (): Promise<number | undefined> => {
    const index = await admin
      .request<{ metadata: { annotations?: Record<string, string> } }>({
        path: corePath('configmaps', SYSTEM, INDEX_NAME),
      })
      .catch(() => undefined);
    return parseFleetNodes(index?.metadata.annotations?.[ANNOTATION_FLEET_NODES]);
  };
  try {
    for (const object of objects(ORDERS_GRAPH)) await serverSideApply(clients, object);
    await until('graph v1', async () => (await pointer()) === 1, 60_000);

    // The nodes connect as pods do: a service-account directory and KUBERNETES_SERVICE_HOST/PORT.
    const serviceAccountDir = join(server.workDir, 'serviceaccount');
    mkdirSync(serviceAccountDir, { recursive: true });
    writeFileSync(join(serviceAccountDir, 'token'), server.token);
    writeFileSync(join(serviceAccountDir, 'ca.crt'), server.ca);
    writeFileSync(join(serviceAccountDir, 'namespace'), SYSTEM);
    const url = new URL(server.server);
    const connection = {
      env: { KUBERNETES_SERVICE_HOST: url.hostname, KUBERNETES_SERVICE_PORT: url.port },
      serviceAccountDir,
    };
    console.log(`starting ${NODES} simulated nodes…`);
    const started = Date.now();
    const nodes: SimulatedNode[] = [];
    for (let i = 0; i < NODES; i++) {
      nodes.push(startSimulatedNode(`node-${String(i).padStart(4, '0')}`, connection, SYSTEM));
      if (i % 50 === 49) await sleep(10);
    }
    console.log(`${NODES} nodes started after ${seconds(Date.now() - started)} s`);
    await until(
      'every node reporting v1',
      () => nodes.every((n) => n.reportedAt.has(1)),
      Number(process.env['FLEET_UP_S'] ?? 1800) * 1000,
    );
    const fleetUp = Date.now();
    console.log(`fleet reporting v1 after ${seconds(fleetUp - started)} s`);
    // the size the operator settles on for the whole fleet (it counts reports as they arrive)
    await until('the fleet size on the index', async () => ((await fleetNodes()) ?? 0) >= NODES, 120_000);
    const fleet = await fleetNodes();
    const policy = fleetPolicy(fleet);
    console.log(
      `fleet size published ${fleet} after ${seconds(Date.now() - fleetUp)} s: heartbeat ${seconds(policy.heartbeatMs)} s, ` +
        `at once ${(policy.immediateProbability * 100).toFixed(1)} %`,
    );
    const memoryFleetUp = processMemory(operator.pid);

    // Steady state: every node's first heartbeat falls in 0.5–1.5 periods after its last write.
    const steadyStartS = Number(STEADY_START_ENV ?? Math.ceil(policy.heartbeatMs / 2000) + 10);
    await sleep(Math.max(0, fleetUp + steadyStartS * 1000 - Date.now()));
    const steadyBefore = await retried(() => apiserverWrites(server));
    await sleep(STEADY_S * 1000);
    const steady = difference(await retried(() => apiserverWrites(server)), steadyBefore);
    console.log(`steady window from ${steadyStartS} s after the fleet was up, ${STEADY_S} s`);
    const steadyRate = total(steady) / STEADY_S;
    const memorySteady = processMemory(operator.pid);
    console.log(
      `steady: ${steadyRate.toFixed(2)} writes/s (${[...steady].map(([k, v]) => `${k} ${v}`).join(', ')}); ` +
        `operator RSS ${memorySteady.rssMiB.toFixed(0)} MiB`,
    );

    // A new graph version: every node reports it once, spread over 0–5 s; the operator rolls it up.
    const graphBefore = await retried(() => apiserverWrites(server));
    const changedAt = Date.now();
    // CPU seconds each process spends in the minute after the change: which one limits pointer → applied
    const cpuPids = [process.pid, ...childPids(process.pid)];
    const cpuBefore = cpuPids.map((pid) => processCpuSeconds(pid));
    for (const object of objects('CREATE RELAY audit SCHEMA orders UNBRANCHED;')) {
      await retried(() => serverSideApply(clients, object));
    }
    const statusSeen: { at: number; count: number }[] = [];
    const watchUntil = changedAt + AFTER_GRAPH_S * 1000;
    let pointerAt: number | undefined;
    // the pointer on its own tight loop: pointer → applied is measured from the moment it is seen
    const pointerSeen = (async () => {
      while (pointerAt === undefined && Date.now() < watchUntil) {
        if ((await pointer()) === 2) pointerAt = Date.now();
        else await sleep(20);
      }
    })();
    let lastStatus: { nodes?: Rollup; conditions?: Condition[] } | undefined;
    while (Date.now() < watchUntil) {
      // a busy API server answers 429 or times out: the next poll tries again
      const ingestor = await admin
        .request<{ status?: { nodes?: Rollup; conditions?: Condition[] } }>({
          path: customPath('httpingestors', DOMAIN, 'orders-in'),
        })
        .catch(() => undefined);
      if (ingestor === undefined) {
        await sleep(100);
        continue;
      }
      lastStatus = ingestor.status;
      const count = ingestor.status?.nodes?.versions?.find((v) => v.version === 2)?.nodes ?? 0;
      if (count > (statusSeen.at(-1)?.count ?? 0)) statusSeen.push({ at: Date.now(), count });
      await sleep(100);
    }
    await pointerSeen;
    const cpu = cpuPids.map((pid, i) => {
      const name = readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
      return `${pid === process.pid ? 'bench' : name} ${(processCpuSeconds(pid) - (cpuBefore[i] ?? 0)).toFixed(1)} s`;
    });
    const afterGraph = difference(await retried(() => apiserverWrites(server)), graphBefore);
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
    const applied = nodes
      .map((node) => node.appliedAt.get(2))
      .filter((at): at is number => at !== undefined)
      .map((at) => at - (pointerAt ?? changedAt));
    const within10 = applied.filter((ms) => ms <= 10_000).length;
    const ready = lastStatus?.conditions?.find((c) => c.type === 'Ready');
    const benchMemory = processMemory(process.pid);
    const errors = new Map<string, number>();
    for (const node of nodes) {
      for (const { error } of node.sync.states()) {
        if (error === undefined) continue;
        const kind = error.replace(/streamroute-graph-v\d+|[0-9a-f]{16,}|\d+/g, '#').slice(0, 160);
        errors.set(kind, (errors.get(kind) ?? 0) + 1);
      }
    }

    const rows = [
      ['nodes', String(NODES)],
      [
        'fleet size published / heartbeat period / reporting at once',
        `${fleet} / ${seconds(policy.heartbeatMs)} s / ${(policy.immediateProbability * 100).toFixed(1)} %`,
      ],
      ['fleet up (every node reported v1)', `${seconds(fleetUp - started)} s`],
      [
        `steady writes/s (${STEADY_S} s window)`,
        `${steadyRate.toFixed(2)} (${[...steady].map(([k, v]) => `${k} ${v}`).join(', ')})`,
      ],
      [
        `writes/s in the ${AFTER_GRAPH_S} s after graph v2`,
        `${(total(afterGraph) / AFTER_GRAPH_S).toFixed(2)} (${[...afterGraph].map(([k, v]) => `${k} ${v}`).join(', ')})`,
      ],
      ['graph v2 published', String(published)],
      [
        'pointer → applied (nodes applying v2), p50 / p99 / within 10 s',
        `${seconds(percentile(applied, 50))} s / ${seconds(percentile(applied, 99))} s / ${within10}/${NODES}`,
      ],
      ['nodes reporting v2 within the minute', `${reportTimes.length}/${NODES}`],
      [
        'ingestor status at the end (nodes.reported / pending / within; Ready)',
        `${lastStatus?.nodes?.reported} / ${lastStatus?.nodes?.pending} / ${lastStatus?.nodes?.reportWithinSeconds} s; ${ready?.status} ${ready?.reason}: ${ready?.message}`,
      ],
      ['nodes on v2 in the ingestor status at the end', String(statusSeen.at(-1)?.count ?? 0)],
      [
        'roll-up latency report → status p50 / p99',
        `${seconds(percentile(latencies, 50))} s / ${seconds(percentile(latencies, 99))} s (${latencies.length} reports)`,
      ],
      [
        'operator memory RSS (fleet up / steady / end / peak)',
        `${memoryFleetUp.rssMiB.toFixed(0)} / ${memorySteady.rssMiB.toFixed(0)} / ${memoryEnd.rssMiB.toFixed(0)} / ${memoryEnd.peakMiB.toFixed(0)} MiB`,
      ],
      [
        'nodes with a graph error at the end',
        [...errors].map(([text, count]) => `${count} × ${text}`).join('; ') || 'none',
      ],
      [`CPU in the ${AFTER_GRAPH_S} s after graph v2, by process`, cpu.join(', ')],
      [
        'bench process (the simulated fleet) RSS / peak',
        `${benchMemory.rssMiB.toFixed(0)} / ${benchMemory.peakMiB.toFixed(0)} MiB`,
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

// What a new graph version costs the API server per node, on the path a node applies it by: the index
// ConfigMap's update delivered to every node's watch, then each node's GET of the graph ConfigMap. Measured
// as the kube-apiserver's and etcd's CPU seconds (/proc) divided by the nodes, with plain node:https
// clients in place of nodes (the nodes' own work is theirs, on their machines). The scale benchmark
// cannot host 15,000 simulated nodes on this machine; these per-node costs are what extrapolates to it.
//
//   npx tsx test/bench/apiserver-apply-cost.bench.ts            # 2,000 watchers, 2,000 GETs per variant
//   WATCHERS=5000 GETS=4000 npx tsx test/bench/apiserver-apply-cost.bench.ts
//
// GET variants: a new TLS connection per GET with the session resumed (what a node does: its keep-alive
// socket has closed since the last version, Node's agent keeps the TLS session), one with a full
// handshake, and a connection kept alive.
import { readFileSync } from 'node:fs';
import { Agent, request } from 'node:https';
import { startKubeApiServer, type KubeTestServer } from '../support/kube-apiserver.js';
import { childPids, processCpuSeconds } from './kube-bench-support.js';

const WATCHERS = Number(process.env['WATCHERS'] ?? 2000);
const GETS = Number(process.env['GETS'] ?? 2000);
const ROUNDS = 3;
const CONCURRENCY = 50;
const CONFIG_MAPS = '/api/v1/namespaces/default/configmaps';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Cpu {
  names: string[];
  read: () => number[];
}

function serverCpu(): Cpu {
  const pids = childPids(process.pid);
  return {
    names: pids.map((pid) => readFileSync(`/proc/${pid}/comm`, 'utf8').trim()),
    read: () => pids.map((pid) => processCpuSeconds(pid)),
  };
}

/** CPU milliseconds per unit of work, by process, between two readings. */
function perUnit(cpu: Cpu, before: number[], units: number): string {
  const after = cpu.read();
  return cpu.names
    .map((name, i) => `${name} ${((((after[i] ?? 0) - (before[i] ?? 0)) / units) * 1000).toFixed(3)} ms`)
    .join(', ');
}

interface Call {
  method: string;
  path: string;
  body?: unknown;
  agent?: Agent;
}

function call<T>(server: KubeTestServer, { method, path, body, agent }: Call): Promise<T> {
  const url = new URL(server.server);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        path,
        method,
        ca: server.ca,
        ...(agent === undefined ? {} : { agent }),
        headers: { authorization: `Bearer ${server.token}`, 'content-type': 'application/json' },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve((text === '' ? undefined : JSON.parse(text)) as T));
      },
    );
    req.on('error', reject);
    req.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

interface ConfigMap {
  metadata: { name: string; resourceVersion: string };
  data: Record<string, string>;
}

const indexData = (version: number) => ({
  'index.json': JSON.stringify({ domains: { shop: { version, sha256: 'a'.repeat(64) } } }),
});

/** One index update delivered to WATCHERS field-selected watches, each on its own connection (as nodes). */
async function watchFanOut(server: KubeTestServer, cpu: Cpu): Promise<void> {
  let index = await call<ConfigMap>(server, {
    method: 'POST',
    path: CONFIG_MAPS,
    body: { metadata: { name: 'streamroute-index' }, data: indexData(1) },
  });
  const url = new URL(server.server);
  let received = 0;
  const watches = [];
  for (let i = 0; i < WATCHERS; i++) {
    const query = `watch=true&fieldSelector=metadata.name%3Dstreamroute-index&resourceVersion=${index.metadata.resourceVersion}`;
    const agent = new Agent({ keepAlive: true, ca: server.ca });
    const watch = request(
      {
        host: url.hostname,
        port: url.port,
        agent,
        path: `${CONFIG_MAPS}?${query}`,
        ca: server.ca,
        headers: { authorization: `Bearer ${server.token}` },
      },
      (res) => res.on('data', () => (received += 1)),
    );
    watch.on('error', () => undefined);
    watch.end();
    watches.push({ watch, agent });
    if (i % 100 === 99) await sleep(50);
  }
  await sleep(5000);
  for (let round = 0; round < ROUNDS; round++) {
    received = 0;
    const before = cpu.read();
    const started = performance.now();
    index = await call<ConfigMap>(server, {
      method: 'PUT',
      path: `${CONFIG_MAPS}/streamroute-index`,
      body: { ...index, data: indexData(round + 2) },
    });
    while (received < WATCHERS) await sleep(5);
    const ms = performance.now() - started;
    await sleep(500);
    console.log(
      `| index update → ${WATCHERS} watches, round ${round + 1} | ${ms.toFixed(0)} ms | ${perUnit(cpu, before, WATCHERS)} per watch |`,
    );
  }
  for (const { watch, agent } of watches) {
    watch.destroy();
    agent.destroy();
  }
}

/** GETs of a graph-sized ConfigMap, CONCURRENCY at a time, each client its own agent. */
async function gets(server: KubeTestServer, cpu: Cpu): Promise<void> {
  // a graph ConfigMap's size: the orders graph compiled and gzipped is ~2 KiB of base64
  await call(server, {
    method: 'POST',
    path: CONFIG_MAPS,
    body: { metadata: { name: 'streamroute-graph-v2' }, data: { 'graph.json.gz': 'x'.repeat(2048) } },
  });
  const path = `${CONFIG_MAPS}/streamroute-graph-v2`;
  const variants: [string, () => Agent][] = [
    ['new connection, TLS session resumed', () => new Agent({ keepAlive: false, ca: server.ca })],
    [
      'new connection, full TLS handshake',
      () => new Agent({ keepAlive: false, ca: server.ca, maxCachedSessions: 0 }),
    ],
    ['kept-alive connection', () => new Agent({ keepAlive: true, ca: server.ca })],
  ];
  for (const [label, agentOf] of variants) {
    const agents = Array.from({ length: CONCURRENCY }, agentOf);
    for (const agent of agents) await call(server, { method: 'GET', path, agent }); // sessions cached
    const before = cpu.read();
    const started = performance.now();
    for (let i = 0; i < GETS; i += CONCURRENCY)
      await Promise.all(agents.map((agent) => call(server, { method: 'GET', path, agent })));
    const ms = (performance.now() - started) / GETS;
    console.log(
      `| GET of the graph ConfigMap, ${label} | ${ms.toFixed(2)} ms | ${perUnit(cpu, before, GETS)} per GET |`,
    );
    for (const agent of agents) agent.destroy();
  }
}

async function main(): Promise<void> {
  const server = await startKubeApiServer();
  try {
    const cpu = serverCpu();
    console.log('| what | wall time | API server and etcd CPU |\n|---|---|---|');
    await gets(server, cpu);
    await watchFanOut(server, cpu);
  } finally {
    await server.stop();
  }
}

await main();
process.exit(0);

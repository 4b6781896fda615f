// Apply-to-traffic latency on a real kube-apiserver, for a domain of 1,000 resources: the operator and two
// data-plane processes run compiled (as in their images). Each round changes one Endpoint's path with a
// server-side apply, then times
//   apply → graph published   (the API answered the apply → the pointer ConfigMap names the new version)
//   published → applied      (→ each node's DESCRIBE of the endpoint's ingestor shows the new version)
// The anchor: a ConfigMap mounted as a volume reaches a pod after the kubelet's sync, about a minute.
//
//   npm run build && npx tsx test/bench/kube-apply-latency.bench.ts
import { request } from 'node:http';
import { corePath, POINTER_NAME } from '../../dataplane/kube/contract.js';
import { KubeApi } from '../../dataplane/kube-client/kube-api.js';
import { parseScript } from '../../operator/language/parse.js';
import { statementsToObjects } from '../../operator/language/convert.js';
import { startKubeApiServer } from '../support/kube-apiserver.js';
import { createNamespace, installCrds, kubeClients, serverSideApply } from '../support/kube-client.js';
import { StreamrouteProcess } from '../support/cluster-processes.js';
import { freeTcpPort } from '../support/syslog-wire-peer.js';
import { percentile, processMemory } from './kube-bench-support.js';

const SYSTEM = 'streamroute-system';
const DOMAIN = 'shop';
/** Endpoint + ingestor + relay per path; with the shared objects, 1,000 resources. */
const PATHS = 332;
const ROUNDS = Number(process.env['ROUNDS'] ?? 20);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function domainStatements(): string {
  const lines = [
    'CREATE SCHEMA orders (order_id STRING, amount I64);',
    'CREATE WIRE JSON SCHEMA orders_wire MODE STRICT (order_id string, amount integer);',
    'CREATE CODEC orders_json FROM WIRE JSON SCHEMA orders_wire TO SCHEMA orders;',
    'CREATE VHOST local localhost;',
  ];
  for (let i = 0; i < PATHS; i++) {
    lines.push(
      `CREATE RELAY r${i} SCHEMA orders UNBRANCHED;`,
      `CREATE ENDPOINT ep${i} ON local PATH '/p${i}' TYPE HTTP;`,
      `CREATE HTTP ENDPOINT INGESTOR in${i} FROM ep${i} MODE NO ACK ON QUIESCE BUFFER MAX SIZE 1MiB DECODE USING orders_json TO r${i} INHERIT ALL UNBRANCHED FLUSH IMMEDIATE ON MESSAGE ERROR LOG ON GENERAL ERROR LOG;`,
    );
  }
  return lines.join('\n');
}

function objects(text: string) {
  const parsed = parseScript(text);
  return statementsToObjects(parsed.statements, {}).objects.map((object) => ({
    ...object,
    metadata: { ...object.metadata, namespace: DOMAIN },
  }));
}

/** The graph version a node's DESCRIBE of an ingestor shows (0 while it does not run it). */
function describedVersion(adminPort: number, ingestor: string): Promise<number> {
  return new Promise((resolve) => {
    const req = request(
      { host: '127.0.0.1', port: adminPort, path: `/v1/domains/${DOMAIN}/ingestors/${ingestor}` },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => {
          try {
            resolve((JSON.parse(body) as { graphVersion?: number }).graphVersion ?? 0);
          } catch {
            resolve(0);
          }
        });
      },
    );
    req.on('error', () => resolve(0));
    req.end();
  });
}

async function waitFor<T>(check: () => Promise<T | undefined>, timeoutMs: number, what: string): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(5);
  }
}

async function main(): Promise<void> {
  const server = await startKubeApiServer();
  const clients = kubeClients(server);
  const admin = new KubeApi({
    kubeconfig: server.kubeconfigPath,
    rateLimit: { qps: 1000, burst: 1000 },
    userAgent: 'bench',
  });
  await installCrds(clients);
  await createNamespace(clients, SYSTEM);
  await createNamespace(clients, DOMAIN);
  const processes: StreamrouteProcess[] = [];
  const adminPorts: number[] = [];
  try {
    const operator = new StreamrouteProcess(
      'operator',
      ['operator', '--kubeconfig', server.kubeconfigPath, '--namespace', SYSTEM],
      { compiled: true },
    );
    processes.push(operator);
    for (const [i, bindHost] of ['127.0.0.2', '127.0.0.3'].entries()) {
      const adminPort = await freeTcpPort();
      adminPorts.push(adminPort);
      const args = ['dataplane', '--kubeconfig', server.kubeconfigPath, '--node-name', `node-${i}`];
      args.push('--operator-namespace', SYSTEM, '--bind-host', bindHost);
      args.push('--http-listen-addr', `127.0.0.1:${await freeTcpPort()}`);
      args.push('--https-listen-addr', `127.0.0.1:${await freeTcpPort()}`);
      args.push('--admin-listen-addr', `127.0.0.1:${adminPort}`);
      processes.push(new StreamrouteProcess(`node-${i}`, args, { compiled: true }));
    }
    const pointer = async (): Promise<number> => {
      const found = await admin
        .request<{ data?: Record<string, string> }>({ path: corePath('configmaps', DOMAIN, POINTER_NAME) })
        .catch(() => undefined);
      return Number(found?.data?.['version'] ?? 0);
    };

    const all = objects(domainStatements());
    const bulkStart = Date.now();
    for (const object of all) await serverSideApply(clients, object);
    const bulkApplied = Date.now();
    // The bulk is served once both nodes run the last ingestor applied.
    const last = `in${PATHS - 1}`;
    await waitFor(
      async () => {
        const versions = await Promise.all(adminPorts.map((port) => describedVersion(port, last)));
        return versions.every((v) => v > 0) ? true : undefined;
      },
      120_000,
      'both nodes serving the whole domain',
    );
    const bulkServed = Date.now();
    const firstVersion = await pointer();
    // Let the bulk apply's statuses settle so the rounds measure a change, not a backlog.
    await sleep(30_000);

    const toPublished: number[] = [];
    const toApplied: number[] = [];
    for (let round = 1; round <= ROUNDS; round++) {
      const before = await pointer();
      const i = round % PATHS;
      const [endpoint] = objects(`CREATE ENDPOINT ep${i} ON local PATH '/p${i}-v${round}' TYPE HTTP;`);
      if (endpoint === undefined) throw new Error('no endpoint object');
      await serverSideApply(clients, endpoint);
      const applied = Date.now();
      const version = await waitFor(
        async () => {
          const now = await pointer();
          return now > before ? now : undefined;
        },
        30_000,
        `round ${round}: a new version`,
      );
      const published = Date.now();
      toPublished.push(published - applied);
      await Promise.all(
        adminPorts.map(async (port) => {
          await waitFor(
            async () => ((await describedVersion(port, `in${i}`)) >= version ? true : undefined),
            30_000,
            `round ${round}: node applied`,
          );
          toApplied.push(Date.now() - published);
        }),
      );
      await sleep(500);
    }
    const memory = processMemory(operator.pid);
    const ms = (value: number) => `${Math.round(value)} ms`;
    console.log('\n| measure | value |\n|---|---|');
    console.log(`| resources in the domain | ${all.length} |`);
    console.log(`| rounds; versions published during the bulk | ${ROUNDS}; ${firstVersion} |`);
    console.log(`| bulk: ${all.length} server-side applies | ${ms(bulkApplied - bulkStart)} |`);
    console.log(`| bulk: last apply → both nodes serve the whole domain | ${ms(bulkServed - bulkApplied)} |`);
    console.log(
      `| apply → published, p50 / p99 (${ROUNDS} rounds) | ${ms(percentile(toPublished, 50))} / ${ms(percentile(toPublished, 99))} |`,
    );
    console.log(
      `| published → applied on a node, p50 / p99 (${toApplied.length}) | ${ms(percentile(toApplied, 50))} / ${ms(percentile(toApplied, 99))} |`,
    );
    console.log(
      `| operator memory RSS / peak | ${memory.rssMiB.toFixed(0)} / ${memory.peakMiB.toFixed(0)} MiB |`,
    );
  } finally {
    for (const process_ of processes) await process_.stop();
    await server.stop();
  }
}

await main();
process.exit(0);

// The product on a real single-node Kubernetes (test/cluster/up.sh) with the locally built images: what a
// platform team waits for. Measured from outside the node (the host side of its veth), as a workload would:
//   helm install → first record served   (install, namespace, CLI apply, the record at `streamroute subscribe`)
//   pod created → Ready                   (the data-plane and operator pods, from their status timestamps)
//   kubectl apply → served                (ROUNDS YAML applies, each a new path; until a POST to it is 202)
//   CLI apply → served                    (ROUNDS statements through the CLI run from source with tsx;
//                                          the CLI's own run and the rest are shown apart)
//   data-plane pod deleted → serving      (DELETES rounds; until the node answers 202 again)
//   idle RSS of the pods' processes       (VmRSS from /proc, 10 s after the first record)
// Image sizes come from images.sh. The release is uninstalled at the end.
//
//   bash test/cluster/images.sh && bash test/cluster/up.sh && source ~/.cache/streamroute/images/current.env \
//     && bash test/cluster/load-image.sh "$OPERATOR_ARCHIVE" "$DATAPLANE_ARCHIVE"
//   npx tsx test/bench/cluster.bench.ts
import { readdirSync, readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { Cluster, clusterFacts, RELEASE, SYSTEM } from '../cluster/cluster-support.js';
import { httpRequest } from '../cluster/node-traffic.js';
import { since, waitUntil } from '../cluster/wait.js';
import { percentile } from './kube-bench-support.js';

const DOMAIN = 'bench';
const ROUNDS = Number(process.env['ROUNDS'] ?? 20);
const DELETES = Number(process.env['DELETES'] ?? 5);
const facts = clusterFacts();
const cluster = new Cluster(facts);

const GRAPH = `
CREATE SCHEMA orders (order_id STRING, amount I64);
CREATE WIRE JSON SCHEMA orders_wire MODE STRICT (order_id string, amount integer);
CREATE CODEC orders_json FROM WIRE JSON SCHEMA orders_wire TO SCHEMA orders;
CREATE RELAY orders SCHEMA orders UNBRANCHED;
CREATE VHOST local localhost;
${endpoint('orders')}`;

function endpoint(name: string): string {
  return `CREATE ENDPOINT ${name}_ep ON local PATH '/${name}' TYPE HTTP;
CREATE HTTP ENDPOINT INGESTOR ${name}_in FROM ${name}_ep MODE NO ACK ON QUIESCE BUFFER MAX SIZE 1MiB
  DECODE USING orders_json TO orders INHERIT ALL UNBRANCHED FLUSH IMMEDIATE ON MESSAGE ERROR LOG ON GENERAL ERROR LOG;`;
}

const post = (path: string) =>
  httpRequest(
    { host: facts.nodeIp, port: 8080, path, method: 'POST', hostHeader: 'localhost' },
    '{"order_id":"B","amount":1}',
  ).then(
    (answer) => answer.status,
    () => 0,
  );

async function must(promise: Promise<{ code: number; stderr: string }>, what: string): Promise<void> {
  const result = await promise;
  if (result.code !== 0) throw new Error(`${what} failed: ${result.stderr}`);
}

interface PodStatus {
  metadata: { name: string; creationTimestamp: string; uid: string };
  status: { conditions?: { type: string; status: string; lastTransitionTime: string }[] };
}

async function podReadyMs(component: string): Promise<number[]> {
  const list = await cluster.json<{ items: PodStatus[] }>([
    'get',
    'pods',
    '-n',
    SYSTEM,
    '-l',
    `app.kubernetes.io/component=${component}`,
  ]);
  return list.items.map((pod) => {
    const ready = pod.status.conditions?.find((c) => c.type === 'Ready' && c.status === 'True');
    return ready === undefined
      ? NaN
      : Date.parse(ready.lastTransitionTime) - Date.parse(pod.metadata.creationTimestamp);
  });
}

async function installToFirstRecord(): Promise<number> {
  const started = performance.now();
  await must(cluster.helm(cluster.installArgs()), 'helm install');
  await cluster.must(['create', 'namespace', DOMAIN]);
  await waitUntil(
    'the CRDs and the operator to take statements',
    async () => (await cluster.streamroute(['-d', DOMAIN, '-f', '-'], GRAPH)).code === 0,
    5 * 60_000,
    1_000,
  );
  const subscriber = cluster.streamrouteProcess('bench-subscribe', [
    'subscribe',
    '-d',
    DOMAIN,
    '--operator-namespace',
    SYSTEM,
    'bench',
    'orders',
  ]);
  try {
    await waitUntil(
      'the first record at the subscriber',
      async () => {
        await post('/orders');
        return subscriber.log().includes('"order_id":"B"');
      },
      5 * 60_000,
      200,
    );
    return since(started);
  } finally {
    await subscriber.kill();
  }
}

/** The YAML of one round's endpoint and ingestor, converted ahead so the timing holds kubectl alone. */
async function roundYaml(name: string): Promise<string> {
  const converted = await cluster.streamroute(['convert', '-n', DOMAIN, '-'], endpoint(name));
  if (converted.code !== 0) throw new Error(`convert ${name} failed: ${converted.stderr}`);
  return converted.stdout;
}

async function served(path: string): Promise<void> {
  await waitUntil(`POST ${path} to be served`, async () => (await post(path)) === 202, 60_000, 20);
}

async function kubectlApplyToServed(round: number, yaml: string): Promise<number> {
  const started = performance.now();
  await cluster.must(['apply', '-f', '-'], yaml);
  await served(`/k${round}`);
  return since(started);
}

/** The CLI's own run, then its exit → served. */
async function cliApplyToServed(round: number): Promise<[number, number]> {
  const started = performance.now();
  await must(cluster.streamroute(['-d', DOMAIN, '-c', endpoint(`c${round}`)]), `apply round ${round}`);
  const exited = performance.now();
  await served(`/c${round}`);
  return [Math.round(exited - started), since(exited)];
}

async function deletionToServing(): Promise<number> {
  // The pod of the round before may still be terminating: wait until one pod is left, the running one.
  const pod = await waitUntil(
    'a single data-plane pod',
    async () => {
      const list = await cluster.json<{ items: { metadata: { name: string } }[] }>([
        'get',
        'pods',
        '-n',
        SYSTEM,
        '-l',
        'app.kubernetes.io/component=dataplane',
      ]);
      return list.items.length === 1 && `pod/${list.items[0]!.metadata.name}`;
    },
    2 * 60_000,
    250,
  );
  const started = performance.now();
  await cluster.must(['delete', '-n', SYSTEM, pod, '--wait=false']);
  // The old pod answers until it stops: wait for the gap first, then for the new pod's first 202.
  await waitUntil('the old pod to stop answering', async () => (await post('/orders')) !== 202, 60_000, 20);
  await waitUntil('the new pod to serve', async () => (await post('/orders')) === 202, 3 * 60_000, 20);
  return since(started);
}

/** VmRSS in MB of each streamroute process the container runtime runs with this subcommand (from /proc). */
function processRssMb(subcommand: 'operator' | 'dataplane'): number[] {
  const found: number[] = [];
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
      const entry = argv.findIndex((arg) => arg.endsWith('dist/operator/cli/main.js'));
      if (entry < 0 || argv[entry + 1] !== subcommand) continue;
      const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
      if (kb !== undefined) found.push(Math.round(Number(kb) / 102.4) / 10);
    } catch {
      // the process ended while it was read
    }
  }
  return found;
}

function summary(values: readonly number[]): string {
  return `p50 ${percentile(values, 50)} ms, p99 ${percentile(values, 99)} ms (n=${values.length})`;
}

async function main(): Promise<void> {
  console.log(
    `node ${facts.nodeName} at ${facts.nodeIp}; images ${facts.operatorImage}, ${facts.dataplaneImage}`,
  );
  const first = await installToFirstRecord();
  console.log(`helm install → first record served: ${first} ms`);
  console.log(`data-plane pod created → Ready: ${(await podReadyMs('dataplane')).join(', ')} ms`);
  console.log(`operator pods created → Ready: ${(await podReadyMs('operator')).join(', ')} ms`);
  await sleep(10_000);
  console.log(
    `RSS after 10 s idle (one domain): data plane ${processRssMb('dataplane').join(', ')} MB, ` +
      `operators ${processRssMb('operator').join(', ')} MB`,
  );
  const kubectlApplies: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    kubectlApplies.push(await kubectlApplyToServed(round, await roundYaml(`k${round}`)));
  }
  console.log(`kubectl apply → served on the pod: ${summary(kubectlApplies)}`);
  const cliRuns: number[] = [];
  const cliServed: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const [run, rest] = await cliApplyToServed(round);
    cliRuns.push(run);
    cliServed.push(run + rest);
  }
  console.log(
    `CLI apply → served on the pod: ${summary(cliServed)}; of it the CLI's run: ${summary(cliRuns)}`,
  );
  const deletions: number[] = [];
  for (let round = 0; round < DELETES; round++) deletions.push(await deletionToServing());
  console.log(`data-plane pod deleted → serving again: ${summary(deletions)}`);
  await cluster.helm(['uninstall', RELEASE, '-n', SYSTEM, '--wait']);
  await cluster.kubectl(['delete', 'namespace', DOMAIN, '--wait=false']);
}

await main();

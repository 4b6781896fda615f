// The product on a real single-node Kubernetes (test/cluster/up.sh) with the locally built images: what a
// platform team waits for. Measured from outside the node (the host side of its veth), as a workload would:
//   helm install → first record served   (install, namespace, CLI apply, the record at `streamroute subscribe`)
//   pod created → Ready                   (the data-plane and operator pods, from their status timestamps)
//   apply → served                        (ROUNDS CLI applies, each a new path; until a POST to it is 202)
//   data-plane pod deleted → serving      (DELETES rounds; until the node answers 202 again)
// Image sizes come from images.sh. The release is uninstalled at the end.
//
//   bash test/cluster/images.sh && bash test/cluster/up.sh && bash test/cluster/load-images.sh
//   npx tsx test/bench/cluster.bench.ts
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

async function applyToServed(round: number): Promise<number> {
  const started = performance.now();
  await must(cluster.streamroute(['-d', DOMAIN, '-c', endpoint(`r${round}`)]), `apply round ${round}`);
  await waitUntil(`POST /r${round} to be served`, async () => (await post(`/r${round}`)) === 202, 60_000, 20);
  return since(started);
}

async function deletionToServing(): Promise<number> {
  const pod = (
    await cluster.must([
      'get',
      'pods',
      '-n',
      SYSTEM,
      '-l',
      'app.kubernetes.io/component=dataplane',
      '-o',
      'name',
    ])
  ).trim();
  const started = performance.now();
  await cluster.must(['delete', '-n', SYSTEM, pod, '--wait=false']);
  // The old pod answers until it stops: wait for the gap first, then for the new pod's first 202.
  await waitUntil('the old pod to stop answering', async () => (await post('/orders')) !== 202, 60_000, 20);
  await waitUntil('the new pod to serve', async () => (await post('/orders')) === 202, 3 * 60_000, 20);
  return since(started);
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
  const applies: number[] = [];
  for (let round = 0; round < ROUNDS; round++) applies.push(await applyToServed(round));
  console.log(`apply → served on the pod: ${summary(applies)}`);
  const deletions: number[] = [];
  for (let round = 0; round < DELETES; round++) deletions.push(await deletionToServing());
  console.log(`data-plane pod deleted → serving again: ${summary(deletions)}`);
  await cluster.helm(['uninstall', RELEASE, '-n', SYSTEM, '--wait']);
  await cluster.kubectl(['delete', 'namespace', DOMAIN, '--wait=false']);
}

await main();

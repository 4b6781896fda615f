// HTTP ingestion benchmark (not a timed test). autocannon POSTs a ~100-byte JSON body over keep-alive
// connections to each server in turn, round after round (interleaved, so drift on a shared machine hits
// every variant alike); the first round is a warm-up. Each server runs in its own child process; the
// load generator (and the `node` variant's subscriber) runs in this one.
//
//   bare    a bare node:http server that answers 202 and nothing else (Node discards the body): the
//           ceiling for any node:http ingestion on this machine, and the baseline of the ratios
//   listen  our listener (routing by Host and path, body read with its limit, metadata, telemetry) with
//           a target that only counts bodies
//   full    our listener → the quickstart ingestor (quiesce wrapper → JSON wire codec → route → relay) →
//           an in-process relay subscriber that counts records; the graph is examples/quickstart compiled
//           by the operator's compiler, as the embedded node does
//   full-jaq  `full` with the codec a JAQ JSON codec, `FROM JSON … ON INGESTION '{order_id, amount}'`,
//           whose program runs compiled (decision 0028)
//   node    the real embedded node (startEmbeddedNode, `--manifests examples/quickstart`, domain
//           `default`, a temporary data dir, warn logs to /dev/null): listener → JSON wire codec → relay
//           `orders` → the admin API's subscriber, whose client is this process, reading the NDJSON
//           stream GET /v1/domains/default/relays/orders/subscriptions/bench?buffer=1000000 and counting
//           lines. After each run the driver waits for the stream to catch up before it reads the
//           server's CPU time, so the records written after the last response are paid in that run.
//   node-jaq  `node` with the JAQ JSON codec of `full-jaq`
//
// At the end every counting variant is checked for losses: `listen` and `full` count what reached their
// target; for `node`, the lines the subscriber received plus the subscriber drops the node counted
// (streamroute_drops_total{kind="subscriber",reason="subscriber_overflow"} from its /metrics) must be at
// least the 202s answered.
//
//   npx tsx test/bench/http.bench.ts [--rounds 5] [--seconds 5] [--connections 32] [--only bare,node]
//
// SERVER_NODE_FLAGS (space-separated) are given to the servers' Node only, not to the load generator:
// e.g. SERVER_NODE_FLAGS=--max-semi-space-size=1 measures the images' memory setting.
import { fork, type ChildProcess } from 'node:child_process';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { cpus } from 'node:os';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { fetchAdmin } from '../fixtures/admin-client.js';

const VARIANTS = ['bare', 'listen', 'full', 'full-jaq', 'node', 'node-jaq'] as const;
const SERVER_NODE_FLAGS = (process.env['SERVER_NODE_FLAGS'] ?? '').split(' ').filter((flag) => flag !== '');
type Variant = (typeof VARIANTS)[number];

/** 100 bytes, valid for the quickstart wire schema (order_id string, amount integer; STRICT). */
export const BODY = JSON.stringify({
  order_id: 'ORD-2026-11-22-0000000000000000000000000000000000000000000000000000000',
  amount: 1234567,
});
const HOST = 'localhost';
const PATH = '/orders';
/** The `node` variant's subscription: the largest buffer, so a burst does not cost records. */
const SUBSCRIPTION = '/v1/domains/default/relays/orders/subscriptions/bench?buffer=1000000';

interface AutocannonResult {
  requests: { total: number };
  latency: { p99: number; p50: number };
  duration: number;
  errors: number;
  non2xx: number;
  '2xx': number;
}
type Autocannon = (options: Record<string, unknown>) => Promise<AutocannonResult>;
const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;

interface Sample {
  rps: number;
  p50: number;
  p99: number;
  /** Server CPU (user + system) per request, µs: steadier than req/s on a shared machine. */
  cpuUs: number;
  /** `node`: records answered 202 that the subscriber had not received when the run ended. */
  behind?: number;
}

interface Server {
  variant: Variant;
  child: ChildProcess;
  port: number;
  /** The admin API's port (`node`). */
  adminPort: number | undefined;
  /** The subscriber reading the node's stream (`node`). */
  subscriber: Subscriber | undefined;
  /** 202s the load generator received, warm-up included. */
  accepted: number;
}

/** A subscription stream that counts its lines and keeps nothing. */
class Subscriber {
  received = 0;
  ended = false;

  private constructor(response: IncomingMessage) {
    response.on('data', (chunk: Buffer) => {
      for (let at = chunk.indexOf(10); at !== -1; at = chunk.indexOf(10, at + 1)) this.received++;
    });
    response.on('end', () => (this.ended = true));
    response.on('error', () => (this.ended = true));
  }

  static open(port: number, path: string): Promise<Subscriber> {
    return new Promise((resolve, reject) => {
      const request = httpRequest({ host: '127.0.0.1', port, path, agent: false }, (response) => {
        if (response.statusCode === 200) return resolve(new Subscriber(response));
        reject(new Error(`subscription answered ${response.statusCode}`));
      });
      request.on('error', reject);
      request.end();
    });
  }

  /**
   * Waits until `expected` lines have arrived, or nothing arrived for `quietMs`; returns whether they did.
   */
  async caughtUp(expected: number, quietMs: number): Promise<boolean> {
    let last = this.received;
    let quietSince = Date.now();
    while (this.received < expected && !this.ended) {
      await new Promise((resolve) => setTimeout(resolve, 10));
      if (this.received !== last) [last, quietSince] = [this.received, Date.now()];
      else if (Date.now() - quietSince > quietMs) return false;
    }
    return this.received >= expected;
  }
}

// --- driver ---------------------------------------------------------------------------------------

async function drive(): Promise<void> {
  const { values } = parseArgs({
    options: {
      rounds: { type: 'string', default: '5' },
      seconds: { type: 'string', default: '5' },
      connections: { type: 'string', default: '32' },
      only: { type: 'string', default: VARIANTS.join(',') },
    },
  });
  const rounds = Number(values.rounds);
  const seconds = Number(values.seconds);
  const connections = Number(values.connections);
  const variants = values.only
    .split(',')
    .filter((v): v is Variant => (VARIANTS as readonly string[]).includes(v));
  console.log(
    `HTTP benchmark: ${Buffer.byteLength(BODY)}-byte JSON body, ${connections} keep-alive connections, ` +
      `${seconds} s per run, ${rounds} rounds + 1 warm-up, interleaved ${variants.join(' → ')}`,
  );
  console.log(`machine: ${cpus()[0]?.model ?? '?'} × ${cpus().length}, Node ${process.version}`);
  const servers: Server[] = [];
  for (const variant of variants) servers.push(await spawnServer(variant));
  const samples = new Map<Variant, Sample[]>(variants.map((v) => [v, []]));
  try {
    for (let round = 0; round <= rounds; round++) {
      for (const server of servers) {
        const sample = await load(server, seconds, connections);
        const label = round === 0 ? 'warm-up' : `round ${round}`;
        console.log(
          `${label.padEnd(8)} ${server.variant.padEnd(6)} ${fmt(sample.rps, 0).padStart(7)} req/s  ` +
            `p50 ${sample.p50} ms  p99 ${sample.p99} ms  server CPU ${fmt(sample.cpuUs, 1)} µs/req` +
            (sample.behind === undefined ? '' : `  subscriber ${fmt(sample.behind, 0)} behind at the end`),
        );
        if (round > 0) samples.get(server.variant)!.push(sample);
      }
    }
    for (const server of servers) await checkCounted(server, server.accepted);
  } finally {
    for (const server of servers) await stopServer(server);
  }
  report(variants, samples);
}

async function load(server: Server, seconds: number, connections: number): Promise<Sample> {
  const cpuBefore = await ask(server, 'cpu');
  const result = await autocannon({
    url: `http://127.0.0.1:${server.port}${PATH}`,
    method: 'POST',
    headers: { host: HOST, 'content-type': 'application/json' },
    body: BODY,
    connections,
    pipelining: 1,
    duration: seconds,
  });
  if (result.errors > 0 || result.non2xx > 0)
    throw new Error(`${server.variant}: ${result.errors} errors, ${result.non2xx} non-2xx responses`);
  server.accepted += result['2xx'];
  const subscriber = server.subscriber;
  const behind = subscriber === undefined ? undefined : Math.max(0, server.accepted - subscriber.received);
  // The stream's writes after the last response belong to this run: wait for them (or for a stall).
  await subscriber?.caughtUp(server.accepted, 1_000);
  const cpuUs = ((await ask(server, 'cpu')) - cpuBefore) / result['2xx'];
  const sample: Sample = {
    rps: result['2xx'] / result.duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
    cpuUs,
  };
  if (behind !== undefined) sample.behind = behind;
  return sample;
}

function report(variants: Variant[], samples: Map<Variant, Sample[]>): void {
  const median = (values: number[]): number => {
    const sorted = [...values].sort((a, b) => a - b);
    const mid = sorted.length >> 1;
    return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
  };
  const bareRuns = samples.get('bare') ?? [];
  const bare = median(bareRuns.map((s) => s.rps));
  const bareCpu = median(bareRuns.map((s) => s.cpuUs));
  console.log('\n| server | req/s | p50 ms | p99 ms | server CPU µs/req | req/s ÷ bare | bare CPU ÷ CPU |');
  console.log('|---|---:|---:|---:|---:|---:|---:|');
  for (const variant of variants) {
    const runs = samples.get(variant)!;
    const rps = median(runs.map((s) => s.rps));
    const cpu = median(runs.map((s) => s.cpuUs));
    const p50 = median(runs.map((s) => s.p50));
    const p99 = median(runs.map((s) => s.p99));
    console.log(
      `| ${variant} | ${fmt(rps, 0)} | ${p50} | ${p99} | ${fmt(cpu, 1)} | ${fmt(rps / bare, 2)} | ${fmt(bareCpu / cpu, 2)} |`,
    );
  }
  console.log('(medians over the rounds; the ratios are against bare in the same run)');
  for (const [jaq, wire] of [
    ['full-jaq', 'full'],
    ['node-jaq', 'node'],
  ] as const) {
    const [a, b] = [samples.get(jaq), samples.get(wire)];
    if (a === undefined || b === undefined) continue;
    const ratio = median(a.map((s) => s.rps)) / median(b.map((s) => s.rps));
    console.log(`${jaq} ÷ ${wire} (JAQ JSON codec ÷ JSON wire codec): ${fmt(ratio, 2)} of the req/s`);
  }
}

function fmt(value: number, digits: number): string {
  return value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

async function spawnServer(variant: Variant): Promise<Server> {
  const child = fork(fileURLToPath(import.meta.url), ['--serve', variant], {
    stdio: 'inherit',
    execArgv: [...process.execArgv, ...SERVER_NODE_FLAGS],
  });
  const started = await new Promise<{ port: number; adminPort?: number }>((resolve, reject) => {
    child.once('message', resolve);
    child.once('exit', (code) => reject(new Error(`${variant} server exited (${code})`)));
  });
  const { port, adminPort } = started;
  const subscriber = adminPort === undefined ? undefined : await Subscriber.open(adminPort, SUBSCRIPTION);
  return { variant, child, port, adminPort, subscriber, accepted: 0 };
}

/** Lets a server clean up (the node removes its temporary data dir), then ends the process. */
async function stopServer(server: Server): Promise<void> {
  if (server.child.exitCode !== null) return;
  const exited = new Promise((resolve) => server.child.once('exit', resolve));
  server.child.send('stop');
  const timer = setTimeout(() => server.child.kill(), 10_000);
  await exited;
  clearTimeout(timer);
}

/** Asks a server process for its CPU time so far (µs) or the bodies its target counted. */
function ask(server: Server, what: 'cpu' | 'count'): Promise<number> {
  return new Promise((resolve) => {
    server.child.once('message', (answer: number) => resolve(answer));
    server.child.send(what);
  });
}

/**
 * Every body answered 202 reached the target. The target may have seen a few more: requests still in
 * flight when autocannon stops a run (at most one per connection per run) are delivered but not counted
 * as answered.
 */
async function checkCounted(server: Server, accepted: number): Promise<void> {
  if (server.variant === 'bare') return;
  if (server.subscriber !== undefined) return checkSubscriber(server, server.subscriber, accepted);
  const counted = await ask(server, 'count');
  const verdict = counted >= accepted ? 'none missing' : `MISSING ${fmt(accepted - counted, 0)}`;
  console.log(
    `${server.variant}: ${fmt(accepted, 0)} answered 202, ${fmt(counted, 0)} reached the target (${verdict})`,
  );
}

/**
 * Nothing lost without a count: the lines the subscriber received plus the subscriber drops the node
 * counted are at least the 202s answered (a request in flight when a run stopped may add a line).
 */
async function checkSubscriber(server: Server, subscriber: Subscriber, accepted: number): Promise<void> {
  const caughtUp = await subscriber.caughtUp(accepted, 5_000);
  const metrics = await fetchAdmin(server.adminPort ?? 0, '/metrics');
  const drops = subscriberDrops(metrics.body);
  const lost = accepted - subscriber.received - drops;
  const verdict = lost <= 0 ? 'none lost without a count' : `MISSING ${fmt(lost, 0)} (not counted)`;
  console.log(
    `${server.variant}: ${fmt(accepted, 0)} answered 202, the subscriber received ${fmt(subscriber.received, 0)}` +
      `, ${fmt(drops, 0)} counted as subscriber_overflow (${verdict})` +
      (caughtUp ? '' : '; the stream stalled before it caught up') +
      (subscriber.ended ? '; the stream ENDED' : ''),
  );
}

/** streamroute_drops_total{kind="subscriber",reason="subscriber_overflow"} of the bench subscription. */
function subscriberDrops(metrics: string): number {
  let total = 0;
  for (const line of metrics.split('\n')) {
    if (!line.startsWith('streamroute_drops_total{')) continue;
    const labels = line.slice(line.indexOf('{'), line.lastIndexOf('}') + 1);
    if (
      labels.includes('kind="subscriber"') &&
      labels.includes('reason="subscriber_overflow"') &&
      labels.includes('name="orders/bench"')
    )
      total += Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return total;
}

// --- servers (child processes) ----------------------------------------------------------------------

async function serve(variant: Variant): Promise<void> {
  const { startServer } = await import('./http-bench-servers.js');
  const server = await startServer(variant);
  process.on('message', (what: 'cpu' | 'count' | 'stop') => {
    if (what === 'stop') {
      void (server.stop?.() ?? Promise.resolve()).finally(() => process.exit(0));
      return;
    }
    const usage = process.cpuUsage();
    process.send?.(what === 'cpu' ? usage.user + usage.system : (server.counted() ?? 0));
  });
  process.send?.(
    server.adminPort === undefined
      ? { port: server.port }
      : { port: server.port, adminPort: server.adminPort },
  );
}

const serveAt = process.argv.indexOf('--serve');
if (serveAt !== -1) await serve(process.argv[serveAt + 1] as Variant);
else await drive();

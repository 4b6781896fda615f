// HTTP ingestion benchmark (not a timed test). autocannon POSTs a ~100-byte JSON body over keep-alive
// connections to each server in turn, round after round (interleaved, so drift on a shared machine hits
// every variant alike); the first round is a warm-up. Each server runs in its own child process; the
// load generator runs in this one.
//
//   bare    a bare node:http server that answers 202 and nothing else (Node discards the body): the
//           ceiling for any node:http ingestion on this machine
//   listen  our listener (routing by Host and path, body read with its limit, metadata, telemetry) with
//           a target that only counts bodies
//   full    our listener → the quickstart ingestor (quiesce wrapper → JSON wire codec → route → relay) →
//           an in-process relay subscriber that counts records; the graph is examples/quickstart compiled
//           by the operator's compiler, as the embedded node does
//
//   npx tsx test/bench/http.bench.ts [--rounds 5] [--seconds 5] [--connections 32] [--only bare,listen]
import { fork, type ChildProcess } from 'node:child_process';
import { cpus } from 'node:os';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const VARIANTS = ['bare', 'listen', 'full'] as const;
type Variant = (typeof VARIANTS)[number];

/** 100 bytes, valid for the quickstart wire schema (order_id string, amount integer; STRICT). */
export const BODY = JSON.stringify({
  order_id: 'ORD-2026-11-22-0000000000000000000000000000000000000000000000000000000',
  amount: 1234567,
});
const HOST = 'localhost';
const PATH = '/orders';

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
}

interface Server {
  variant: Variant;
  child: ChildProcess;
  port: number;
  /** 202s the load generator received, warm-up included. */
  accepted: number;
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
            `p50 ${sample.p50} ms  p99 ${sample.p99} ms  server CPU ${fmt(sample.cpuUs, 1)} µs/req`,
        );
        if (round > 0) samples.get(server.variant)!.push(sample);
      }
    }
    for (const server of servers) await checkCounted(server, server.accepted);
  } finally {
    for (const server of servers) server.child.kill();
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
  const cpuUs = ((await ask(server, 'cpu')) - cpuBefore) / result['2xx'];
  return { rps: result['2xx'] / result.duration, p50: result.latency.p50, p99: result.latency.p99, cpuUs };
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
}

function fmt(value: number, digits: number): string {
  return value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

function spawnServer(variant: Variant): Promise<Server> {
  const child = fork(fileURLToPath(import.meta.url), ['--serve', variant], { stdio: 'inherit' });
  return new Promise((resolve, reject) => {
    child.once('message', (message: { port: number }) =>
      resolve({ variant, child, port: message.port, accepted: 0 }),
    );
    child.once('exit', (code) => reject(new Error(`${variant} server exited (${code})`)));
  });
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
  const counted = await ask(server, 'count');
  const verdict = counted >= accepted ? 'none missing' : `MISSING ${fmt(accepted - counted, 0)}`;
  console.log(
    `${server.variant}: ${fmt(accepted, 0)} answered 202, ${fmt(counted, 0)} reached the target (${verdict})`,
  );
}

// --- servers (child processes) ----------------------------------------------------------------------

async function serve(variant: Variant): Promise<void> {
  const { startServer } = await import('./http-bench-servers.js');
  const { port, counted } = await startServer(variant);
  process.on('message', (what: 'cpu' | 'count') => {
    const usage = process.cpuUsage();
    process.send?.(what === 'cpu' ? usage.user + usage.system : counted());
  });
  process.send?.({ port });
}

const serveAt = process.argv.indexOf('--serve');
if (serveAt !== -1) await serve(process.argv[serveAt + 1] as Variant);
else await drive();

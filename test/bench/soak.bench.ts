// Soak benchmark (not a timed test): the embedded node as its own process (from tsc's output) under mixed
// load for --minutes, sampled every 10 s. The graph (soak-graph.ts): HTTP ingestors for JSON (a wire
// schema and a JAQ program), YAML, TOML, XML, CBOR and payments, a correlator, syslog listeners on UDP,
// TCP and TLS, relays, an emitter to a TCP sink run here. The load: HTTP bodies of every format at a
// steady rate with bad ones, 1 MiB worst-case bodies, oversize bodies and half-sent requests mixed in
// (soak-http.ts); syslog lines on all three transports with bad ones, half frames and idle connections
// (soak-syslog.ts); subscribers joining and leaving, half of them stalled, a statement every few seconds
// (hot reloads) and /healthz timed from outside (soak-control.ts). Prints a row per minute and a summary
// (soak-summary.ts), writes the samples as CSV, and exits 1 when memory did not level off or the
// accounting of records does not add up.
//
//   npx tsx test/bench/soak.bench.ts [--minutes 30] [--http-rate 400] [--syslog-rate 50] [--csv <file>]
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { fetchAdmin } from '../fixtures/admin-client.js';
import { freeUdpPort } from '../support/syslog-peers.js';
import { freeTcpPort } from '../support/syslog-wire-peer.js';
import { testPki } from '../support/test-pki.js';
import { startControl } from './soak-control.js';
import { baseGraph, tlsGraph, tlsUploads, type SoakPorts } from './soak-graph.js';
import { startHttpLoad } from './soak-http.js';
import { MINUTE_HEADER, Sampler, minuteRow, type Sample } from './soak-metrics.js';
import { logSummary, removeSoakDir, startSoakNode, tail, type SoakNode } from './soak-node.js';
import { accounting, loadLines, memoryVerdict, nodeLines } from './soak-summary.js';
import { idleConnections, startSink, startSyslogLoad } from './soak-syslog.js';
import { compileNode } from './syslog-wire-node.js';

const SAMPLE_MS = 10_000;
const DRAIN_MS = 20_000;

const { values } = parseArgs({
  options: {
    minutes: { type: 'string', default: '30' },
    'http-rate': { type: 'string', default: '400' },
    'syslog-rate': { type: 'string', default: '50' },
    csv: { type: 'string' },
  },
});
const minutes = Number(values.minutes);
const csv =
  values.csv ?? join(tmpdir(), `streamroute-soak-${new Date().toISOString().replace(/[:.]/g, '-')}.csv`);
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function applyGraph(node: SoakNode, ports: SoakPorts) {
  for (const [script, uploads] of [
    [`BEGIN;\n${baseGraph(ports)}\nCOMMIT;`, []],
    [tlsGraph(ports.tls), tlsUploads(testPki())],
  ] as const) {
    const answer = await node.statements(script, [...uploads]);
    if (!answer.ok) throw new Error(`the graph was refused: ${JSON.stringify(answer).slice(0, 2000)}`);
  }
}

/** Every kind of load at once; stop() ends them all and waits for what is in flight. */
function startLoad(node: SoakNode, ports: SoakPorts) {
  const http = startHttpLoad({
    port: node.httpPort,
    rate: Number(values['http-rate']),
    badShare: 0.02,
    worstEverySeconds: 20,
    hostileEverySeconds: 30,
  });
  const syslog = startSyslogLoad({
    ports,
    rate: Number(values['syslog-rate']),
    ca: testPki().ca.cert,
    hostileEverySeconds: 30,
  });
  const control = startControl(node, { statementEverySeconds: 4 });
  const idle = setInterval(() => {
    for (const port of [node.httpPort, ports.tcp, ports.tls, node.adminPort])
      idleConnections(port, 16, 45_000);
  }, 60_000);
  const stop = async () => {
    clearInterval(idle);
    await Promise.all([http.stop(), syslog.stop(), control.stop()]);
  };
  return { http, syslog, control, stop };
}

/** Samples every SAMPLE_MS until the time is up (or the node exits), printing a row per minute. */
async function sampleUntil(end: number, node: SoakNode, take: () => Promise<Sample>): Promise<Sample[]> {
  console.log(MINUTE_HEADER);
  const samples: Sample[] = [];
  let minute: Sample[] = [];
  while (Date.now() < end && !node.exited()) {
    await pause(SAMPLE_MS);
    const sample = await take();
    samples.push(sample);
    minute.push(sample);
    if (minute.length === 60_000 / SAMPLE_MS) {
      console.log(minuteRow(minute));
      minute = [];
    }
  }
  if (minute.length > 0) console.log(minuteRow(minute));
  return samples;
}

async function main(): Promise<number> {
  const build = compileNode();
  const sink = await startSink();
  const node = await startSoakNode(build.entry, mkdtempSync(join(tmpdir(), 'streamroute-soak-')));
  try {
    const ports = {
      udp: await freeUdpPort(),
      tcp: await freeTcpPort(),
      tls: await freeTcpPort(),
      sink: sink.port,
    };
    await applyGraph(node, ports);
    await pause(2_000);
    console.log(
      `soak: ${minutes} min, HTTP ${values['http-rate']}/s, syslog ${values['syslog-rate']}/s per transport ` +
        `(UDP, TCP, TLS); node pid ${node.pid}; samples → ${csv}`,
    );
    const load = startLoad(node, ports);
    const bench = watchBench();
    const sampler = new Sampler(node.adminPort, node.pid, csv);
    const samples = await sampleUntil(Date.now() + minutes * 60_000, node, () =>
      sampler.take(load.control.counts.health.splice(0), sink.frames()),
    );
    const benchFigures = bench.stop();
    await load.stop();
    if (node.exited()) throw new Error(`the node exited during the run:\n${tail(node.log)}`);
    await pause(DRAIN_MS);
    const metrics = (await fetchAdmin(node.adminPort, '/metrics')).body;
    const memory = memoryVerdict(samples);
    const books = accounting(metrics, load.http, load.syslog, sink.frames());
    console.log('\nsummary');
    for (const line of [
      ...memory.lines,
      ...loadLines(load.http, load.syslog, load.control.counts),
      `the bench itself        ${benchFigures} (/healthz is timed in a worker thread of its own)`,
      ...nodeLines(metrics, logSummary(node.log)),
      ...books.lines,
      `samples: ${csv}`,
    ])
      console.log(`  ${line}`);
    return memory.levelled && books.ok && load.control.counts.statementFailures === 0 ? 0 : 1;
  } finally {
    await node.stop();
    await sink.close();
    removeSoakDir(node.log);
    build.remove();
  }
}

/** The bench's own CPU and event-loop delay, to tell its delays from the node's. */
function watchBench(): { stop(): string } {
  const loop = monitorEventLoopDelay({ resolution: 10 });
  loop.enable();
  const cpu = process.cpuUsage();
  const started = performance.now();
  return {
    stop: () => {
      const used = process.cpuUsage(cpu);
      loop.disable();
      const percent = ((used.user + used.system) / 1000 / (performance.now() - started)) * 100;
      return `CPU ${percent.toFixed(0)} % of one core, event-loop delay p99 ${(loop.percentile(99) / 1e6).toFixed(1)} ms`;
    },
  };
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(2);
  },
);

// Syslog wire benchmark (not a timed test): our node beside rsyslog and syslog-ng in the same run, fed the
// same loggen stream (RFC 5424, octet-counted, TCP; test/bench/syslog-wire-loggen.ts), round after round
// in turn (A B C A B C …, so drift on a shared machine hits all alike; round 0 is a warm-up). Two cases:
//
//   ingest  TCP in → parse → discard. rsyslog imtcp + `stop`; syslog-ng syslog() source, nothing out; our
//           node's SYSLOG LISTENER INGESTOR → SYSLOG codec → relay `r` with no consumers.
//   relay   TCP in → parse → RFC 5424 octet-counted TCP out, into one rsyslog sink that all three share.
//           rsyslog imtcp → omfwd; syslog-ng syslog() → syslog() with flow control; our node adds
//           EMITTER `e` FROM r TO SYSLOG (NO_ACK, FLUSH IMMEDIATE).
//
// A run is `--messages` messages over 1 or 4 connections (each connection a share), timed from loggen's
// start until the receiver has PROCESSED the last one: the daemons (and the sink) write each connection's
// last message to a marker file that the driver polls; our node's relay counts records in
// (streamroute_records_in_total on its admin /metrics). CPU is the receiver's (or relay's) process CPU
// time over the run, per message, from /proc: steadier than msg/s on a shared machine. At the end each
// receiver's own count (rsyslog impstats, syslog-ng-ctl stats, the node's counters) is checked against
// what was sent, so a receiver that dropped messages does not pass for fast.
//
//   npx tsx test/bench/syslog-wire.bench.ts [--messages 500000] [--rounds 5] [--connections 1,4]
//     [--cases ingest,relay] [--only rsyslog,syslog-ng,streamroute] [--compiled] [--cpu-prof <dir>]
//
// --compiled runs our node from tsc's output (in a temporary directory, or <dir>/dist with --cpu-prof)
// rather than through tsx; with --cpu-prof <dir> our node writes a V8 profile per case into <dir>/<case>,
// for test/bench/syslog-wire-profile.ts (which maps --compiled frames back to TypeScript lines).
import { execFileSync } from 'node:child_process';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { SYSLOGNG, SYSLOGNG_PREFIX, RSYSLOGD } from '../support/syslog-peers.js';
import { MESSAGE_SIZE, runLoggen } from './syslog-wire-loggen.js';
import { compileNode, startNode, sumSamples, type NodeOptions, type NodeTarget } from './syslog-wire-node.js';
import {
  cpuMicros,
  startRsyslogReceiver,
  startRsyslogRelay,
  startRsyslogSink,
  startSyslogNgReceiver,
  startSyslogNgRelay,
  type Run,
  type Target,
} from './syslog-wire-peers.js';

const SYSTEMS = ['rsyslog', 'syslog-ng', 'streamroute'] as const;
type System = (typeof SYSTEMS)[number];
const CASES = ['ingest', 'relay'] as const;
type Case = (typeof CASES)[number];
const POLL_MS = 5;
const MAX_POLL_MS = 100;
const RUN_TIMEOUT_MS = 120_000;

interface Entry {
  system: System;
  target: Target;
  /** Messages sent to it so far (warm-up included), for the loss check. */
  sent: number;
}

interface Sample {
  rate: number;
  cpuUs: number;
}

const { values } = parseArgs({
  options: {
    messages: { type: 'string', default: '500000' },
    rounds: { type: 'string', default: '5' },
    connections: { type: 'string', default: '1,4' },
    cases: { type: 'string', default: CASES.join(',') },
    only: { type: 'string', default: SYSTEMS.join(',') },
    'cpu-prof': { type: 'string' },
    compiled: { type: 'boolean', default: false },
  },
});
const messages = Number(values.messages);
const rounds = Number(values.rounds);
const runs: Run[] = values.connections.split(',').map((text) => {
  const connections = Number(text);
  return { connections, perConnection: Math.round(messages / connections) };
});
const cases = values.cases
  .split(',')
  .filter((name): name is Case => (CASES as readonly string[]).includes(name));
const systems = values.only
  .split(',')
  .filter((name): name is System => (SYSTEMS as readonly string[]).includes(name));

function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * How long to wait before asking again: a counter that grows steadily (our node's records in, read from
 * /metrics, whose scrape costs the node CPU) is asked about when half the remaining time has passed by its
 * current rate, at most every POLL_MS and at least every MAX_POLL_MS; a marker count only jumps at the end.
 */
function nextPoll(
  last: { at: number; count: number },
  now: { at: number; count: number },
  goal: number,
): number {
  const rate = (now.count - last.count) / Math.max(now.at - last.at, 1);
  if (rate <= 0) return POLL_MS;
  return Math.min(MAX_POLL_MS, Math.max(POLL_MS, (goal - now.count) / rate / 2));
}

/** One run: loggen into the target; the time until the watched counter says everything was processed. */
async function measure(entry: Entry, run: Run): Promise<Sample> {
  const { target } = entry;
  const total = run.connections * run.perConnection;
  const goal = (await target.progress(run)) + target.expected(run);
  const cpuBefore = cpuMicros(target.pid);
  const started = performance.now();
  let failure: Error | undefined;
  const loggen = runLoggen(target.port, run).catch((error: unknown) => {
    failure = error instanceof Error ? error : new Error(String(error));
  });
  entry.sent += total;
  let last = { at: started, count: goal - target.expected(run) };
  for (;;) {
    const count = await target.progress(run);
    if (count >= goal) break;
    if (failure !== undefined) throw failure;
    const now = performance.now();
    if (now - started > RUN_TIMEOUT_MS)
      throw new Error(`${target.name}: not done after ${RUN_TIMEOUT_MS} ms`);
    await pause(nextPoll(last, { at: now, count }, goal));
    last = { at: now, count };
  }
  const elapsed = performance.now() - started;
  const cpu = cpuMicros(target.pid) - cpuBefore;
  await loggen;
  if (failure !== undefined) throw failure;
  return { rate: (total / elapsed) * 1000, cpuUs: cpu / total };
}

async function startAll(kind: Case, sink: Target | undefined): Promise<Entry[]> {
  const entries: Entry[] = [];
  for (const system of systems) {
    try {
      entries.push({ system, target: await start(system, kind, sink), sent: 0 });
    } catch (error: unknown) {
      const text = error instanceof Error ? error.message : String(error);
      console.log(`${kind} ${system}: NOT AVAILABLE, left out (${text.split('\n').slice(0, 6).join(' | ')})`);
    }
  }
  return entries;
}

/** `--compiled`: our node runs tsc's output (built once, removed at the end) instead of tsx. */
const compiled =
  values.compiled && systems.includes('streamroute')
    ? compileNode(values['cpu-prof'] === undefined ? undefined : join(values['cpu-prof'], 'dist'))
    : undefined;

function start(system: System, kind: Case, sink: Target | undefined): Promise<Target> {
  const profile: NodeOptions = {
    ...(values['cpu-prof'] === undefined ? {} : { cpuProfileDir: join(values['cpu-prof'], kind) }),
    ...(compiled === undefined ? {} : { entry: compiled.entry }),
  };
  if (kind === 'ingest') {
    if (system === 'rsyslog') return startRsyslogReceiver(runs);
    if (system === 'syslog-ng') return startSyslogNgReceiver(runs);
    return startNode('streamroute', profile);
  }
  if (sink === undefined) throw new Error('the relay case needs the sink');
  if (system === 'rsyslog') return wrapRelay(startRsyslogRelay(sink.port), sink);
  if (system === 'syslog-ng') return wrapRelay(startSyslogNgRelay(sink.port), sink);
  return startNode('streamroute-relay', { ...profile, sinkPort: sink.port }, sink);
}

/** A daemon relay is done when the sink has its markers. */
async function wrapRelay(relay: Promise<Target>, sink: Target): Promise<Target> {
  const target = await relay;
  return { ...target, progress: (run) => sink.progress(run), expected: (run) => sink.expected(run) };
}

function versions(): string {
  const first = (binary: string, args: string[], env: NodeJS.ProcessEnv = process.env): string => {
    try {
      const line = execFileSync(binary, args, { env, encoding: 'utf8' }).split('\n')[0] ?? '?';
      return line
        .replace(/\s+compiled with:$/, '')
        .replace(/\s+/g, ' ')
        .trim();
    } catch {
      return '?';
    }
  };
  const lib = join(SYSLOGNG_PREFIX, 'usr/lib/syslog-ng');
  return [
    first(RSYSLOGD, ['-v']),
    first(SYSLOGNG, ['--version'], { ...process.env, LD_LIBRARY_PATH: lib }),
    `Node ${process.version}`,
  ].join(', ');
}

async function main(): Promise<void> {
  console.log(`$ npx tsx test/bench/syslog-wire.bench.ts ${process.argv.slice(2).join(' ')}`.trim());
  console.log(
    `syslog wire benchmark: ${messages} messages of ${MESSAGE_SIZE} B per run (RFC 5424, octet-counted TCP, ` +
      `loggen), ${runs.map((run) => `${run.connections}×${run.perConnection}`).join(' and ')} connections × ` +
      `messages, ${rounds} rounds + 1 warm-up, interleaved ${systems.join(' → ')}`,
  );
  console.log(`machine: ${cpus()[0]?.model ?? '?'} × ${cpus().length}; ${versions()}`);
  const sink = cases.includes('relay') ? await startRsyslogSink(runs) : undefined;
  const byCase = new Map<Case, Entry[]>();
  const samples = new Map<string, Sample[]>();
  try {
    for (const kind of cases) byCase.set(kind, await startAll(kind, sink));
    for (let round = 0; round <= rounds; round++) {
      for (const kind of cases) {
        for (const run of runs) {
          for (const entry of byCase.get(kind) ?? []) {
            const sample = await measure(entry, run);
            const label = round === 0 ? 'warm-up' : `round ${round}`;
            console.log(
              `${label.padEnd(8)} ${kind.padEnd(6)} ${run.connections} conn  ${entry.system.padEnd(11)} ` +
                `${fmt(sample.rate, 0).padStart(9)} msg/s  CPU ${fmt(sample.cpuUs, 2)} µs/msg`,
            );
            if (round > 0) push(samples, key(kind, run, entry.system), sample);
          }
        }
      }
    }
    report(byCase, samples);
    await checkLosses(byCase, sink);
  } finally {
    for (const entries of byCase.values()) for (const entry of entries) await entry.target.stop();
    await sink?.stop();
    compiled?.remove();
  }
}

function key(kind: Case, run: Run, system: System): string {
  return `${kind}/${run.connections}/${system}`;
}

function push(samples: Map<string, Sample[]>, name: string, sample: Sample): void {
  const list = samples.get(name) ?? [];
  list.push(sample);
  samples.set(name, list);
}

function median(list: number[]): number {
  const sorted = [...list].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
}

function fmt(value: number, digits: number): string {
  return value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

function report(byCase: Map<Case, Entry[]>, samples: Map<string, Sample[]>): void {
  console.log(
    '\n| case | conn | system | msg/s | CPU µs/msg | msg/s ÷ rsyslog | msg/s ÷ syslog-ng | CPU ÷ rsyslog |',
  );
  console.log('|---|---:|---|---:|---:|---:|---:|---:|');
  const machine: string[] = [];
  for (const [kind, entries] of byCase) {
    for (const run of runs) {
      const med = (system: System) => {
        const list = samples.get(key(kind, run, system)) ?? [];
        return list.length === 0
          ? undefined
          : { rate: median(list.map((s) => s.rate)), cpu: median(list.map((s) => s.cpuUs)) };
      };
      const rsyslog = med('rsyslog');
      const syslogNg = med('syslog-ng');
      for (const { system } of entries) {
        const m = med(system);
        if (m === undefined) continue;
        const ratio = (base: number | undefined, value: number) =>
          base === undefined ? '–' : fmt(value / base, 2);
        console.log(
          `| ${kind} | ${run.connections} | ${system} | ${fmt(m.rate, 0)} | ${fmt(m.cpu, 2)} | ` +
            `${ratio(rsyslog?.rate, m.rate)} | ${ratio(syslogNg?.rate, m.rate)} | ${ratio(rsyslog?.cpu, m.cpu)} |`,
        );
        machine.push(`${kind}/${run.connections}/${system}=${Math.round(m.rate)}msg/s,${m.cpu.toFixed(2)}us`);
      }
    }
  }
  console.log(
    '(medians over the rounds; ratios against the daemons in the same run; CPU is the receiver’s or relay’s)',
  );
  console.log(`machine-readable: syslog-wire ${machine.join(' ')}`);
}

/** Every receiver's own count against what was sent to it (the sink: against every relay's). */
async function checkLosses(byCase: Map<Case, Entry[]>, sink: Target | undefined): Promise<void> {
  await pause(2_200); // rsyslog writes its impstats once a second
  for (const entries of byCase.values()) {
    for (const { target, sent } of entries) {
      const counted = await target.processed();
      console.log(
        `${target.name}: sent ${fmt(sent, 0)}, it counted ${counted === undefined ? '?' : fmt(counted, 0)}` +
          (counted === sent ? ' (none missing)' : ' (MISMATCH)') +
          (await nodeDetail(target)),
      );
    }
  }
  if (sink !== undefined) {
    const relayed = (byCase.get('relay') ?? []).reduce((sum, entry) => sum + entry.sent, 0);
    const counted = await sink.processed();
    console.log(
      `sink: relays sent ${fmt(relayed, 0)}, the sink counted ${counted === undefined ? '?' : fmt(counted, 0)}` +
        (counted === relayed ? ' (none missing)' : ' (MISMATCH)'),
    );
  }
}

/** For our node: its drops, message errors and emitter output, from /metrics. */
async function nodeDetail(target: Target): Promise<string> {
  if (!('metrics' in target)) return '';
  const text = await (target as NodeTarget).metrics();
  const drops = sumSamples(text, 'streamroute_drops_total', {});
  const errors = sumSamples(text, 'streamroute_message_errors_total', {});
  const out = sumSamples(text, 'streamroute_records_out_total', { kind: 'emitter' });
  return `; drops ${drops}, message errors ${errors}, emitter records out ${out}`;
}

await main();

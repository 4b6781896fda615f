// Our side of the syslog wire benchmark: the real embedded node as its own process, like the daemons
// (`node --import tsx operator/cli/main.ts node --manifests <dir>`, warn-level logs to a file), running
//   receiver  SYSLOG LISTENER INGESTOR on TCP → SYSLOG codec → relay `r` with no consumers
//   relay     the same, plus EMITTER `e`: relay `r` → SYSLOG codec → TCP octet-counted to the sink
// Completion of a receiver run is the relay's `streamroute_records_in_total` on the admin /metrics
// reaching the count; a relay run is complete when the sink has the markers, as for the daemons.
// `--cpu-prof` (with a directory) profiles the node; the profile is written when the node stops. The node
// runs through tsx, or from tsc's output in a directory of its own (compileNode) for line-exact profiles.
import { spawnSync, type ChildProcess } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fetchAdmin } from '../fixtures/admin-client.js';
import { freeTcpPort, waitForTcpPort, type Target } from './syslog-wire-peers.js';
import { nodeCommandArgs, spawnLogged } from '../support/node-process.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const STOP_GRACE_MS = 10_000;
const READY_TIMEOUT_MS = 30_000;

/** The statements of both modes: the SYSLOG wire schema's fields, its codec, the relay, the listener. */
export function receiverStatements(port: number): string {
  return `
CREATE SCHEMA syslog_line (
  facility U8, severity U8, timestamp DATETIME OPTIONAL, hostname STRING OPTIONAL,
  app_name STRING OPTIONAL, proc_id STRING OPTIONAL, msg_id STRING OPTIONAL,
  structured_data STRING OPTIONAL, message STRING
);
CREATE CODEC syslog FROM SYSLOG TO SCHEMA syslog_line;
CREATE RELAY r SCHEMA syslog_line UNBRANCHED;
CREATE CLIENT bench_in TYPE SYSLOG CONFIG { 'protocol' = 'tcp', 'addr' = '127.0.0.1:${port}' };
CREATE SYSLOG LISTENER INGESTOR bench_in
  FROM bench_in
  MODE NO ACK
  ON QUIESCE SUSPEND
  DECODE USING syslog
  TO r INHERIT ALL FLUSH IMMEDIATE ON MESSAGE ERROR LOG
  ON GENERAL ERROR LOG;
`;
}

/** The relay mode's addition: the emitter as the issue gives it. */
export function emitterStatements(sinkPort: number): string {
  return `
CREATE CLIENT out TYPE SYSLOG CONFIG { 'protocol' = 'tcp', 'addr' = '127.0.0.1:${sinkPort}' };
CREATE EMITTER e FROM r TO SYSLOG out
  MODE NO_ACK RETRY POLICY BACKOFF 100ms MAX 1s
  ENCODE USING syslog
  FLUSH IMMEDIATE
  ON MESSAGE ERROR LOG
  ON GENERAL ERROR LOG;
`;
}

/** The sum of the samples of `name` whose labels include all of `labels`, in a Prometheus text body. */
export function sumSamples(text: string, name: string, labels: Record<string, string>): number {
  let total = 0;
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    const labelText = line.slice(name.length, line.lastIndexOf(' '));
    if (Object.entries(labels).every(([key, value]) => labelText.includes(`${key}="${value}"`)))
      total += Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return total;
}

export interface NodeOptions {
  /** Forward to this sink port (relay mode); receiver mode without it. */
  sinkPort?: number;
  /** Write a V8 CPU profile into this directory when the node stops. */
  cpuProfileDir?: string;
  /** Run this compiled `operator/cli/main.js` (see compileNode) instead of the TypeScript through tsx. */
  entry?: string;
}

/**
 * Compiles operator/ and dataplane/ with tsc into `into` or a fresh temporary directory (never the shared
 * dist/), beside a link to node_modules and a package.json of type module; returns the entry point and a
 * remover (which keeps a given directory: its .js.map files map a CPU profile back to the TypeScript).
 */
export function compileNode(into?: string): { entry: string; remove: () => void } {
  const dir = into ?? mkdtempSync(join(tmpdir(), 'streamroute-bench-dist-'));
  mkdirSync(dir, { recursive: true });
  const tsc = join(ROOT, 'node_modules/typescript/bin/tsc');
  // type errors in files being edited elsewhere do not stop tsc from emitting; a missing emit does
  spawnSync(process.execPath, [tsc, '-p', join(ROOT, 'tsconfig.build.json'), '--outDir', dir], { cwd: ROOT });
  const entry = join(dir, 'operator/cli/main.js');
  if (!existsSync(entry)) throw new Error(`tsc emitted no ${entry}`);
  if (!existsSync(join(dir, 'node_modules')))
    symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
  writeFileSync(join(dir, 'package.json'), '{ "type": "module" }\n');
  return {
    entry,
    remove: () => (into === undefined ? rmSync(dir, { recursive: true, force: true }) : undefined),
  };
}

/** Our node as a Target, plus its counters for the loss check. */
export interface NodeTarget extends Target {
  metrics(): Promise<string>;
  readonly log: string;
}

export async function startNode(name: string, options: NodeOptions, sink?: Target): Promise<NodeTarget> {
  const dir = mkdtempSync(join(tmpdir(), `streamroute-bench-${name}-`));
  const manifests = join(dir, 'manifests');
  mkdirSync(manifests);
  const port = await freeTcpPort();
  const statements =
    receiverStatements(port) + (options.sinkPort === undefined ? '' : emitterStatements(options.sinkPort));
  writeFileSync(join(manifests, 'graph.sql'), statements);
  const log = join(dir, 'node.log');
  const child = spawnNode(dir, manifests, log, options);
  const stop = () => stopNode(child, dir);
  let adminPort: number;
  try {
    adminPort = await adminPortOf(child, log);
    await waitForTcpPort(port, () =>
      Promise.resolve(child.exitCode === null ? undefined : `${name} exited:\n${tail(log)}`),
    );
  } catch (error: unknown) {
    await stop();
    throw error;
  }
  const metrics = async (): Promise<string> => (await fetchAdmin(adminPort, '/metrics')).body;
  const recordsIn = async (): Promise<number> =>
    sumSamples(await metrics(), 'streamroute_records_in_total', { kind: 'relay', name: 'r' });
  return {
    name,
    port,
    pid: child.pid ?? 0,
    log,
    progress: sink === undefined ? () => recordsIn() : (run) => sink.progress(run),
    expected: sink === undefined ? (run) => run.connections * run.perConnection : (run) => sink.expected(run),
    processed: recordsIn,
    metrics,
    stop,
  };
}

function spawnNode(dir: string, manifests: string, log: string, options: NodeOptions): ChildProcess {
  const { cpuProfileDir, entry } = options;
  const profile = cpuProfileDir === undefined ? [] : ['--cpu-prof', '--cpu-prof-dir', cpuProfileDir];
  const main = entry === undefined ? ['--import', 'tsx', join(ROOT, 'operator/cli/main.ts')] : [entry];
  return spawnLogged([...profile, ...main, ...nodeCommandArgs(manifests, join(dir, 'data'))], log, ROOT);
}

/** The admin port from the node's start line (`… admin http://127.0.0.1:PORT · …`). */
async function adminPortOf(child: ChildProcess, log: string): Promise<number> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  for (;;) {
    const match = /admin http:\/\/127\.0\.0\.1:(\d+)/.exec(readFileSync(log, 'utf8'));
    if (match?.[1] !== undefined) return Number(match[1]);
    if (child.exitCode !== null) throw new Error(`the node exited (${child.exitCode}):\n${tail(log)}`);
    if (Date.now() > deadline) throw new Error(`the node did not start:\n${tail(log)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function tail(log: string): string {
  return readFileSync(log, 'utf8').split('\n').slice(-20).join('\n');
}

/** SIGTERM (the node stops cleanly and writes its profile), SIGKILL after a grace period. */
async function stopNode(child: ChildProcess, dir: string): Promise<void> {
  if (child.exitCode === null && child.signalCode === null) {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
    await exited;
    clearTimeout(timer);
  }
  rmSync(dir, { recursive: true, force: true });
}

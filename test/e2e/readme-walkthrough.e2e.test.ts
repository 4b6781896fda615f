// The README's walk-through, run as a newcomer runs it: the main job (`npm run example`, the embedded node
// on examples/quickstart) in one process, `streamroute subscribe` in a second, the README's curl command
// in a third, then the README's describe, statement and `top` commands. Ports are the system's choice instead
// of 8080/8081; everything else is the README's text, read from README.md so the two cannot drift.
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { waitFor } from '../support/raw-http.js';

const ROOT = join(import.meta.dirname, '..', '..');
const README = readFileSync(join(ROOT, 'README.md'), 'utf8');
const SCRIPTS = (
  JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }
).scripts;

/** The README line that starts with `prefix` (inside a code block). */
function readmeLine(prefix: string): string {
  const line = README.split('\n').find((text) => text.startsWith(prefix));
  assert.ok(line !== undefined, `README.md has no line starting with ${JSON.stringify(prefix)}`);
  return line.replace(/\s+#.*$/, '').trim();
}

/** `npx streamroute …` / `tsx operator/cli/main.ts …` as a process of this Node with tsx. */
function streamroute(args: readonly string[]): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', 'operator/cli/main.ts', ...args], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/** Splits a README command into words (single quotes only, as the README writes them). */
function words(command: string): string[] {
  return [...command.matchAll(/'([^']*)'|(\S+)/g)].map((match) => match[1] ?? match[2] ?? '');
}

function collect(child: ChildProcess): { stdout: () => string; stderr: () => string } {
  let out = '';
  let err = '';
  child.stdout?.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
  child.stderr?.on('data', (chunk: Buffer) => (err += chunk.toString('utf8')));
  return { stdout: () => out, stderr: () => err };
}

/** Polls `probe` until it gives a value (a record printed, a line written). */
async function until<T>(what: string, probe: () => T | undefined, timeoutMs = 20_000): Promise<T> {
  let value: T | undefined;
  await waitFor(() => (value = probe()) !== undefined, timeoutMs, what);
  return value as T;
}

function exited(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve) => child.once('exit', (code) => resolve(code)));
}

function curlAvailable(): boolean {
  return spawnSync('curl', ['--version'], { stdio: 'ignore' }).status === 0;
}

describe('the README walk-through (real processes, real curl)', function () {
  this.timeout(60_000);
  const children: ChildProcess[] = [];
  after(() => children.forEach((child) => child.kill('SIGKILL')));

  before(function () {
    if (curlAvailable()) return;
    if (process.env['CI']) throw new Error('curl is missing; .ci/run installs it');
    console.log('    (skipped: curl is not installed)');
    this.skip();
  });

  it('starts the node, subscribes, posts with curl and sees the record; describes and changes the graph', async () => {
    const mainJob = SCRIPTS['example'] ?? '';
    assert.match(readmeLine('npm ci && npm run example'), /npm run example/);
    assert.equal(mainJob, 'tsx operator/cli/main.ts node --manifests examples/quickstart');
    const nodeArgs = [...words(mainJob).slice(2), '--http-listen-addr', '127.0.0.1:0'];
    nodeArgs.push('--https-listen-addr', '127.0.0.1:0', '--admin-listen-addr', '127.0.0.1:0');
    const node = streamroute(nodeArgs);
    children.push(node);
    const nodeOutput = collect(node);
    const summary = await until(
      'the node to say where it listens',
      () => /^streamroute node: .*$/m.exec(nodeOutput.stdout())?.[0],
    );
    assert.match(summary, /domain default: graph version 1/);
    const httpPort = Number(/HTTP 127\.0\.0\.1:(\d+)/.exec(summary)?.[1]);
    const server = /admin (http:\/\/127\.0\.0\.1:\d+)/.exec(summary)?.[1] ?? '';
    assert.ok(httpPort > 0 && server !== '', summary);

    const subscribeCommand = readmeLine('npx streamroute subscribe');
    const subscriber = streamroute(['--server', server, ...words(subscribeCommand).slice(2)]);
    children.push(subscriber);
    const subscribed = collect(subscriber);

    // The subscription attaches asynchronously; post (as the README does) until the record arrives.
    const curl = words(readmeLine('curl -i -X POST')).map((word) =>
      word.replace('http://localhost:8080/', `http://localhost:${httpPort}/`),
    );
    const expected = readmeLine('{"order_id":"A-1"');
    const firstLine = await until('the subscriber to print the record', () => {
      const posted = spawnSync(curl[0] ?? 'curl', curl.slice(1), { encoding: 'utf8' });
      assert.match(posted.stdout, /^HTTP\/1\.1 202 Accepted/);
      return subscribed.stdout().split('\n')[0] || undefined;
    });
    assert.equal(firstLine, expected);

    const describe = streamroute([
      '--server',
      server,
      ...words(readmeLine('npx streamroute describe')).slice(2),
    ]);
    const described = collect(describe);
    assert.equal(await exited(describe), 0, described.stderr());
    assert.match(
      described.stdout(),
      /^http-ingestor orders_in \(domain default, graph version 1\)\nstate: Running/,
    );

    const create = streamroute([
      '--server',
      server,
      ...words(readmeLine("npx streamroute -c 'CREATE RELAY audit")).slice(2),
    ]);
    const created = collect(create);
    assert.equal(await exited(create), 0, created.stderr());
    assert.match(created.stdout(), /CREATE RELAY audit\n-- domain default runs graph version 2/);

    // `top` without a terminal (stdin is not one here): one look at the components, as a table
    const top = streamroute(['--server', server, ...words(readmeLine('npx streamroute top')).slice(2)]);
    const looked = collect(top);
    assert.equal(await exited(top), 0, looked.stderr());
    assert.match(looked.stdout(), /^KIND +NAME +STATE +IN\/S +OUT\/S +IN +OUT +ERRORS +DROPS +PENDING\n/);
    assert.match(
      looked.stdout(),
      /^http-ingestor +orders_in +Running +\S+ +\S+ +[1-9]\d* +[1-9]\d* +0 +0 +0$/m,
    );
    assert.match(looked.stdout(), /^relay +audit +- /m);

    // The subscriber outlived the reload and still receives.
    const before = subscribed.stdout().split('\n').length;
    await until('a record after the reload', () => {
      spawnSync(curl[0] ?? 'curl', curl.slice(1));
      return subscribed.stdout().split('\n').length > before ? true : undefined;
    });

    node.kill('SIGTERM');
    assert.equal(await exited(node), 0, nodeOutput.stderr());
    assert.equal(await exited(subscriber), 1, 'the node ended the subscription');
    assert.match(subscribed.stderr(), /the node ended the subscription/);
  });
});

// `streamroute node` as a process whose port is already held by another socket (docs/node.md, "Starting and
// stopping"): with the default `--on-bind-error exit` it exits 3 with one line on stderr naming the
// listener, the address and the system's reason, prints no banner, leaves nothing listening, and opens no
// listener after the one that failed (in start order: the graph's syslog listeners, HTTP and HTTPS, the
// admin API). With `--on-bind-error retry` it waits for the port, says so on stderr, and serves once the
// port is free. One case per listener kind: HTTP, HTTPS (a TLS vhost restored from the data dir), admin,
// syslog over UDP and TCP.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { createSocket, type Socket as UdpSocket } from 'node:dgram';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { connect, createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { openTestNode, removeDir, tempDir } from '../fixtures/embedded-node.js';
import { fetchAdmin } from '../fixtures/admin-client.js';
import { EXAMPLES } from '../fixtures/graph-from-statements.js';
import { waitFor } from '../support/raw-http.js';
import { testPki } from '../support/test-pki.js';

const ROOT = join(import.meta.dirname, '..', '..');
const QUICKSTART = readFileSync(join(EXAMPLES, 'quickstart', 'graph.sql'), 'utf8');

interface NodeRun {
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  exited: Promise<number | null>;
}

/** `streamroute node …` as a process of this Node with tsx; the ports not given are the system's choice. */
function startNode(args: readonly string[]): NodeRun {
  const flags = new Map([
    ['--http-listen-addr', '127.0.0.1:0'],
    ['--https-listen-addr', '127.0.0.1:0'],
    ['--admin-listen-addr', '127.0.0.1:0'],
  ]);
  const given = [...args];
  for (const [flag, value] of flags) if (!given.includes(flag)) given.push(flag, value);
  const child = spawn(process.execPath, ['--import', 'tsx', 'operator/cli/main.ts', 'node', ...given], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout?.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
  child.stderr?.on('data', (chunk: Buffer) => (err += chunk.toString('utf8')));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, stdout: () => out, stderr: () => err, exited };
}

/** A port held by another socket: a TCP server, or a bound UDP socket. */
interface Held {
  port: number;
  release(): Promise<void>;
}

async function holdTcp(): Promise<Held> {
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  assert.ok(address !== null && typeof address === 'object');
  return { port: address.port, release: () => new Promise((resolve) => server.close(() => resolve())) };
}

async function holdUdp(): Promise<Held> {
  const socket: UdpSocket = createSocket('udp4');
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  return {
    port: socket.address().port,
    release: () => new Promise((resolve) => socket.close(() => resolve())),
  };
}

/** The stderr lines that are not JSON log lines, and the log lines. */
function stderrOf(run: NodeRun): { plain: string[]; logs: Record<string, unknown>[] } {
  const lines = run
    .stderr()
    .split('\n')
    .filter((line) => line !== '');
  const isLog = (line: string): boolean => line.startsWith('{');
  return {
    plain: lines.filter((line) => !isLog(line)),
    logs: lines.filter(isLog).map((line) => JSON.parse(line) as Record<string, unknown>),
  };
}

/** Which listeners logged that they listen: `http`, `https`, `admin`, `syslog`. */
function listened(logs: readonly Record<string, unknown>[]): string[] {
  return logs.flatMap((line) => {
    if (line.event === 'http_listening') return [String(line.listener)];
    if (line.event === 'admin_listening') return ['admin'];
    return line.msg === 'syslog listener listening' ? ['syslog'] : [];
  });
}

/** A graph with one syslog listener ingestor on 127.0.0.1:`port`. */
function syslogGraph(protocol: 'udp' | 'tcp', port: number): string {
  return `
CREATE SCHEMA line (facility U8, severity U8, timestamp DATETIME OPTIONAL, hostname STRING OPTIONAL,
  app_name STRING OPTIONAL, proc_id STRING OPTIONAL, msg_id STRING OPTIONAL, structured_data STRING OPTIONAL,
  message STRING);
CREATE CODEC syslog FROM SYSLOG TO SCHEMA line;
CREATE RELAY lines SCHEMA line UNBRANCHED;
CREATE CLIENT local_in TYPE SYSLOG CONFIG { 'protocol' = '${protocol}', 'addr' = '127.0.0.1:${port}' };
CREATE SYSLOG LISTENER INGESTOR syslog_in FROM local_in MODE NO ACK ON QUIESCE DROP DECODE USING syslog
  TO lines INHERIT ALL UNBRANCHED FLUSH IMMEDIATE ON MESSAGE ERROR LOG ON GENERAL ERROR LOG;
`;
}

/** A data dir whose stored graph is the quickstart served over HTTPS (a TLS vhost with the test PKI). */
async function httpsDataDir(root: string): Promise<string> {
  const dataDir = join(root, 'data');
  mkdirSync(dataDir);
  const node = openTestNode(dataDir);
  try {
    const { server } = testPki();
    const vhost = `CREATE RESOURCE pki;
UPLOAD RESOURCE pki VERSION './pki';
CREATE VHOST local localhost TLS MOUNT pki VERSION 1
  CONFIG { 'tls_cert_file' = '{{ pki }}/tls.crt', 'tls_key_file' = '{{ pki }}/tls.key' };`;
    const reply = await node.run(QUICKSTART.replace('CREATE VHOST local localhost;', vhost), {
      uploads: [
        {
          resource: 'pki',
          directory: './pki',
          files: [
            { path: 'tls.crt', content: server.cert },
            { path: 'tls.key', content: server.key },
          ],
        },
      ],
    });
    assert.equal(reply.ok, true, JSON.stringify(reply));
  } finally {
    node.close();
  }
  return dataDir;
}

interface Case {
  kind: string;
  hold: () => Promise<Held>;
  /** The node's arguments besides the defaults, for the held port. */
  args: (port: number, root: string) => Promise<string[]>;
  what: string;
  /** What listened before the failed one (and was closed again). */
  before: string[];
}

const CASES: Case[] = [
  {
    kind: 'HTTP',
    hold: holdTcp,
    args: (port) => Promise.resolve(['--http-listen-addr', `127.0.0.1:${port}`]),
    what: 'HTTP, --http-listen-addr',
    before: [],
  },
  {
    kind: 'HTTPS',
    hold: holdTcp,
    args: async (port, root) => [
      '--data-dir',
      await httpsDataDir(root),
      '--https-listen-addr',
      `127.0.0.1:${port}`,
    ],
    what: 'HTTPS, --https-listen-addr',
    before: ['http'], // HTTP and HTTPS bind side by side
  },
  {
    kind: 'admin',
    hold: holdTcp,
    args: (port) => Promise.resolve(['--admin-listen-addr', `127.0.0.1:${port}`]),
    what: 'admin API, --admin-listen-addr',
    before: ['http'],
  },
  ...(['udp', 'tcp'] as const).map((protocol): Case => ({
    kind: `syslog ${protocol}`,
    hold: protocol === 'udp' ? holdUdp : holdTcp,
    args: (port, root) => {
      const manifests = join(root, 'manifests');
      mkdirSync(manifests);
      writeFileSync(join(manifests, 'graph.sql'), syslogGraph(protocol, port));
      return Promise.resolve(['--manifests', manifests]);
    },
    what: `syslog ${protocol} ingestor syslog-in of domain default, its client's addr`,
    before: [],
  })),
];

describe('streamroute node: a port it must own is taken (real processes)', function () {
  this.timeout(60_000);
  let root: string;
  const runs: NodeRun[] = [];
  const held: Held[] = [];
  beforeEach(() => {
    root = tempDir('streamroute-startup-');
  });
  afterEach(async () => {
    for (const run of runs.splice(0)) run.child.kill('SIGKILL');
    await Promise.all(held.splice(0).map((each) => each.release()));
    removeDir(root);
  });

  for (const { kind, hold, args, what, before } of CASES) {
    it(`${kind}: exit 3, one line on stderr, no banner, nothing after it opened and nothing left listening`, async () => {
      const port = await hold();
      held.push(port);
      const nodeArgs = await args(port.port, root);
      // The quickstart's graph, unless the case brings its own (manifests, or a data dir that has one).
      if (!nodeArgs.includes('--data-dir')) {
        if (!nodeArgs.includes('--manifests')) nodeArgs.push('--manifests', join(EXAMPLES, 'quickstart'));
        nodeArgs.push('--data-dir', join(root, 'data'));
      }
      const run = startNode(nodeArgs);
      runs.push(run);

      assert.equal(await run.exited, 3);
      const { plain, logs } = stderrOf(run);
      assert.deepEqual(plain, [
        `streamroute node: cannot listen on 127.0.0.1:${port.port} (${what}): EADDRINUSE, address already in use; free the address or choose another, or start with --on-bind-error retry to wait for it`,
      ]);
      assert.deepEqual(
        logs.filter((line) => Number(line.level) >= 40),
        [],
        'at --log-level warn, stderr is that one line',
      );
      assert.equal(run.stdout(), '', 'no banner');
      assert.deepEqual(listened(logs), before, 'only the listeners before it were opened');
      for (const line of logs.filter((each) => each.event === 'http_listening')) {
        const refused = await new Promise<boolean>((resolve) => {
          const socket = connect(Number(line.port), '127.0.0.1');
          socket.once('connect', () => resolve(socket.destroy() && false));
          socket.once('error', () => resolve(true));
        });
        assert.equal(refused, true, `${String(line.listener)} was closed`);
      }
    });
  }

  it('with --on-bind-error retry: waits for the admin port, says so, and serves once it is free', async () => {
    const port = await holdTcp();
    held.push(port);
    const run = startNode([
      '--manifests',
      join(EXAMPLES, 'quickstart'),
      '--data-dir',
      join(root, 'data'),
      '--admin-listen-addr',
      `127.0.0.1:${port.port}`,
      '--on-bind-error',
      'retry',
    ]);
    runs.push(run);
    const waiting = `streamroute node: waiting for 127.0.0.1:${port.port} (admin API, --admin-listen-addr): EADDRINUSE, address already in use; retrying`;
    await waitFor(() => stderrOf(run).plain.includes(waiting), 30_000, 'the waiting line');
    await waitFor(() => run.stdout().includes('\n'), 10_000, 'the banner');
    const [banner = ''] = run.stdout().split('\n');
    assert.match(
      banner,
      /^streamroute node: HTTP 127\.0\.0\.1:\d+ · domain default: graph version 1 · data /,
    );
    assert.doesNotMatch(banner, /admin/, 'the admin API is not announced while it does not serve');

    await port.release();
    held.splice(held.indexOf(port), 1);
    const serving = `streamroute node: now serving admin http://127.0.0.1:${port.port}`;
    await waitFor(() => run.stdout().includes(serving), 20_000, 'the admin API serving');
    const domains = await fetchAdmin(port.port, '/v1/domains');
    assert.equal(domains.status, 200);
    assert.match(domains.body, /"name":"default"/);

    run.child.kill('SIGTERM');
    assert.equal(await run.exited, 0);
    assert.deepEqual(stderrOf(run).plain, [waiting]);
  });
});

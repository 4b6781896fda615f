// Issue 15, item 2: idle connections by the thousand to the ingestion listeners of a node whose descriptor
// limit is low (`ulimit -n 600`, in a child process) must not exhaust the process. The defaults follow from
// that limit (dataplane/net/fd-limit.ts: 216 ingestion connections, 22 per peer and listener). While 4
// flooding peers try to hold 150 connections each to the HTTP listener and to a syslog TCP listener, the
// admin API answers /healthz, a statement is written to the data dir, another peer's POST and syslog frame
// are taken, and /metrics counts the refusals; then 30 more flooders fill the whole ingestion pool, and the
// admin API and the data dir still work. Before the connection limits, the flood took every descriptor:
// the admin API could not accept, the data dir could not be written, other senders were refused.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EXAMPLES } from '../fixtures/graph-from-statements.js';
import { freeTcpPort } from '../support/syslog-wire-peer.js';

const FD_LIMIT = 600;
/** What dataplane/net/fd-limit.ts derives from FD_LIMIT. */
const INGEST = 216;
const PER_PEER = 22;
/** Few enough that their shares (4 × 2 listeners × 22) leave room in the pool (216) for other peers. */
const FLOODERS = 4;
const PER_FLOODER = 150;
const REPO = join(import.meta.dirname, '..', '..');

const SYSLOG_PART = (port: number) => `
CREATE SCHEMA syslog_line (facility U8, severity U8, timestamp DATETIME OPTIONAL, hostname STRING OPTIONAL,
  app_name STRING OPTIONAL, proc_id STRING OPTIONAL, msg_id STRING OPTIONAL, structured_data STRING OPTIONAL,
  message STRING);
CREATE CODEC syslog FROM SYSLOG TO SCHEMA syslog_line;
CREATE RELAY lines SCHEMA syslog_line UNBRANCHED;
CREATE CLIENT local_tcp TYPE SYSLOG CONFIG { 'protocol' = 'tcp', 'addr' = '127.0.0.1:${port}' };
CREATE SYSLOG LISTENER INGESTOR tcp_in FROM local_tcp MODE NO ACK ON QUIESCE SUSPEND DECODE USING syslog
  TO lines INHERIT ALL UNBRANCHED FLUSH IMMEDIATE ON MESSAGE ERROR LOG ON GENERAL ERROR LOG;
`;

interface Ports {
  http: number;
  admin: number;
}

function httpCall(
  port: number,
  method: string,
  path: string,
  body?: string,
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        method,
        path,
        agent: false,
        timeout: 5_000,
        headers: {
          host: 'localhost',
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString() }));
      },
    );
    req.on('timeout', () => req.destroy(new Error(`${method} ${path}: no answer within 5 s`)));
    req.on('error', reject);
    req.end(body);
  });
}

/** The sum of the samples of `name` whose label text contains every one of `labels`. */
function sample(metrics: string, name: string, ...labels: string[]): number {
  return metrics
    .split('\n')
    .filter((line) => line.startsWith(`${name}{`) && labels.every((label) => line.includes(label)))
    .reduce((sum, line) => sum + Number(line.slice(line.lastIndexOf(' ') + 1)), 0);
}

function open(port: number, localAddress: string): Promise<Socket | undefined> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port, localAddress });
    socket.once('connect', () => resolve(socket));
    socket.once('error', () => resolve(undefined));
    socket.on('error', () => {});
  });
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('node e2e: connection floods under a low descriptor limit (issue 15, item 2)', function () {
  this.timeout(60_000);
  let child: ChildProcess | undefined;
  let ports: Ports;
  let syslogPort: number;
  let dir: string;
  const flood: Socket[] = [];

  before(async function () {
    if (process.platform !== 'linux') this.skip();
    dir = mkdtempSync(join(tmpdir(), 'streamroute-flood-'));
    const manifests = join(dir, 'manifests');
    syslogPort = await freeTcpPort();
    const graph = readFileSync(join(EXAMPLES, 'quickstart', 'graph.sql'), 'utf8') + SYSLOG_PART(syslogPort);
    mkdirSync(manifests);
    writeFileSync(join(manifests, 'graph.sql'), graph);
    // `ulimit -n` sets the hard limit too, so Node cannot raise its soft limit back at start-up.
    child = spawn(
      'bash',
      [
        '-c',
        `ulimit -n ${FD_LIMIT} && exec "$0" --import tsx "$1" "$2" "$3"`,
        process.execPath,
        join(REPO, 'test', 'support', 'flood-node.ts'),
        manifests,
        join(dir, 'data'),
      ],
      { cwd: REPO, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4_000)));
    ports = await new Promise<Ports>((resolve, reject) => {
      let out = '';
      child!.stdout?.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        if (out.includes('\n')) resolve(JSON.parse(out.split('\n')[0]!) as Ports);
      });
      child!.once('exit', (code) => reject(new Error(`the node exited (${code}): ${stderr}`)));
    });
    await floodFrom(2, FLOODERS, PER_FLOODER);
  });

  /** `count` connections to each listener from each of `peers` addresses from 127.0.0.`first` on. */
  async function floodFrom(first: number, peers: number, count: number): Promise<void> {
    for (let peer = first; peer < first + peers; peer++) {
      const from = `127.0.0.${peer}`;
      const opened = await Promise.all(
        Array.from({ length: count }, () => [open(ports.http, from), open(syslogPort, from)]).flat(),
      );
      for (const socket of opened) if (socket !== undefined) flood.push(socket);
    }
    // Let the node accept (or refuse) the whole backlog.
    await pause(1_000);
  }

  async function metrics(): Promise<string> {
    return (await httpCall(ports.admin, 'GET', '/metrics')).text;
  }

  after(async () => {
    for (const socket of flood.splice(0)) socket.destroy();
    if (child !== undefined && child.exitCode === null) {
      const exited = new Promise((resolve) => child!.once('exit', resolve));
      child.kill('SIGTERM');
      await Promise.race([exited, pause(5_000)]);
      if (child.exitCode === null) child.kill('SIGKILL');
    }
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  });

  it('the admin API still answers /healthz', async () => {
    const health = await httpCall(ports.admin, 'GET', '/healthz');
    assert.equal(health.status, 200);
  });

  it('a statement is still written to the data dir', async () => {
    const script = JSON.stringify({ script: 'CREATE RELAY flood_check SCHEMA orders UNBRANCHED;' });
    const run = await httpCall(ports.admin, 'POST', '/v1/domains/default/statements', script);
    assert.equal(run.status, 200, run.text);
  });

  it("another peer's HTTP body is still taken", async () => {
    const post = await httpCall(ports.http, 'POST', '/orders', '{"order_id":"A-1","amount":250}');
    assert.equal(post.status, 202);
  });

  it("another peer's syslog frame is still taken", async () => {
    const socket = await open(syslogPort, '127.0.0.1');
    assert.ok(socket !== undefined, 'the syslog listener refused a new peer');
    socket.write('<13>1 - - - - - - from another peer\n');
    let frames = 0;
    for (let tries = 0; tries < 50 && frames === 0; tries++) {
      await pause(100);
      frames = sample(
        await metrics(),
        'streamroute_payloads_total',
        'kind="syslog-ingestor"',
        'name="tcp_in"',
      );
    }
    socket.destroy();
    assert.equal(frames, 1);
  });

  it('the refusals are counted in /metrics by listener and reason', async () => {
    const text = await metrics();
    const name = 'streamroute_connections_refused_total';
    const refused = (...labels: string[]) => sample(text, name, ...labels, 'reason="peer_limit"');
    // Each flooder keeps its share and is refused the rest.
    assert.equal(refused('listener="http"'), FLOODERS * (PER_FLOODER - PER_PEER));
    assert.equal(
      refused('listener="syslog"', 'domain="default"', 'kind="syslog-ingestor"', 'name="tcp_in"'),
      FLOODERS * (PER_FLOODER - PER_PEER),
    );
    assert.doesNotMatch(text, /127\.0\.0\.\d+/, 'no peer address in a label');
  });

  it('30 more flooders fill the ingestion pool: the admin API and the data dir still work', async () => {
    await floodFrom(2 + FLOODERS, 30, 20);
    const text = await metrics();
    assert.ok(sample(text, 'streamroute_connections_refused_total', 'reason="node_limit"') > 0);
    const ingest =
      sample(text, 'streamroute_connections_open', 'listener="http"') +
      sample(text, 'streamroute_connections_open', 'listener="syslog"', 'name="tcp_in"');
    assert.equal(ingest, INGEST);
    assert.equal((await httpCall(ports.admin, 'GET', '/healthz')).status, 200);
    const script = JSON.stringify({ script: 'CREATE RELAY flood_check_2 SCHEMA orders UNBRANCHED;' });
    const run = await httpCall(ports.admin, 'POST', '/v1/domains/default/statements', script);
    assert.equal(run.status, 200, run.text);
  });
});

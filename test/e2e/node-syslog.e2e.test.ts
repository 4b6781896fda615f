// examples/syslog through a real node (on free ports): lines sent over UDP and TCP, in both TCP framings,
// come out of `lines` with the sender's address and out of `forwarded` after a round trip through the
// emitter and a second listener; DESCRIBE shows both ends; a broken frame closes only its connection;
// an edit of the manifest that removes the emitter's target leaves the emitter Retrying with its backoff,
// keeping the record until a receiver is back.
import assert from 'node:assert/strict';
import { createSocket } from 'node:dgram';
import { readFileSync } from 'node:fs';
import { createServer, Socket } from 'node:net';
import { join } from 'node:path';
import { EXAMPLES } from '../fixtures/graph-from-statements.js';
import { linesOf, startNodeHarnessWithGraph, until, type NodeHarness } from '../fixtures/node-harness.js';
import { freeTcpPort } from '../support/syslog-wire-peer.js';

function connect(port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = new Socket();
    socket.once('error', reject);
    socket.connect(port, '127.0.0.1', () => resolve(socket));
  });
}

async function sendUdp(port: number, text: string): Promise<void> {
  const socket = createSocket('udp4');
  await new Promise<void>((resolve, reject) =>
    socket.send(text, port, '127.0.0.1', (error) => (error ? reject(error) : resolve())),
  );
  socket.close();
}

const record = (message: string, extra: Record<string, unknown> = {}) => ({
  facility: 1,
  severity: 5,
  timestamp: null,
  hostname: null,
  app_name: null,
  proc_id: null,
  msg_id: null,
  structured_data: null,
  message,
  ...extra,
});

describe('node e2e: syslog listeners and an emitter (examples/syslog)', function () {
  this.timeout(30_000);
  let node: NodeHarness;
  let inPort: number;
  let forwardPort: number;
  const sockets: Socket[] = [];

  beforeEach(async () => {
    inPort = await freeTcpPort();
    forwardPort = await freeTcpPort();
    const text = readFileSync(join(EXAMPLES, 'syslog', 'graph.sql'), 'utf8')
      .replaceAll('127.0.0.1:5514', `127.0.0.1:${inPort}`)
      .replaceAll('127.0.0.1:5515', `127.0.0.1:${forwardPort}`);
    node = await startNodeHarnessWithGraph(text);
  });

  afterEach(async () => {
    for (const socket of sockets.splice(0)) socket.destroy();
    await node.close();
  });

  /** DESCRIBE through the CLI, as a user would. */
  async function describe(kind: 'INGESTOR' | 'EMITTER', name: string): Promise<string> {
    const run = await node.sql(`DESCRIBE ${kind} ${name}`);
    assert.equal(run.code, 0, run.stderr);
    return run.stdout;
  }

  /** Moves the node's clock until the emitter has connected (its first attempt may beat the listener). */
  async function emitterRunning(): Promise<void> {
    await until(async () => {
      node.clock.advance(200);
      return /state: Running/.test(await describe('EMITTER', 'forward_out'));
    }, 'the emitter running');
  }

  it('UDP and TCP lines, both framings, reach `lines` with peer_addr and `forwarded` through the emitter', async () => {
    const lines = await node.subscribe('lines');
    const forwarded = await node.subscribe('forwarded');
    await emitterRunning();
    await sendUdp(inPort, '<14>Nov 24 10:00:00 web1 nginx[42]: GET / 200');
    await linesOf(lines, 1);
    const tcp = await connect(inPort);
    sockets.push(tcp);
    // Octet-counted with the count split from its body, then an LF frame split between CR and LF.
    tcp.write('2');
    tcp.write('9 <165>1 - host app - ID7 - hi\n');
    tcp.write('<13>1 2026-11-24T10:00:00.5Z h a p m [x@1 k="v"] body\r');
    tcp.write('\n');
    const received = (await linesOf(lines, 3)).map((each) => JSON.parse(each) as Record<string, unknown>);
    const year = new Date().getUTCFullYear();
    const localPort = `127.0.0.1:${tcp.localPort}`;
    assert.deepEqual(received, [
      {
        ...record('GET / 200', { severity: 6, hostname: 'web1', app_name: 'nginx', proc_id: '42' }),
        timestamp: `${year}-11-24T10:00:00Z`,
        peer_addr: received[0]!['peer_addr'],
      },
      {
        ...record('hi', { facility: 20, hostname: 'host', app_name: 'app', msg_id: 'ID7' }),
        peer_addr: localPort,
      },
      {
        ...record('body', {
          timestamp: '2026-11-24T10:00:00.5Z',
          hostname: 'h',
          app_name: 'a',
          proc_id: 'p',
          msg_id: 'm',
          structured_data: '[x@1 k="v"]',
        }),
        peer_addr: localPort,
      },
    ]);
    assert.match(String(received[0]!['peer_addr']), /^127\.0\.0\.1:\d+$/);
    // The round trip keeps every field; peer_addr is now the emitter's connection.
    const back = (await linesOf(forwarded, 3)).map((each) => JSON.parse(each) as Record<string, unknown>);
    assert.deepEqual(
      back.map(({ peer_addr: _peer, ...fields }) => fields),
      received.map(({ peer_addr: _peer, ...fields }) => fields),
    );
    const ingestor = await describe('INGESTOR', 'tcp_in');
    assert.match(ingestor, /state: Running/);
    assert.match(ingestor, /frames: 2\b/);
    const emitter = await describe('EMITTER', 'forward_out');
    assert.match(emitter, /records_sent: 3\b/);
  });

  it('a malformed count closes only that connection; the other keeps delivering and the node goes on', async () => {
    const lines = await node.subscribe('lines');
    const good = await connect(inPort);
    const bad = await connect(inPort);
    sockets.push(good, bad);
    const closed = new Promise<void>((resolve) => bad.once('close', () => resolve()));
    bad.write('012 <13>1 - - - - - - PAYLOAD-MARK\n');
    await closed;
    good.write('<13>1 - - - - - - still here\n');
    const received = await linesOf(lines, 1);
    assert.equal((JSON.parse(received[0]!) as { message: string }).message, 'still here');
    const ingestor = await describe('INGESTOR', 'tcp_in');
    assert.match(ingestor, /connections_closed\.framing:count_leading_zero: 1\b/);
    assert.doesNotMatch(JSON.stringify(node.logs), /PAYLOAD-MARK/);
  });

  it('the emitter whose target goes away is Retrying with ECONNREFUSED and its backoff; the record waits for the next receiver', async () => {
    await emitterRunning();
    // Remove the receiving listener: the emitter's connection is closed by the node.
    const cut = node.readManifest().replace(/CREATE SYSLOG LISTENER INGESTOR forward_in[\s\S]*$/, '');
    const version = await node.graphVersion();
    node.writeManifest(cut);
    await until(async () => (await node.graphVersion()) > version, 'the edited graph applied');
    await sendUdp(inPort, '<13>1 - - - - - - while down');
    await until(async () => {
      node.clock.advance(50);
      return /state: Retrying/.test(await describe('EMITTER', 'forward_out'));
    }, 'the emitter retrying');
    const down = await describe('EMITTER', 'forward_out');
    assert.match(down, /ECONNREFUSED/);
    assert.match(down, /backoff/i);
    // A receiver comes back on the port: the emitter reconnects and the record it kept arrives.
    const frames: Buffer[] = [];
    const receiver = createServer((socket) => socket.on('data', (chunk: Buffer) => frames.push(chunk)));
    await new Promise<void>((resolve) => receiver.listen(forwardPort, '127.0.0.1', () => resolve()));
    try {
      await until(() => {
        node.clock.advance(10_000);
        return Buffer.concat(frames).includes('while down');
      }, 'the kept record delivered');
      assert.match(Buffer.concat(frames).toString(), /^\d+ <13>1 - - - - - - while down$/);
      assert.match(await describe('EMITTER', 'forward_out'), /state: Running/);
    } finally {
      receiver.close();
    }
  });
});

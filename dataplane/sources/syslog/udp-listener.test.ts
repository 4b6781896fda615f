import assert from 'node:assert/strict';
import { createSocket, type Socket as DgramSocket } from 'node:dgram';
import { ManualClock } from '../../core/clock.js';
import {
  logText,
  send,
  startListener,
  udpClient,
  waitFor,
  type Harness,
} from './syslog-listener.fixtures.js';
import { dgramCanPause } from './udp-listener.js';

async function ipv6Available(): Promise<boolean> {
  const probe = createSocket('udp6');
  try {
    await new Promise<void>((resolve, reject) => {
      probe.once('error', reject);
      probe.bind(0, '::1', resolve);
    });
    return true;
  } catch {
    return false;
  } finally {
    probe.close();
  }
}

describe('syslog UDP listener', () => {
  let harness: Harness | undefined;
  const sockets: DgramSocket[] = [];
  afterEach(async () => {
    for (const socket of sockets.splice(0)) socket.close();
    await harness?.listener.stop();
    harness = undefined;
  });
  async function client(host?: string): Promise<DgramSocket> {
    const socket = await udpClient(host);
    sockets.push(socket);
    return socket;
  }

  it('can stop reading on this Node (dgram handle recvStop/recvStart)', () => {
    assert.equal(dgramCanPause(), true);
  });

  it('delivers one datagram as one frame, with peer_addr', async () => {
    harness = await startListener({ protocol: 'udp' });
    const socket = await client();
    await send(socket, harness.port, '<13>1 - host app - - - one\n');
    await send(socket, harness.port, '<13>two\n<13>still two');
    await waitFor(() => harness!.received.length === 2);
    assert.deepEqual(
      harness.received.map((r) => r.text),
      ['<13>1 - host app - - - one\n', '<13>two\n<13>still two'],
    );
    const peer = `127.0.0.1:${socket.address().port}`;
    assert.ok(harness.received.every((r) => r.peer === peer));
    assert.equal(harness.listener.stats.frames, 2);
  });

  it('drops a datagram larger than max_message_size: counted, logged at debug with size, never content', async () => {
    harness = await startListener({ protocol: 'udp', maxMessageSize: 64 });
    const socket = await client();
    await send(socket, harness.port, `<13>${'secret'.repeat(20)}`);
    await send(socket, harness.port, `<13>${'x'.repeat(60)}`);
    await waitFor(() => harness!.received.length === 1);
    assert.equal(harness.received[0]!.text.length, 64);
    assert.equal(harness.listener.stats.oversizedDatagrams, 1);
    assert.equal(await harness.dropped('oversized_datagram'), 1);
    const line = harness.logs.find(
      (l) => l['msg'] === 'syslog datagram larger than max_message_size dropped',
    );
    assert.equal(line?.['level'], 20);
    assert.equal(line?.['bytes'], 124);
    assert.equal(line?.['peer'], `127.0.0.1:${socket.address().port}`);
    assert.doesNotMatch(logText(harness.logs), /secret/);
  });

  it('listens on IPv6 (::1) with a bracketed peer_addr', async function () {
    if (!(await ipv6Available())) this.skip();
    harness = await startListener({ protocol: 'udp', address: { host: '::1', port: 0 } });
    const socket = await client('::1');
    await send(socket, harness.port, '<13>over v6', '::1');
    await waitFor(() => harness!.received.length === 1);
    assert.equal(harness.received[0]!.peer, `[::1]:${socket.address().port}`);
    assert.equal(harness.listener.status.address, '[::1]:0');
  });

  it('port in use → Retrying with EADDRINUSE; freed → Running with the error cleared', async () => {
    const blocker = await udpClient();
    const port = blocker.address().port;
    const clock = new ManualClock();
    harness = await startListener({
      protocol: 'udp',
      address: { host: '127.0.0.1', port },
      clock,
      retry: { initialMs: 50, maxMs: 50 },
    });
    const first = harness.listener.status;
    assert.equal(first.state, 'Retrying');
    assert.equal(first.error?.code, 'EADDRINUSE');
    assert.equal(first.backoffMs, 50);
    await new Promise<void>((resolve) => blocker.close(resolve));
    clock.advance(50);
    await waitFor(() => harness!.listener.status.state === 'Running');
    assert.equal(harness.listener.status.error, undefined);
    assert.equal(harness.listener.status.port, port);
    const socket = await client();
    await send(socket, port, '<13>after recovery');
    await waitFor(() => harness!.received.length === 1);
  });
});

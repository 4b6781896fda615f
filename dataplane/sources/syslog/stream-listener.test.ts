import assert from 'node:assert/strict';
import { createServer, type Server, type Socket } from 'node:net';
import { ManualClock } from '../../core/clock.js';
import type { ListenerStatus } from '../../net/retrying-listener.js';
import {
  closed,
  logText,
  octet,
  startListener,
  tcpClient,
  waitFor,
  type Harness,
} from './syslog-listener.fixtures.js';

describe('syslog TCP listener', () => {
  let harness: Harness | undefined;
  const clients: Socket[] = [];
  afterEach(async () => {
    for (const client of clients.splice(0)) client.destroy();
    await harness?.listener.stop();
    harness = undefined;
  });
  async function client(port: number): Promise<Socket> {
    const socket = await tcpClient(port);
    clients.push(socket);
    return socket;
  }

  it('delivers octet-counted and LF frames interleaved on one connection, with peer_addr', async () => {
    harness = await startListener();
    const socket = await client(harness.port);
    socket.write(`${octet('<13>one\n')}<13>two\n${octet('<13>three')}<13>four\r\n\n`);
    await waitFor(() => harness!.received.length === 4);
    assert.deepEqual(
      harness.received.map((r) => r.text),
      ['<13>one\n', '<13>two', '<13>three', '<13>four'],
    );
    const peer = `127.0.0.1:${socket.localPort}`;
    assert.ok(harness.received.every((r) => r.peer === peer));
    const stats = harness.listener.stats;
    assert.equal(stats.frames, 4);
    assert.equal(stats.emptyFrames, 1);
    assert.equal(stats.connectionsAccepted, 1);
    assert.equal(stats.connectionsOpen, 1);
  });

  it('completes frames split across writes: inside the count and between CR and LF', async () => {
    harness = await startListener();
    const socket = await client(harness.port);
    const pieces = ['1', '3 <13>twelve', 'b', 'yt', '<13>crlf\r', '\n<13>x\n'];
    for (const piece of pieces) {
      socket.write(piece);
      await new Promise((resolve) => setImmediate(resolve));
    }
    await waitFor(() => harness!.received.length === 3);
    assert.deepEqual(
      harness.received.map((r) => r.text),
      ['<13>twelvebyt', '<13>crlf', '<13>x'],
    );
  });

  it('serves many concurrent connections, each in order', async () => {
    harness = await startListener();
    const sockets = await Promise.all(Array.from({ length: 50 }, () => client(harness!.port)));
    sockets.forEach((socket, n) => {
      for (let i = 0; i < 20; i++) socket.write(octet(`<13>c${n} m${i}`));
    });
    await waitFor(() => harness!.received.length === 1000);
    const received = harness.received;
    for (const [n, socket] of sockets.entries()) {
      const peer = `127.0.0.1:${socket.localPort}`;
      const texts: string[] = received.filter((r) => r.peer === peer).map((r) => r.text);
      assert.deepEqual(
        texts,
        Array.from({ length: 20 }, (_, i) => `<13>c${n} m${i}`),
      );
    }
  });

  it('a malformed count closes only that connection; another keeps delivering; no payload is logged', async () => {
    harness = await startListener();
    const good = await client(harness.port);
    const bad = await client(harness.port);
    bad.write('2024-01-01 12:00:00 secret-payload text\n');
    await closed(bad);
    good.write('<13>still here\n');
    await waitFor(() => harness!.received.length === 1);
    assert.equal(harness.received[0]!.text, '<13>still here');
    assert.equal(harness.listener.stats.connectionsClosed['framing:count_not_followed_by_space'], 1);
    const line = harness.logs.find((l) => l['cause'] === 'count_not_followed_by_space');
    assert.ok(line !== undefined && line['level'] === 20, 'a debug line names the cause');
    assert.doesNotMatch(logText(harness.logs), /secret-payload/);
  });

  it('a count above max_message_size closes the connection before the body arrives', async () => {
    harness = await startListener({ maxMessageSize: 100 });
    const socket = await client(harness.port);
    socket.write('101 ');
    await closed(socket);
    assert.equal(harness.listener.stats.connectionsClosed['framing:frame_too_large'], 1);
    assert.equal(harness.received.length, 0);
  });

  it('an LF frame longer than max_message_size closes the connection', async () => {
    harness = await startListener({ maxMessageSize: 100 });
    const socket = await client(harness.port);
    socket.write(`<13>${'x'.repeat(200)}`);
    await closed(socket);
    assert.equal(harness.listener.stats.connectionsClosed['framing:frame_too_large'], 1);
  });

  it('a connection closed mid-frame counts a truncated frame', async () => {
    harness = await startListener();
    const socket = await client(harness.port);
    socket.end(`${octet('<13>whole')}20 <13>par`);
    await waitFor(() => harness!.listener.stats.connectionsOpen === 0);
    const stats = harness.listener.stats;
    assert.equal(stats.truncatedFrames, 1);
    assert.equal(stats.connectionsClosed['peer'], 1);
    assert.deepEqual(
      harness.received.map((r) => r.text),
      ['<13>whole'],
    );
  });

  it('2,000 idle connections: a normal connection still delivers, and stop() closes them all quickly', async function () {
    this.timeout(15_000);
    // One peer: its share is raised above the 2,001 connections (fairness is tested in connection-flood.test.ts).
    harness = await startListener({ limits: { maxConnections: 5_000, maxConnectionsPerPeer: 5_000 } });
    const port = harness.port;
    const idle: Socket[] = [];
    for (let batch = 0; batch < 4; batch++)
      idle.push(...(await Promise.all(Array.from({ length: 500 }, () => client(port)))));
    await waitFor(() => harness!.listener.stats.connectionsOpen === 2000, 5000);
    const active = await client(port);
    active.write('<13>through\n');
    await waitFor(() => harness!.received.length === 1);
    const started = Date.now();
    const allClosed = Promise.all([...idle, active].map(closed));
    await harness.listener.stop();
    await allClosed;
    assert.ok(Date.now() - started < 2000, `stop took ${Date.now() - started} ms`);
    assert.equal(harness.listener.stats.connectionsOpen, 0);
    assert.equal(harness.listener.stats.connectionsClosed['stopped'], 2001);
    assert.equal(harness.listener.status.state, 'Stopped');
    harness = undefined;
  });

  it('a client faster than an async deliver: no frame lost, reading paused and resumed', async () => {
    const received: string[] = [];
    const pending: (() => void)[] = [];
    let maxPending = 0;
    harness = await startListener({
      maxInFlight: 8,
      deliver: (payload) =>
        new Promise<void>((resolve) => {
          received.push(Buffer.from(payload).toString());
          pending.push(resolve);
          maxPending = Math.max(maxPending, pending.length);
        }),
    });
    const socket = await client(harness.port);
    const total = 20_000;
    const pad = 'p'.repeat(100);
    const frames = Array.from({ length: total }, (_, i) => octet(`<13>m${i} ${pad}`));
    socket.write(frames.join(''));
    // Settle deliveries slowly, a few per turn, as a slow async codec would.
    const settler = setInterval(() => {
      for (const resolve of pending.splice(0, 200)) resolve();
    }, 1);
    try {
      await waitFor(() => received.length === total, 10_000, 'every frame');
    } finally {
      clearInterval(settler);
    }
    assert.deepEqual(
      received.map((text) => text.split(' ')[0]),
      frames.map((_, i) => `<13>m${i}`),
    );
    // Reading paused: the bound plus what one read chunk (64 KiB, ~600 frames) held, never the stream.
    assert.ok(maxPending < 2000, `max in flight ${maxPending}`);
  });

  describe('bind failure', () => {
    let blocker: Server | undefined;
    afterEach(() => blocker?.close());

    it('port in use → Retrying with EADDRINUSE and backoff; freed → Running with the error cleared', async () => {
      blocker = createServer();
      await new Promise<void>((resolve) => blocker!.listen(0, '127.0.0.1', resolve));
      const address = blocker.address();
      assert.ok(address !== null && typeof address === 'object');
      const clock = new ManualClock();
      const statuses: ListenerStatus[] = [];
      harness = await startListener({
        address: { host: '127.0.0.1', port: address.port },
        clock,
        retry: { initialMs: 100, maxMs: 400 },
        statusChanged: (status) => statuses.push(status),
      });
      const first = harness.listener.status;
      assert.equal(first.state, 'Retrying');
      assert.equal(first.error?.code, 'EADDRINUSE');
      assert.equal(first.backoffMs, 100);
      clock.advance(100);
      await waitFor(() => harness!.listener.status.failures === 2);
      assert.equal(harness.listener.status.backoffMs, 200);
      await new Promise<void>((resolve) => blocker!.close(() => resolve()));
      blocker = undefined;
      clock.advance(200);
      await waitFor(() => harness!.listener.status.state === 'Running');
      const status = harness.listener.status;
      assert.equal(status.error, undefined);
      assert.equal(status.port, address.port);
      assert.equal(status.failures, 0);
      assert.ok(harness.logs.some((l) => l['msg'] === 'syslog listener recovered: listening'));
      const socket = await client(address.port);
      socket.write('<13>after recovery\n');
      await waitFor(() => harness!.received.length === 1);
      assert.ok(statuses.some((s) => s.state === 'Retrying' && s.error?.code === 'EADDRINUSE'));
    });
  });
});

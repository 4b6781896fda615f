import assert from 'node:assert/strict';
import type { Socket as DgramSocket } from 'node:dgram';
import type { Socket } from 'node:net';
import {
  ioTurn,
  octet,
  recordingDeliver,
  send,
  startListener,
  tcpClient,
  udpClient,
  waitFor,
  type Harness,
  type Received,
} from './syslog-listener.fixtures.js';

function written(socket: Socket, text: string): Promise<void> {
  return new Promise((resolve, reject) => socket.write(text, (error) => (error ? reject(error) : resolve())));
}

const frames = (from: number, count: number): string[] =>
  Array.from({ length: count }, (_, i) => `<13>m${from + i}`);

describe('syslog listener ON QUIESCE', () => {
  let harness: Harness | undefined;
  const tcp: Socket[] = [];
  const udp: DgramSocket[] = [];
  afterEach(async () => {
    for (const socket of tcp.splice(0)) socket.destroy();
    for (const socket of udp.splice(0)) socket.close();
    await harness?.listener.stop();
    harness = undefined;
  });
  async function tcpTo(port: number): Promise<Socket> {
    const socket = await tcpClient(port);
    tcp.push(socket);
    return socket;
  }
  async function udpFrom(): Promise<DgramSocket> {
    const socket = await udpClient();
    udp.push(socket);
    return socket;
  }
  const texts = (): string[] => harness!.received.map((r) => r.text);

  describe('SUSPEND', () => {
    it('TCP: nothing is delivered while suspended; everything after resume, in order', async () => {
      harness = await startListener({ quiesce: { action: 'SUSPEND' } });
      const socket = await tcpTo(harness.port);
      await written(socket, frames(0, 3).map(octet).join(''));
      await waitFor(() => harness!.received.length === 3);
      harness.listener.quiesce();
      assert.equal(harness.listener.suspended, true);
      await written(socket, frames(3, 500).map(octet).join(''));
      const late = await tcpTo(harness.port);
      await written(late, '<13>late connection\n');
      await ioTurn();
      assert.equal(harness.received.length, 3, 'nothing delivered while suspended');
      assert.equal(harness.listener.buffered.items, 0, 'left in the kernel, not read');
      await harness.listener.resume();
      assert.equal(harness.listener.suspended, false);
      await waitFor(() => harness!.received.length === 504);
      assert.deepEqual(
        texts().filter((t) => t !== '<13>late connection'),
        frames(0, 503),
      );
    });

    it('UDP: datagrams sent while suspended wait in the kernel buffer and arrive after resume', async () => {
      harness = await startListener({ protocol: 'udp', quiesce: { action: 'SUSPEND' } });
      const socket = await udpFrom();
      harness.listener.quiesce();
      for (const text of frames(0, 50)) await send(socket, harness.port, text);
      await ioTurn();
      assert.equal(harness.received.length, 0, 'nothing delivered while suspended');
      assert.equal(harness.listener.buffered.items, 0, 'left in the kernel, not read');
      await harness.listener.resume();
      await waitFor(() => harness!.received.length === 50);
      assert.deepEqual(texts(), frames(0, 50));
    });

    it('UDP: quiesced before start, the socket binds without reading', async () => {
      harness = await startListener({ protocol: 'udp', quiesceBeforeStart: true });
      assert.equal(harness.listener.suspended, true);
      const socket = await udpFrom();
      for (const text of frames(0, 5)) await send(socket, harness.port, text);
      await ioTurn();
      assert.equal(harness.received.length, 0);
      assert.equal(harness.listener.buffered.items, 0, 'left in the kernel, not read');
      await harness.listener.resume();
      await waitFor(() => harness!.received.length === 5);
      assert.deepEqual(texts(), frames(0, 5));
    });

    it('frames of a chunk read when SUSPEND comes are held and delivered first on resume', async () => {
      const received: string[] = [];
      harness = await startListener({
        deliver: (payload) => {
          received.push(Buffer.from(payload).toString());
          if (received.length === 2) harness?.listener.quiesce();
        },
      });
      const socket = await tcpTo(harness.port);
      await written(socket, frames(0, 10).map(octet).join(''));
      await waitFor(() => harness!.listener.buffered.items === 8);
      assert.deepEqual(received, frames(0, 2));
      await written(socket, frames(10, 5).map(octet).join(''));
      await ioTurn();
      assert.equal(received.length, 2);
      assert.equal(harness.listener.buffered.items, 8, 'the second write was not read');
      await harness.listener.resume();
      await waitFor(() => received.length === 15);
      assert.deepEqual(received, frames(0, 15));
    });
  });

  it('quiesced before start (SUSPEND, TCP): a new connection is not read until resume', async () => {
    harness = await startListener({ quiesceBeforeStart: true });
    const socket = await tcpTo(harness.port);
    await written(socket, '<13>early\n');
    await ioTurn();
    assert.equal(harness.received.length, 0);
    assert.equal(harness.listener.buffered.items, 0, 'left in the kernel, not read');
    await harness.listener.resume();
    await waitFor(() => harness!.received.length === 1);
  });

  describe('BUFFER', () => {
    it('keeps frames while quiesced (reading continues) and delivers them in order on resume', async () => {
      harness = await startListener({
        quiesce: { action: 'BUFFER', maxBytes: 1 << 20, onOverflow: 'DROP_OLDEST' },
      });
      const socket = await tcpTo(harness.port);
      harness.listener.quiesce();
      assert.equal(harness.listener.suspended, false);
      await written(socket, frames(0, 100).map(octet).join(''));
      await waitFor(() => harness!.listener.buffered.items === 100);
      assert.equal(harness.received.length, 0);
      await harness.listener.resume();
      assert.deepEqual(texts(), frames(0, 100));
      assert.deepEqual(harness.listener.buffered, { items: 0, bytes: 0 });
    });

    it('DROP NEWEST: a full buffer refuses arriving frames, each counted', async () => {
      harness = await startListener({
        quiesce: { action: 'BUFFER', maxBytes: 30, onOverflow: 'DROP_NEWEST' },
      });
      const socket = await tcpTo(harness.port);
      harness.listener.quiesce();
      await written(socket, frames(0, 10).map(octet).join(''));
      await waitFor(() => harness!.listener.stats.frames === 10);
      assert.equal(harness.listener.buffered.items, 5);
      assert.equal(await harness.dropped('overflow_drop_newest'), 5);
      await harness.listener.resume();
      assert.deepEqual(texts(), frames(0, 5));
    });

    it('stop() counts buffered frames as dropped with reason stopped', async () => {
      harness = await startListener({
        quiesce: { action: 'BUFFER', maxBytes: 1 << 20, onOverflow: 'DROP_OLDEST' },
      });
      const socket = await tcpTo(harness.port);
      harness.listener.quiesce();
      await written(socket, frames(0, 7).map(octet).join(''));
      await waitFor(() => harness!.listener.buffered.items === 7);
      await harness.listener.stop();
      assert.equal(await harness.dropped('stopped'), 7);
      assert.equal(harness.received.length, 0);
      harness = undefined;
    });
  });

  it('DROP: frames arriving while quiesced are dropped and counted; after resume they flow again', async () => {
    harness = await startListener({ protocol: 'udp', quiesce: { action: 'DROP' } });
    const socket = await udpFrom();
    harness.listener.quiesce();
    for (const text of frames(0, 4)) await send(socket, harness.port, text);
    await waitFor(() => harness!.listener.stats.frames === 4);
    assert.equal(await harness.dropped('quiesce_drop'), 4);
    await harness.listener.resume();
    await send(socket, harness.port, '<13>after');
    await waitFor(() => harness!.received.length === 1);
    assert.deepEqual(texts(), ['<13>after']);
  });

  it('retarget: later frames, and the buffer on resume, go to the new entry', async () => {
    harness = await startListener({
      quiesce: { action: 'BUFFER', maxBytes: 1 << 20, onOverflow: 'DROP_OLDEST' },
    });
    const socket = await tcpTo(harness.port);
    await written(socket, '<13>old\n');
    await waitFor(() => harness!.received.length === 1);
    const fresh: Received[] = [];
    harness.listener.quiesce();
    await written(socket, '<13>buffered\n');
    await waitFor(() => harness!.listener.buffered.items === 1);
    harness.listener.retarget(recordingDeliver(fresh));
    await harness.listener.resume();
    await written(socket, '<13>new\n');
    await waitFor(() => fresh.length === 2);
    assert.deepEqual(texts(), ['<13>old']);
    assert.deepEqual(
      fresh.map((r) => r.text),
      ['<13>buffered', '<13>new'],
    );
  });

  it('a deliver that throws or rejects is counted as a general error and reading goes on', async () => {
    let calls = 0;
    harness = await startListener({
      deliver: () => {
        calls++;
        if (calls === 1) throw new Error('boom');
        if (calls === 2) return Promise.reject(new Error('async boom'));
      },
    });
    const socket = await tcpTo(harness.port);
    await written(socket, '<13>a\n<13>b\n<13>c\n');
    await waitFor(() => calls === 3);
    const { readCounter } = await import('../../core/telemetry.js');
    await waitFor(
      async () =>
        (await readCounter(harness!.registry, 'streamroute_general_errors_total', {
          reason: 'deliver_failed',
        })) === 2,
    );
  });
});

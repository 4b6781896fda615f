// Issue 15, item 2: a syslog TCP/TLS connection that sent part of a frame and stopped (or trickles it) is
// closed once the frame is `partialFrameTimeoutMs` old; one that sends nothing is closed after
// `idleTimeoutMs`; neither happens while the listener itself stopped reading. Time is a ManualClock, so
// the tests never wait for a timeout; the sockets are real.
import assert from 'node:assert/strict';
import type { Socket } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import fc from 'fast-check';
import { ManualClock } from '../../core/clock.js';
import { readCounter } from '../../core/telemetry.js';
import { testPki } from '../../../test/support/test-pki.js';
import {
  closed,
  ioTurn,
  octet,
  startListener,
  tcpClient,
  waitFor,
  type Harness,
} from './syslog-listener.fixtures.js';

const PARTIAL = 1_000;
const IDLE = 8_000;
/** The listener looks every quarter of the shorter timeout. */
const SWEEP = PARTIAL / 4;

describe('syslog TCP/TLS listener: partial-frame and idle timeouts', () => {
  let harness: Harness | undefined;
  let clock: ManualClock;
  const sockets: Socket[] = [];
  afterEach(async () => {
    for (const socket of sockets.splice(0)) socket.destroy();
    await harness?.listener.stop();
    harness = undefined;
  });

  async function start(extra: Parameters<typeof startListener>[0] = {}): Promise<Harness> {
    clock = new ManualClock();
    harness = await startListener({ clock, partialFrameTimeoutMs: PARTIAL, idleTimeoutMs: IDLE, ...extra });
    return harness;
  }

  async function client(): Promise<Socket> {
    const socket = await tcpClient(harness!.port);
    sockets.push(socket);
    return socket;
  }

  /** Moves the clock in steps no longer than a sweep, letting the sockets be read in between. */
  async function advance(ms: number): Promise<void> {
    for (let left = ms; left > 0; left -= SWEEP) {
      clock.advance(Math.min(SWEEP, left));
      await ioTurn(1);
    }
  }

  const timedOut = (reason: string): Promise<number> =>
    readCounter(harness!.registry, 'streamroute_connections_timed_out_total', {
      listener: 'syslog',
      domain: 'd',
      kind: 'syslog-ingestor',
      name: 'in',
      reason,
    });

  const frame = fc.oneof(
    fc
      .string({ unit: fc.constantFrom('a', 'b', ' ', '<', '>', '1'), minLength: 1, maxLength: 40 })
      .map((t) => octet(`<13>${t}`)),
    fc
      .string({ unit: fc.constantFrom('a', 'b', ' ', '<', '>', '1'), minLength: 1, maxLength: 40 })
      .map((t) => `<13>${t}\n`),
  );

  it('any whole frames then part of one more, in any chunks: closed once that part is PARTIAL old, not before (generated)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(frame, { maxLength: 4 }),
        frame,
        fc.integer({ min: 1, max: 1_000 }),
        fc.array(fc.integer({ min: 1, max: 1_000 }), { maxLength: 4 }),
        async (whole, last, cutAt, splits) => {
          await start();
          const socket = await client();
          const cut = 1 + (cutAt % (Buffer.byteLength(last) - 1));
          const bytes = Buffer.from(whole.join('') + last);
          const sent = bytes.subarray(0, bytes.length - Buffer.byteLength(last) + cut);
          const at = [...new Set(splits.map((s) => s % sent.length))].sort((a, b) => a - b);
          let from = 0;
          for (const to of [...at, sent.length]) {
            if (to <= from) continue;
            socket.write(sent.subarray(from, to));
            from = to;
            await ioTurn(1);
          }
          await waitFor(() => harness!.received.length === whole.length);
          await advance(PARTIAL - 1);
          assert.equal(socket.closed, false, 'closed before the partial-frame timeout');
          await advance(SWEEP + 1);
          await waitFor(() => socket.closed, 2_000, 'the connection closed');
          assert.equal(harness!.listener.stats.connectionsClosed['partial_frame_timeout'], 1);
          assert.equal(harness!.listener.stats.truncatedFrames, 1);
          assert.equal(await timedOut('partial_frame'), 1);
          await harness!.listener.stop();
          harness = undefined;
        },
      ),
      { numRuns: 25 },
    );
  });

  it('a frame trickled one byte per third of the timeout is closed PARTIAL after its first byte', async () => {
    await start();
    const socket = await client();
    const text = '<13>trickled slowly\n';
    let sent = 0;
    for (; sent < text.length && !socket.closed; sent++) {
      socket.write(text[sent]!);
      await ioTurn(1);
      await advance(PARTIAL / 3);
    }
    await waitFor(() => socket.closed, 2_000, 'the connection closed');
    assert.ok(sent <= 5, `${sent} bytes were sent before the close`);
    assert.equal(harness!.received.length, 0);
    assert.equal(await timedOut('partial_frame'), 1);
  });

  it('a connection that sends nothing is closed after IDLE; whole frames now and then keep one open', async () => {
    await start();
    const silent = await client();
    const chatty = await client();
    for (let n = 0; n < 4; n++) {
      chatty.write(`<13>still here ${n}\n`);
      await waitFor(() => harness!.received.length === n + 1);
      await advance(IDLE / 2);
    }
    await waitFor(() => silent.closed, 2_000, 'the silent connection closed');
    assert.equal(chatty.closed, false);
    assert.equal(harness!.listener.stats.connectionsClosed['idle_timeout'], 1);
    assert.equal(await timedOut('idle'), 1);
    assert.equal(await timedOut('partial_frame'), 0);
  });

  it('nothing times out while reading is stopped (SUSPEND); time starts again when it resumes', async () => {
    await start();
    const socket = await client();
    socket.write('<13>half a fr');
    await ioTurn(2);
    harness!.listener.quiesce();
    await advance(IDLE * 2);
    assert.equal(socket.closed, false);
    await harness!.listener.resume();
    await advance(PARTIAL - SWEEP);
    assert.equal(socket.closed, false);
    await advance(2 * SWEEP);
    await waitFor(() => socket.closed, 2_000, 'the connection closed');
    assert.equal(await timedOut('partial_frame'), 1);
  });

  it('TLS: a half-sent frame is closed the same way', async () => {
    const pki = testPki();
    await start({ protocol: 'tls', tls: { cert: pki.server.cert, key: pki.server.key } });
    const socket = tlsConnect({
      host: '127.0.0.1',
      port: harness!.port,
      servername: 'localhost',
      ca: pki.ca.cert,
    });
    socket.on('error', () => {});
    sockets.push(socket);
    await new Promise((resolve) => socket.once('secureConnect', resolve));
    socket.write('27 <13>only part of th');
    await ioTurn(3);
    await advance(PARTIAL + SWEEP);
    await waitFor(() => socket.closed, 2_000, 'the connection closed');
    await closed(socket);
    assert.equal(harness!.listener.stats.connectionsClosed['partial_frame_timeout'], 1);
  });
});

import assert from 'node:assert/strict';
import { syslogCodec } from '../../test/fixtures/syslog-codec.js';
import { ManualClock } from '../core/clock.js';
import type { Resolver } from './connect-budget.js';
import {
  StreamReceiver,
  closedPort,
  emitterFixture,
  octetFrames,
  stopEmitters,
  syslogRecord,
  syslogText,
  waitFor,
} from '../../test/support/emitter-kit.js';

const codec = syslogCodec();
const START = 1_000_000;
const tick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('syslog emitter: failures, retry and resolution (docs/syslog-wire.md "Emitters")', function () {
  const receivers: StreamReceiver[] = [];
  const receiver = async (port = 0): Promise<StreamReceiver> => {
    const made = await new StreamReceiver().listen(port);
    receivers.push(made);
    return made;
  };
  afterEach(async () => {
    await stopEmitters();
    await Promise.all(receivers.splice(0).map((made) => made.close()));
  });

  it('a refusing target: Retrying ECONNREFUSED, backoff doubling to MAX; once it listens, everything arrives in order', async () => {
    const clock = new ManualClock(START);
    const port = await closedPort();
    const { emitter, logs } = emitterFixture({
      client: { protocol: 'tcp', port },
      codec,
      clock,
      retry: { backoffMs: 100, maxMs: 400 },
    });
    emitter.start();
    await waitFor(() => emitter.status.state === 'Retrying', 'Retrying');
    const first = emitter.status;
    assert.equal(first.error?.code, 'ECONNREFUSED');
    assert.match(first.error?.message ?? '', new RegExp(`127\\.0\\.0\\.1:${port}`));
    assert.equal(first.backoffMs, 100);
    assert.equal(first.since, START);
    for (let i = 0; i < 50; i++) emitter.take(syslogRecord(`m-${i}`));
    const waits: (number | null)[] = [];
    for (const step of [100, 200, 400]) {
      const failures = emitter.status.stats.connectFailures;
      clock.advance(step);
      await waitFor(() => emitter.status.stats.connectFailures === failures + 1, 'the next failure');
      waits.push(emitter.status.backoffMs);
    }
    assert.deepEqual(waits, [200, 400, 400]);
    assert.equal(emitter.status.since, START, 'since stays at the first failure');
    assert.equal(emitter.status.queuedRecords, 50);
    const target = await receiver(port);
    clock.advance(400);
    await waitFor(() => octetFrames(target.all()).length === 50, 'the queued records');
    assert.deepEqual(
      octetFrames(target.all()),
      Array.from({ length: 50 }, (_, i) => syslogText(`m-${i}`)),
    );
    await waitFor(() => emitter.status.error === null, 'the error cleared');
    assert.equal(emitter.status.state, 'Running');
    assert.equal(emitter.status.since, null);
    assert.ok(logs.some((line) => line.includes('recovered after 4 failures')));
  });

  it('a target that resets mid-batch: the batch is kept and resent whole; every record arrives at least once', async () => {
    const clock = new ManualClock(START);
    const target = await receiver();
    // The first connection reads one chunk and then nothing, so the batch's write cannot complete.
    target.onConnection = (connection, index) => {
      if (index === 0) connection.socket.once('data', () => connection.socket.pause());
    };
    const { emitter } = emitterFixture({
      client: { protocol: 'tcp', port: target.port },
      codec,
      clock,
      batch: { maxSize: 1_000, maxTimeMs: 60_000 },
    });
    emitter.start();
    await waitFor(() => emitter.status.state === 'Running', 'Running');
    // 10 MB in one batch: more than the kernel's buffers of an unread connection take.
    const messages = Array.from({ length: 1_000 }, (_, i) => `${i}-${'x'.repeat(10_000)}`);
    for (const message of messages) emitter.take(syslogRecord(message));
    const first = (): Buffer => target.connections[0]?.bytes() ?? Buffer.alloc(0);
    await waitFor(() => emitter.status.stats.writes === 1 && first().length > 0, 'the write under way');
    assert.equal(emitter.status.stats.recordsSent, 0, 'the write is still in flight');
    target.connections[0]?.socket.resetAndDestroy();
    await waitFor(() => emitter.status.state === 'Retrying', 'Retrying after the reset');
    assert.ok(['ECONNRESET', 'EPIPE'].includes(emitter.status.error?.code ?? ''), emitter.status.error?.code);
    assert.equal(emitter.status.queuedRecords, 1_000, 'the batch is kept');
    clock.advance(100);
    await waitFor(() => emitter.status.stats.recordsSent === 1_000, 'the batch resent', 10_000);
    await waitFor(
      () => target.connections[1]?.bytes().length === emitter.status.stats.bytesSent,
      'all bytes',
    );
    assert.deepEqual(
      octetFrames(target.connections[1]?.bytes() ?? Buffer.alloc(0)),
      messages.map(syslogText),
    );
    assert.equal(emitter.status.stats.retriedBatches, 1);
    assert.equal(emitter.status.stats.writeFailures, 1);
  });

  it('a target that stalls (accepts, never reads): the queue stays bounded, the oldest records drop and are counted', async () => {
    const target = await receiver();
    target.onConnection = (connection) => connection.socket.pause();
    const maxQueuedBytes = 2 * 1024 * 1024;
    const { emitter, counter } = emitterFixture({
      client: { protocol: 'tcp', port: target.port },
      codec,
      extra: { maxQueuedBytes },
    });
    emitter.start();
    await waitFor(() => emitter.status.state === 'Running', 'Running');
    const total = 3_000;
    for (let i = 0; i < total; i += 50) {
      for (let j = i; j < i + 50; j++) emitter.take(syslogRecord(`${j}-${'y'.repeat(10_000)}`));
      await tick();
      assert.ok(emitter.status.queuedBytes <= maxQueuedBytes, `${emitter.status.queuedBytes} bytes queued`);
    }
    const { stats, queuedRecords } = emitter.status;
    assert.ok(stats.droppedQueueFull > 0, 'records dropped');
    assert.equal(stats.recordsSent + stats.droppedQueueFull + queuedRecords, total);
    assert.equal(await counter('drops', 'emitter_queue_full'), stats.droppedQueueFull);
    assert.equal(emitter.status.state, 'Running');
  });

  it('a name that resolves to nothing: Retrying ENOTFOUND, resolved again on every attempt', async () => {
    const clock = new ManualClock(START);
    let calls = 0;
    const empty: Resolver = () => {
      calls++;
      return Promise.resolve([]);
    };
    const { emitter } = emitterFixture({
      client: { protocol: 'tcp', host: 'nowhere.test', port: 514 },
      codec,
      clock,
      extra: { resolve: empty },
    });
    emitter.start();
    await waitFor(() => emitter.status.state === 'Retrying', 'Retrying');
    assert.equal(emitter.status.error?.code, 'ENOTFOUND');
    assert.match(emitter.status.error?.message ?? '', /nowhere\.test:514/);
    clock.advance(100);
    await waitFor(() => calls === 2, 'a second lookup');
  });

  it('a resolver that throws ENOTFOUND: Retrying ENOTFOUND (UDP too)', async () => {
    const failing: Resolver = () =>
      Promise.reject(Object.assign(new Error('getaddrinfo ENOTFOUND nowhere.test'), { code: 'ENOTFOUND' }));
    for (const protocol of ['tcp', 'udp'] as const) {
      const { emitter } = emitterFixture({
        client: { protocol, host: 'nowhere.test', port: 514 },
        codec,
        extra: { resolve: failing },
      });
      emitter.start();
      await waitFor(() => emitter.status.state === 'Retrying', `${protocol} Retrying`);
      assert.equal(emitter.status.error?.code, 'ENOTFOUND');
    }
  });

  it('a resolver that never answers fails when the connection budget runs out (ETIMEDOUT)', async () => {
    const clock = new ManualClock(START);
    const silent: Resolver = () => new Promise(() => {});
    const { emitter } = emitterFixture({
      client: { protocol: 'tls', host: 'silent.test', port: 6514 },
      codec,
      clock,
      extra: { resolve: silent, connectBudgetMs: 500 },
    });
    emitter.start();
    clock.advance(499);
    await tick();
    assert.equal(emitter.status.state, 'Starting');
    clock.advance(1);
    await waitFor(() => emitter.status.state === 'Retrying', 'Retrying');
    assert.equal(emitter.status.error?.code, 'ETIMEDOUT');
    assert.equal(emitter.status.since, START + 500);
  });

  it('answers are tried in order: the first refuses, the second accepts and is used', async () => {
    const target = await receiver();
    const twoAnswers: Resolver = () =>
      Promise.resolve([
        { address: '127.0.0.2', family: 4 },
        { address: '127.0.0.1', family: 4 },
      ]);
    const { emitter, logs } = emitterFixture({
      client: { protocol: 'tcp', host: 'syslog.test', port: target.port },
      codec,
      extra: { resolve: twoAnswers },
    });
    emitter.start();
    await waitFor(() => emitter.status.state === 'Running', 'Running');
    emitter.take(syslogRecord('via the second answer'));
    await waitFor(() => octetFrames(target.all()).length === 1, 'the frame');
    assert.equal(emitter.status.stats.connectFailures, 0);
    const events = logs.map((line) => JSON.parse(line) as { event?: string; remote?: string; code?: string });
    assert.ok(
      events.some((e) => e.event === 'emitter_attempt_failed' && e.remote === `127.0.0.2:${target.port}`),
    );
    assert.ok(events.some((e) => e.event === 'emitter_connected' && e.remote === `127.0.0.1:${target.port}`));
  });
});

import assert from 'node:assert/strict';
import { syslogCodec } from '../../test/fixtures/syslog-codec.js';
import { ManualClock } from '../core/clock.js';
import type { RecordValues } from '../core/values.js';
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

describe('syslog emitter over TCP (docs/syslog-wire.md "Emitters")', function () {
  let receiver: StreamReceiver;

  beforeEach(async () => {
    receiver = await new StreamReceiver().listen();
  });
  afterEach(async () => {
    await stopEmitters();
    await receiver.close();
  });

  it('octet-counting (the default): exact bytes on the wire, one connection', async () => {
    const { emitter, counter } = emitterFixture({ client: { protocol: 'tcp', port: receiver.port }, codec });
    emitter.start();
    emitter.take(syslogRecord('first'));
    emitter.take(syslogRecord('zweite ✓'));
    const expected = `${syslogText('first').length} ${syslogText('first')}${Buffer.byteLength(syslogText('zweite ✓'))} ${syslogText('zweite ✓')}`;
    await waitFor(() => receiver.all().length === Buffer.byteLength(expected), 'both frames');
    assert.equal(receiver.all().toString('utf8'), expected);
    assert.equal(receiver.connections.length, 1);
    await waitFor(() => emitter.status.stats.recordsSent === 2, 'recordsSent');
    assert.equal(await counter('records_out'), 2);
    assert.equal(emitter.status.stats.connects, 1);
  });

  it('non-transparent: payload + LF; a payload with LF is SR3032 with the record, the rest is sent', async () => {
    const { emitter, failures } = emitterFixture({
      client: { protocol: 'tcp', port: receiver.port, framing: 'non-transparent' },
      codec,
    });
    emitter.start();
    const twoLines = syslogRecord('one\ntwo');
    emitter.take(syslogRecord('a'));
    emitter.take(twoLines);
    emitter.take(syslogRecord('b'));
    const expected = `${syslogText('a')}\n${syslogText('b')}\n`;
    await waitFor(() => receiver.all().length === expected.length, 'two lines');
    assert.equal(receiver.all().toString('utf8'), expected);
    assert.deepEqual(
      failures.map((failure) => [failure.error.code, failure.scope.input]),
      [['SR3032', twoLines]],
    );
  });

  it('an encode failure is a message error with the record in input.; the records around it are sent', async () => {
    const { emitter, failures } = emitterFixture({ client: { protocol: 'tcp', port: receiver.port }, codec });
    emitter.start();
    const bad = syslogRecord('x', { facility: 99 });
    emitter.take(syslogRecord('a'));
    emitter.take(bad);
    emitter.take(syslogRecord('b'));
    await waitFor(() => octetFrames(receiver.all()).length === 2, 'two frames');
    assert.deepEqual(octetFrames(receiver.all()), [syslogText('a'), syslogText('b')]);
    assert.equal(failures.length, 1);
    assert.equal(failures[0]?.error.code, 'SR3008');
    assert.equal(failures[0]?.scope.input, bad);
  });

  it('an asynchronous codec keeps arrival order even when later encodes finish first', async () => {
    const delays = [30, 0, 10, 0];
    let call = 0;
    const slow = {
      ...codec,
      kind: codec.kind,
      schema: codec.schema,
      decode: codec.decode.bind(codec),
      encode: (record: Readonly<RecordValues>) => {
        const wait = delays[call++ % delays.length] ?? 0;
        return new Promise<ReturnType<typeof codec.encode>>((resolve) =>
          setTimeout(() => resolve(codec.encode(record)), wait),
        );
      },
    };
    const { emitter } = emitterFixture({ client: { protocol: 'tcp', port: receiver.port }, codec: slow });
    emitter.start();
    for (let i = 0; i < 8; i++) emitter.take(syslogRecord(`m-${i}`));
    await waitFor(() => octetFrames(receiver.all()).length === 8, 'eight frames');
    assert.deepEqual(
      octetFrames(receiver.all()),
      [0, 1, 2, 3, 4, 5, 6, 7].map((i) => syslogText(`m-${i}`)),
    );
  });

  it('a burst of 10,000 records goes out in far fewer writes than records, in order', async () => {
    const { emitter } = emitterFixture({ client: { protocol: 'tcp', port: receiver.port }, codec });
    emitter.start();
    await waitFor(() => emitter.status.state === 'Running', 'Running');
    for (let i = 0; i < 10_000; i++) emitter.take(syslogRecord(`m-${i}`));
    await waitFor(() => emitter.status.stats.recordsSent === 10_000, 'all sent');
    await waitFor(() => octetFrames(receiver.all()).length === 10_000, 'all received');
    assert.deepEqual(
      octetFrames(receiver.all()),
      Array.from({ length: 10_000 }, (_, i) => syslogText(`m-${i}`)),
    );
    const { writes } = emitter.status.stats;
    assert.ok(writes >= 1 && writes <= 10, `expected a handful of writes, got ${writes}`);
  });

  it('BATCH MAX SIZE n MAX TIME d: one write per batch, the last one closed by time', async () => {
    const clock = new ManualClock();
    const { emitter } = emitterFixture({
      client: { protocol: 'tcp', port: receiver.port },
      codec,
      batch: { maxSize: 4, maxTimeMs: 500 },
      clock,
    });
    emitter.start();
    await waitFor(() => emitter.status.state === 'Running', 'Running');
    for (let i = 0; i < 10; i++) emitter.take(syslogRecord(`m-${i}`));
    await waitFor(() => emitter.status.stats.recordsSent === 8, 'two full batches');
    assert.equal(emitter.status.stats.writes, 2);
    assert.equal(emitter.status.queuedRecords, 2);
    clock.advance(500);
    await waitFor(() => emitter.status.stats.recordsSent === 10, 'the batch closed by time');
    assert.equal(emitter.status.stats.writes, 3);
    await waitFor(() => octetFrames(receiver.all()).length === 10, 'ten frames');
  });

  it('a peer that closes after delivery is reconnected before the next write, without a backoff', async () => {
    const { emitter } = emitterFixture({ client: { protocol: 'tcp', port: receiver.port }, codec });
    emitter.start();
    emitter.take(syslogRecord('one'));
    await waitFor(() => octetFrames(receiver.all()).length === 1, 'the first frame');
    receiver.connections[0]?.socket.end();
    await waitFor(() => receiver.connections.length === 2, 'a second connection');
    emitter.take(syslogRecord('two'));
    await waitFor(
      () => octetFrames(receiver.connections[1]?.bytes() ?? Buffer.alloc(0)).length === 1,
      'the second frame',
    );
    assert.deepEqual(octetFrames(receiver.all()), [syslogText('one'), syslogText('two')]);
    assert.equal(emitter.status.stats.connectFailures, 0);
    assert.equal(emitter.status.stats.writeFailures, 0);
  });

  it('stop() counts what it could not deliver as dropped (stopped) and logs no payload', async () => {
    const port = await closedPort();
    const { emitter, counter, logs } = emitterFixture({ client: { protocol: 'tcp', port }, codec });
    emitter.start();
    await waitFor(() => emitter.status.state === 'Retrying', 'Retrying');
    for (let i = 0; i < 5; i++) emitter.take(syslogRecord(`secret-payload-${i}`));
    await emitter.stop(0);
    emitter.take(syslogRecord('secret-payload-late'));
    assert.equal(emitter.status.state, 'Stopped');
    assert.equal(emitter.status.queuedRecords, 0);
    assert.equal(await counter('drops', 'stopped'), 6);
    assert.equal(await counter('records_in'), 6);
    assert.ok(logs.some((line) => line.includes('emitter_stopped')));
    assert.ok(!logs.some((line) => line.includes('secret-payload')), 'a log line quotes a payload');
  });

  it('stop() flushes what is queued within the grace time', async () => {
    const { emitter } = emitterFixture({
      client: { protocol: 'tcp', port: receiver.port },
      codec,
      batch: { maxSize: 100, maxTimeMs: 60_000 },
    });
    emitter.start();
    await waitFor(() => emitter.status.state === 'Running', 'Running');
    for (let i = 0; i < 3; i++) emitter.take(syslogRecord(`m-${i}`));
    await emitter.stop(5_000);
    assert.equal(emitter.status.stats.recordsSent, 3);
    await waitFor(() => octetFrames(receiver.all()).length === 3, 'three frames');
  });
});

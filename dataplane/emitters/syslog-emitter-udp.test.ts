import assert from 'node:assert/strict';
import { decoded, syslogCodec } from '../../test/fixtures/syslog-codec.js';
import { ManualClock } from '../core/clock.js';
import {
  DatagramReceiver,
  emitterFixture,
  stopEmitters,
  syslogRecord,
  syslogText,
  waitFor,
} from '../../test/support/emitter-kit.js';

describe('syslog emitter over UDP (docs/syslog-wire.md "Emitters")', function () {
  let receiver: DatagramReceiver;
  const codec = syslogCodec();

  beforeEach(async () => {
    receiver = await new DatagramReceiver().listen();
  });
  afterEach(async () => {
    await stopEmitters();
    receiver.close();
  });

  it('sends each record as one datagram, in order, and counts it out', async () => {
    const { emitter, counter } = emitterFixture({ client: { protocol: 'udp', port: receiver.port }, codec });
    emitter.start();
    for (let i = 0; i < 5; i++) emitter.take(syslogRecord(`m-${i}`));
    await waitFor(() => receiver.datagrams.length === 5, '5 datagrams');
    assert.deepEqual(
      receiver.datagrams.map(String),
      [0, 1, 2, 3, 4].map((i) => syslogText(`m-${i}`)),
    );
    await waitFor(() => emitter.status.stats.recordsSent === 5, 'recordsSent');
    assert.equal(emitter.status.state, 'Running');
    assert.equal(emitter.status.stats.framesSent, 5);
    assert.equal(await counter('records_out'), 5);
    await emitter.stop();
  });

  it('a closed UDP port (ICMP port unreachable) shows as Retrying ECONNREFUSED, and the sender is rebuilt', async () => {
    const clock = new ManualClock();
    const port = receiver.port;
    receiver.close();
    receiver = await new DatagramReceiver().listen();
    const { emitter } = emitterFixture({ client: { protocol: 'udp', port }, codec, clock });
    emitter.start();
    emitter.take(syslogRecord('into the void'));
    await waitFor(() => emitter.status.state === 'Retrying', 'Retrying');
    assert.equal(emitter.status.error?.code, 'ECONNREFUSED');
    clock.advance(100);
    await waitFor(() => emitter.status.stats.connects === 2, 'a new socket');
  });

  it('a payload above 65,507 bytes is SR3030 for ON MESSAGE ERROR, with the record in input.; others go on', async () => {
    const { emitter, failures } = emitterFixture({ client: { protocol: 'udp', port: receiver.port }, codec });
    emitter.start();
    const big = syslogRecord('x'.repeat(65_507));
    emitter.take(syslogRecord('before'));
    emitter.take(big);
    emitter.take(syslogRecord('after'));
    await waitFor(() => receiver.datagrams.length === 2, '2 datagrams');
    assert.deepEqual(receiver.datagrams.map(String), [syslogText('before'), syslogText('after')]);
    assert.equal(failures.length, 1);
    assert.equal(failures[0]?.error.code, 'SR3030');
    assert.equal(failures[0]?.scope.input, big);
    assert.equal(emitter.status.stats.messageErrors, 1);
    await emitter.stop();
  });

  it('with BATCH and a SYSLOG codec: one datagram per batch in the batch form, closed by size or time', async () => {
    const clock = new ManualClock();
    const { emitter } = emitterFixture({
      client: { protocol: 'udp', port: receiver.port },
      codec,
      batch: { maxSize: 3, maxTimeMs: 1_000 },
      clock,
    });
    emitter.start();
    await waitFor(() => emitter.status.state === 'Running', 'Running');
    for (let i = 0; i < 5; i++) emitter.take(syslogRecord(`m-${i}`));
    await waitFor(() => receiver.datagrams.length === 1, 'the first batch (by size)');
    assert.equal(emitter.status.queuedRecords, 2);
    clock.advance(999);
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(receiver.datagrams.length, 1, 'the second batch is still open');
    clock.advance(1);
    await waitFor(() => receiver.datagrams.length === 2, 'the second batch (by time)');
    const members = receiver.datagrams.map(
      (datagram) => JSON.parse(String(decoded(datagram, codec).message)) as string[],
    );
    assert.deepEqual(members, [
      [0, 1, 2].map((i) => syslogText(`m-${i}`)),
      [3, 4].map((i) => syslogText(`m-${i}`)),
    ]);
    assert.deepEqual(decoded(receiver.datagrams[0] ?? Buffer.alloc(0), codec).hostname, 'h');
    await waitFor(() => emitter.status.stats.recordsSent === 5, 'recordsSent');
    assert.equal(emitter.status.stats.framesSent, 2);
    await emitter.stop();
  });

  it('a batch form above the UDP limit is split in halves; a member too large alone is SR3030', async () => {
    const clock = new ManualClock();
    const { emitter, failures } = emitterFixture({
      client: { protocol: 'udp', port: receiver.port },
      codec,
      batch: { maxSize: 5, maxTimeMs: 1_000 },
      clock,
    });
    emitter.start();
    // 20 kB each: four do not fit one datagram, two do. The quotes double once escaped into JSON.
    const quoted = syslogRecord('"'.repeat(40_000));
    const records = [0, 1, 2, 3].map((i) => syslogRecord(`${i}`.repeat(20_000)));
    for (const record of [records[0], records[1], quoted, records[2], records[3]]) emitter.take(record!);
    await waitFor(
      () => emitter.status.queuedRecords === 0 && emitter.status.stats.recordsSent === 4,
      'the batch',
    );
    await waitFor(() => receiver.datagrams.length === 2, 'two datagrams');
    const sent = receiver.datagrams.flatMap((datagram) => {
      assert.ok(datagram.length <= 65_507);
      return JSON.parse(String(decoded(datagram, codec).message)) as string[];
    });
    assert.deepEqual(
      sent,
      records.map((record) => syslogText(record.message as string)),
    );
    assert.equal(failures.length, 1);
    assert.equal(failures[0]?.error.code, 'SR3030');
    assert.equal(failures[0]?.scope.input, quoted);
    await emitter.stop();
  });
});

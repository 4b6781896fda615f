import assert from 'node:assert/strict';
import { decoded, syslogCodec, view } from '../../../test/fixtures/syslog-codec.js';
import { Instant, type RecordValues } from '../../core/values.js';
import type { Codec, EncodeResult } from '../codec.js';
import { batchRecord, encodeSyslogBatch, type SyslogBatchResult } from './syslog-batch.js';

const codec = syslogCodec();
const at = new Instant(1_750_000_000_123_456_000n);

function member(message: string, extra: Partial<RecordValues> = {}): RecordValues {
  return {
    facility: 4,
    severity: 6,
    timestamp: at,
    hostname: 'web-1',
    app_name: 'api',
    proc_id: null,
    msg_id: 'ID1',
    structured_data: null,
    message,
    ...extra,
  };
}

function settled(result: SyslogBatchResult | Promise<SyslogBatchResult>): SyslogBatchResult {
  assert.ok(!(result instanceof Promise));
  return result;
}

/** The outer record and the members decoded back from the batch message. */
function unpack(bytes: Uint8Array | null): {
  outer: ReturnType<typeof decoded>;
  members: ReturnType<typeof decoded>[];
} {
  assert.ok(bytes !== null);
  const outer = decoded(bytes, codec);
  const texts = JSON.parse(String(outer.message)) as unknown;
  assert.ok(Array.isArray(texts) && texts.every((item) => typeof item === 'string'));
  return { outer, members: texts.map((item) => decoded(item, codec)) };
}

describe('SYSLOG UDP batch form (docs/syslog-wire.md "Emitters")', () => {
  it('members decode back exactly, in order, with the real SYSLOG decoder', () => {
    const records = [
      member('first "quoted" \\ text', { structured_data: '[ex@32473 k="v"]' }),
      member('second, ünïcode ✓', { proc_id: '42' }),
      member(''),
    ];
    const { outer, members } = unpack(settled(encodeSyslogBatch(codec, records)).bytes);
    assert.deepEqual(members, records.map(view));
    assert.deepEqual(
      { ...outer, message: undefined },
      {
        facility: 4,
        severity: 6,
        timestamp: '2025-06-15T15:06:40.123456Z',
        hostname: 'web-1',
        app_name: 'api',
        proc_id: null, // not shared (null, 42, null)
        msg_id: 'ID1',
        structured_data: null, // always null outside the members
        message: undefined,
      },
    );
  });

  it('the header keeps only shared values; facility 1 and the most severe severity when they differ', () => {
    const records = [
      member('a', { facility: 3, severity: 6, hostname: 'x', timestamp: new Instant(1n) }),
      member('b', { facility: 16, severity: 2, hostname: 'y', timestamp: new Instant(2n) }),
      member('c', { facility: 16, severity: 4, hostname: 'x' }),
    ];
    const outer = batchRecord(records.map((record) => ({ record, message: new Uint8Array() })));
    assert.equal(outer.facility, 1);
    assert.equal(outer.severity, 2);
    assert.equal(outer.hostname, null);
    assert.equal(outer.timestamp, null);
    assert.equal(outer.app_name, 'api');
    assert.equal(outer.msg_id, 'ID1');
    assert.equal(outer.message, '["","",""]');
  });

  it('equal timestamps are shared by value (distinct Instant objects)', () => {
    const records = [
      member('a', { timestamp: new Instant(5n) }),
      member('b', { timestamp: new Instant(5n) }),
    ];
    const outer = batchRecord(records.map((record) => ({ record, message: new Uint8Array() })));
    assert.ok(outer.timestamp instanceof Instant && outer.timestamp.equals(new Instant(5n)));
  });

  it('a member that does not encode is reported with its index; the others are batched', () => {
    const records = [member('ok-1'), member('bad', { facility: 99 }), member('ok-2')];
    const result = settled(encodeSyslogBatch(codec, records));
    assert.deepEqual(
      result.failed.map((failure) => [failure.index, failure.error.code]),
      [[1, 'SR3008']],
    );
    assert.equal(result.error, null);
    const { members } = unpack(result.bytes);
    assert.deepEqual(
      members.map((item) => item.message),
      ['ok-1', 'ok-2'],
    );
  });

  it('no member encodes: no bytes, every member failed', () => {
    const result = settled(encodeSyslogBatch(codec, [member('x', { severity: 8 })]));
    assert.equal(result.bytes, null);
    assert.equal(result.failed.length, 1);
  });

  it('an asynchronous codec gives the same bytes', async () => {
    const asyncCodec: Codec = {
      kind: 'syslog',
      schema: codec.schema,
      decode: (payload) => codec.decode(payload),
      encode: (record) => Promise.resolve(codec.encode(record) as EncodeResult),
    };
    const records = [member('a'), member('b', { severity: 0 })];
    const viaPromise = encodeSyslogBatch(asyncCodec, records);
    assert.ok(viaPromise instanceof Promise);
    assert.deepEqual((await viaPromise).bytes, settled(encodeSyslogBatch(codec, records)).bytes);
  });
});

import assert from 'node:assert/strict';
import type { Codec } from '../codecs/codec.js';
import type { GraphSchema } from '../graph/types.js';
import { batchUnits } from './batch-units.js';
import type { QueuedRecord } from './emitter-queue.js';

function entry(text: string): QueuedRecord {
  const message = Buffer.from(`<13>1 - - - - - - ${text}`);
  return { record: { message: text }, message, bytes: message.length };
}

function codecOf(encode: NonNullable<Codec['encode']>): Codec {
  return {
    kind: 'syslog',
    schema: {} as GraphSchema,
    decode: () => ({ error: { code: 'SR3009', message: 'unused' } }) as never,
    encode,
  };
}

describe('batchUnits', () => {
  it('fails every member with SR3009 when the codec throws on the batch record (no rejection)', async () => {
    const codec = codecOf(() => {
      throw new Error('defect');
    });
    const entries = [entry('a'), entry('b')];
    const made = await batchUnits(codec, entries);
    assert.deepEqual(made.units, []);
    assert.deepEqual(
      made.failed.map((failure) => [failure.entry, failure.error.code]),
      entries.map((e) => [e, 'SR3009']),
    );
  });

  it('fails every member with SR3009 when the codec rejects', async () => {
    const codec = codecOf(() => Promise.reject(new Error('defect')));
    const made = await batchUnits(codec, [entry('a')]);
    assert.equal(made.failed[0]?.error.code, 'SR3009');
  });

  it('makes one datagram of a batch the codec encodes', async () => {
    const codec = codecOf(() => ({ bytes: Buffer.from('batch') }));
    const made = await batchUnits(codec, [entry('a'), entry('b')]);
    assert.deepEqual(
      made.units.map((unit) => Buffer.from(unit).toString()),
      ['batch'],
    );
    assert.deepEqual(made.failed, []);
  });
});

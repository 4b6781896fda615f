import assert from 'node:assert/strict';
import type { Codec, EncodeResult } from '../codecs/codec.js';
import type { RecordValues } from '../core/values.js';
import { OrderedEncoder } from './ordered-encoder.js';

/** A codec whose encode is whatever `answer` gives for the record's id. */
function codecOf(answer: (id: number) => EncodeResult | Promise<EncodeResult>): Codec {
  return {
    kind: 'wire-json',
    schema: { fields: [] },
    decode: () => ({ records: [] }),
    encode: (record) => answer(record['id'] as number),
  };
}

const bytes = (id: number): EncodeResult => ({ bytes: new Uint8Array([id]) });

function collect(codec: Codec): { encoder: OrderedEncoder; out: [unknown, string][] } {
  const out: [unknown, string][] = [];
  const encoder = new OrderedEncoder(codec, (record: Readonly<RecordValues>, result) =>
    out.push([record['id'], 'error' in result ? result.error.code : 'ok']),
  );
  return { encoder, out };
}

describe('ordered encoder', () => {
  it('synchronous results go straight through', () => {
    const { encoder, out } = collect(codecOf(bytes));
    encoder.push({ id: 1 });
    assert.deepEqual(out, [[1, 'ok']]);
    assert.equal(encoder.pending, 0);
  });

  it('results are handed on in arrival order whatever order promises settle in', async () => {
    const gates: (() => void)[] = [];
    const { encoder, out } = collect(
      codecOf((id) =>
        id === 2 ? bytes(id) : new Promise<EncodeResult>((resolve) => gates.push(() => resolve(bytes(id)))),
      ),
    );
    for (const id of [1, 2, 3]) encoder.push({ id });
    assert.equal(encoder.pending, 3);
    gates[1]?.(); // 3 settles first
    await Promise.resolve();
    assert.deepEqual(out, []);
    gates[0]?.();
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(out, [
      [1, 'ok'],
      [2, 'ok'],
      [3, 'ok'],
    ]);
    assert.equal(encoder.pending, 0);
  });

  it('a codec that throws or rejects is SR3009; one that cannot encode is SR3008', async () => {
    const { encoder, out } = collect(
      codecOf((id) => {
        if (id === 1) throw new Error('defect');
        return Promise.reject(new Error('defect'));
      }),
    );
    encoder.push({ id: 1 });
    encoder.push({ id: 2 });
    await new Promise((resolve) => setImmediate(resolve));
    const cannot = collect({ ...codecOf(bytes), encode: undefined } as unknown as Codec);
    cannot.encoder.push({ id: 3 });
    assert.deepEqual(
      [...out, ...cannot.out],
      [
        [1, 'SR3009'],
        [2, 'SR3009'],
        [3, 'SR3008'],
      ],
    );
  });

  it('clear() forgets pending records; their late results are ignored', async () => {
    const { encoder, out } = collect(codecOf((id) => Promise.resolve(bytes(id))));
    encoder.push({ id: 1 });
    encoder.push({ id: 2 });
    assert.equal(encoder.clear(), 2);
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(out, []);
  });
});

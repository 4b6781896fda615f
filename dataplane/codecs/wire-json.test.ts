import assert from 'node:assert/strict';
import type { FieldType } from '../graph/field-types.js';
import type { GraphCodec, GraphSchema, WireType } from '../graph/types.js';
import { parseRfc3339 } from '../core/rfc3339.js';
import type { RecordValues } from '../core/values.js';
import { createCodec, type Codec, type DecodeResult } from './codec.js';

function field(name: string, type: FieldType, optional = false): GraphSchema['fields'][number] {
  return { name, type, optional, sensitive: false };
}

const SCHEMA: GraphSchema = {
  fields: [
    field('order_id', 'STRING'),
    field('amount', 'I64'),
    field('big', 'U64'),
    field('qty', 'U8'),
    field('ratio', 'F64'),
    field('placed_at', 'DATETIME'),
    field('note', 'STRING', true),
    field('extra', 'STRING', true), // not in the wire schema: always null
  ],
};

const WIRE: [string, WireType][] = [
  ['order_id', 'string'],
  ['amount', 'integer'],
  ['big', 'integer'],
  ['qty', 'integer'],
  ['ratio', 'integer'],
  ['placed_at', 'string'],
  ['note', 'string'],
  ['legacy', 'integer'], // not in the schema: read, checked, dropped
];

function wireCodec(schema = SCHEMA, wire = WIRE): Codec {
  const graphCodec: GraphCodec = {
    kind: 'wire-json',
    schema: 'orders',
    canEncode: true,
    wireFields: wire.map(([name, type]) => ({ name, type })),
  };
  const made = createCodec(graphCodec, schema);
  assert.ok(made.ok, made.ok ? '' : made.error);
  return made.codec;
}

const GOOD = {
  order_id: 'o-1',
  amount: 42,
  big: 7,
  qty: 3,
  ratio: 2,
  placed_at: '2026-11-22T03:08:00.123456789Z',
  note: null,
  legacy: 1,
};

/** The body: GOOD with `changes` (a key set to undefined is removed), as raw text when a string. */
function body(changes: Record<string, unknown> | string = {}): Uint8Array {
  if (typeof changes === 'string') return new TextEncoder().encode(changes);
  const merged: Record<string, unknown> = { ...GOOD, ...changes };
  for (const [key, value] of Object.entries(merged)) if (value === undefined) delete merged[key];
  return new TextEncoder().encode(JSON.stringify(merged));
}

function decode(payload: Uint8Array, codec = wireCodec()): DecodeResult {
  const result = codec.decode(payload);
  assert.ok(!(result instanceof Promise), 'the wire codec is synchronous');
  return result;
}

function decoded(payload: Uint8Array): RecordValues {
  const result = decode(payload);
  assert.ok('records' in result, 'error' in result ? result.error.reason : '');
  assert.equal(result.records.length, 1);
  return result.records[0]!;
}

/** The body with a number written as raw text (more digits than a double holds). */
function rawNumber(key: string, text: string): Uint8Array {
  return body(new TextDecoder().decode(body({ [key]: 0 })).replace(`"${key}":0`, `"${key}":${text}`));
}

describe('JSON wire-schema codec', () => {
  it('decodes one object into one record of the schema', () => {
    assert.deepEqual(decoded(body()), {
      order_id: 'o-1',
      amount: 42n,
      big: 7n,
      qty: 3,
      ratio: 2,
      placed_at: parseRfc3339('2026-11-22T03:08:00.123456789Z'),
      note: null,
      extra: null,
    });
  });

  describe('64-bit integers are exact', () => {
    const cases: [string, string, bigint][] = [
      ['amount', '9223372036854775807', 9223372036854775807n],
      ['amount', '-9223372036854775808', -9223372036854775808n],
      ['amount', '9007199254740993', 9007199254740993n],
      ['big', '18446744073709551615', 18446744073709551615n],
      ['big', '1.2e19', 12000000000000000000n],
      ['amount', '1e2', 100n],
      ['amount', '100.0', 100n],
    ];
    for (const [key, text, expected] of cases) {
      it(`${key} ${text}`, () => assert.equal(decoded(rawNumber(key, text))[key], expected));
    }
  });

  describe('bad input is one message error naming the key, never the value', () => {
    const cases: [string, Uint8Array, string, RegExp][] = [
      ['invalid UTF-8', new Uint8Array([0x7b, 0xff, 0x7d]), 'SR3001', /not valid UTF-8/],
      ['not JSON', body('{"order_id": '), 'SR3002', /not valid JSON/],
      ['empty body', body(''), 'SR3002', /not valid JSON/],
      ['an array', body('[{"order_id":"o-1"}]'), 'SR3002', /a JSON array, not a JSON object/],
      ['null', body('null'), 'SR3002', /JSON null, not a JSON object/],
      ['a number', body('42'), 'SR3002', /a JSON number/],
      ['missing key', body({ amount: undefined }), 'SR3003', /key "amount" is missing/],
      [
        'extra key',
        body({ coupon: 'SECRET-1' }),
        'SR3004',
        /^key 9 of the object is not in the wire schema$/,
      ],
      [
        'string for integer',
        body({ amount: 'SECRET-1' }),
        'SR3005',
        /key "amount": expected an integer, found a string/,
      ],
      [
        'number for string',
        body({ order_id: 12345 }),
        'SR3005',
        /key "order_id": expected a string, found a number/,
      ],
      ['fraction', body({ amount: 1.5 }), 'SR3005', /expected an integer, found a number with a fraction/],
      ['exact fraction', rawNumber('amount', '9007199254740993.5'), 'SR3005', /with a fraction/],
      ['boolean', body({ qty: true }), 'SR3005', /key "qty": expected an integer, found a boolean/],
      ['array', body({ order_id: ['x'] }), 'SR3005', /found an array/],
      ['object', body({ order_id: { a: 1 } }), 'SR3005', /found an object/],
      [
        'null into a required field',
        body({ amount: null }),
        'SR3005',
        /key "amount": expected an integer, found null/,
      ],
      ['dropped key mistyped', body({ legacy: 'x' }), 'SR3005', /key "legacy"/],
      [
        'U8 above 255',
        body({ qty: 256 }),
        'SR3006',
        /key "qty": the value is out of the range of U8 \(0 to 255\)/,
      ],
      ['U8 below 0', body({ qty: -1 }), 'SR3006', /U8/],
      ['I64 above', rawNumber('amount', '9223372036854775808'), 'SR3006', /I64/],
      ['U64 above', rawNumber('big', '18446744073709551616'), 'SR3006', /U64/],
      ['U64 negative', body({ big: -1 }), 'SR3006', /U64/],
      ['huge exponent', rawNumber('amount', '1e400'), 'SR3006', /out of the range/],
      [
        'not RFC 3339',
        body({ placed_at: '22/11/2026' }),
        'SR3007',
        /key "placed_at": expected an RFC 3339 timestamp/,
      ],
      ['no such day', body({ placed_at: '2026-02-30T00:00:00Z' }), 'SR3007', /RFC 3339/],
    ];
    for (const [name, payload, code, reason] of cases) {
      it(name, () => {
        const result = decode(payload);
        assert.ok('error' in result, 'a message error');
        assert.equal(result.error.code, code);
        assert.match(result.error.reason, reason);
        assert.doesNotMatch(result.error.reason, /SECRET|12345|22\/11/);
      });
    }
  });

  it('names an unknown key by its position, never by its text', () => {
    const result = decode(body({ ['k'.repeat(10_000)]: 1 }));
    assert.ok('error' in result);
    assert.equal(result.error.reason, 'key 9 of the object is not in the wire schema');
    assert.deepEqual(result.error.detail, { keyPosition: 9 });
  });

  it('accepts null for an OPTIONAL field and for a dropped key', () => {
    const record = decoded(body({ note: null, legacy: null }));
    assert.equal(record.note, null);
    assert.equal('legacy' in record, false);
  });

  it('encodes a record as the JSON object of its wire keys, 64-bit with every digit', () => {
    const record = decoded(rawNumber('big', '18446744073709551615'));
    const codec = wireCodec();
    const encoded = codec.encode!(record);
    assert.ok(!(encoded instanceof Promise) && 'bytes' in encoded);
    const text = new TextDecoder().decode(encoded.bytes);
    assert.equal(
      text,
      '{"order_id":"o-1","amount":42,"big":18446744073709551615,"qty":3,"ratio":2,' +
        '"placed_at":"2026-11-22T03:08:00.123456789Z","note":null,"legacy":null}',
    );
    assert.deepEqual(decoded(encoded.bytes), record);
  });

  it('cannot encode an F64 with a fraction as a wire integer', () => {
    const encoded = wireCodec().encode!({ ...decoded(body()), ratio: 0.5 });
    assert.ok(!(encoded instanceof Promise) && 'error' in encoded);
    assert.equal(encoded.error.code, 'SR3008');
  });

  it('refuses a wire type that cannot feed its field, and a required field the wire lacks', () => {
    const mismatch = createCodec(
      {
        kind: 'wire-json',
        schema: 's',
        canEncode: true,
        wireFields: [{ name: 'order_id', type: 'integer' }],
      },
      { fields: [field('order_id', 'STRING')] },
    );
    assert.ok(!mismatch.ok && /cannot feed field order_id of type STRING/.test(mismatch.error));
    const lacking = createCodec(
      { kind: 'wire-json', schema: 's', canEncode: true, wireFields: [] },
      { fields: [field('order_id', 'STRING')] },
    );
    assert.ok(!lacking.ok && /order_id is not OPTIONAL/.test(lacking.error));
  });
});

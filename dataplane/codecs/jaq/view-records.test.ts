import assert from 'node:assert/strict';
import type { FieldType } from '../../graph/field-types.js';
import type { GraphSchema } from '../../graph/types.js';
import { Instant } from '../../core/values.js';
import type { JsonValue } from '../json-value.js';
import { recordView, ViewReader } from './view-records.js';

function schema(...fields: [string, FieldType, boolean?][]): GraphSchema {
  return {
    fields: fields.map(([name, type, optional = false]) => ({ name, type, optional, sensitive: false })),
  };
}

const ALL = schema(
  ['s', 'STRING'],
  ['b', 'BOOL'],
  ['u8', 'U8'],
  ['u64', 'U64'],
  ['i64', 'I64'],
  ['f', 'F64'],
  ['t', 'DATETIME'],
  ['bytes', 'BYTES'],
  ['note', 'STRING', true],
);

const GOOD = {
  s: 'x',
  b: true,
  u8: 255,
  u64: 18446744073709551615n,
  i64: -5,
  f: 1.5,
  t: '2026-11-24T10:00:00.123456789Z',
  bytes: 'AAEC',
  surplus: [1],
};

function read(outputs: JsonValue[], of = ALL): ReturnType<ViewReader['records']> {
  return new ViewReader(of).records(outputs);
}

function reasonOf(outputs: JsonValue[], of = ALL): string {
  const result = read(outputs, of);
  assert.ok('error' in result, 'expected a message error');
  return `${result.error.code} ${result.error.reason}`;
}

describe('view-records: program outputs ↔ records', () => {
  it('reads every field type exactly, drops surplus keys, and gives OPTIONAL fields null', () => {
    const result = read([GOOD]);
    assert.ok('records' in result);
    assert.deepEqual(result.records, [
      {
        s: 'x',
        b: true,
        u8: 255,
        u64: 18446744073709551615n,
        i64: -5n,
        f: 1.5,
        t: new Instant(1795514400123456789n),
        bytes: new Uint8Array([0, 1, 2]),
        note: null,
      },
    ]);
  });

  it('reads seconds since the epoch (jq’s now, mktime) as DATETIME', () => {
    const result = read([{ t: 1795514400.5 }], schema(['t', 'DATETIME']));
    assert.ok('records' in result);
    assert.deepEqual(result.records[0]?.t, new Instant(1795514400500000000n));
  });

  it('fails the whole body when one output does not fit, naming the output and the key', () => {
    const cases: [JsonValue[], string][] = [
      [[GOOD, 'text'], 'SR3014 output 2 is a string, not a JSON object'],
      [[[1]], 'SR3014 output 1 is an array, not a JSON object'],
      [[{ ...GOOD, s: null }], 'SR3005 key "s" is missing or null, and field s is not OPTIONAL'],
      [[{ ...GOOD, u8: 256 }], 'SR3006 key "u8": the value is out of the range of U8 (0 to 255)'],
      [[{ ...GOOD, u64: -1 }], 'SR3006 key "u64": the value is out of the range of U64'],
      [[{ ...GOOD, i64: 1.5 }], 'SR3005 key "i64": expected an integer, found a number'],
      [[{ ...GOOD, s: 5 }], 'SR3005 key "s": expected a string, found an integer'],
      [[{ ...GOOD, b: 'true' }], 'SR3005 key "b": expected true or false, found a string'],
      [[{ ...GOOD, t: 'yesterday' }], 'SR3007 key "t": expected an RFC 3339 timestamp'],
      // Regression: 1e15 seconds made an instant no RFC 3339 text can show, which broke encoding later.
      [[{ ...GOOD, t: 1e15 }], 'SR3007 key "t": seconds since the epoch outside the years 0000–9999'],
      [
        [{ ...GOOD, t: -62_167_219_201 }],
        'SR3007 key "t": seconds since the epoch outside the years 0000–9999',
      ],
      [[{ ...GOOD, bytes: 'not base64!' }], 'SR3005 key "bytes": expected standard base64 text'],
      [[GOOD, { ...GOOD, f: 'x' }], 'SR3005 output 2: key "f": expected a number, found a string'],
    ];
    for (const [outputs, reason] of cases)
      assert.ok(reasonOf(outputs).startsWith(reason), `${reasonOf(outputs)} ≠ ${reason}`);
  });

  it('gives the emitting program every field, in JSON terms', () => {
    const view = recordView(
      {
        s: 'x',
        b: false,
        u8: 1,
        u64: 18446744073709551615n,
        i64: -1n,
        f: Number.NaN,
        t: new Instant(1795514400000000000n),
        bytes: new Uint8Array([255]),
        note: null,
      },
      ALL,
    );
    assert.deepEqual(view, {
      s: 'x',
      b: false,
      u8: 1,
      u64: 18446744073709551615n,
      i64: -1n,
      f: null,
      t: '2026-11-24T10:00:00Z',
      bytes: '/w==',
      note: null,
    });
  });
});

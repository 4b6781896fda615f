import assert from 'node:assert/strict';
import { parse } from 'lossless-json';
import { Instant, type RecordValues } from '../core/values.js';
import { recordToJson, valueToJson } from './record-json.js';

const at = (text: string, nanos = 0n): Instant => new Instant(BigInt(Date.parse(text)) * 1_000_000n + nanos);

describe('recordToJson', () => {
  const values: [string, RecordValues[string] | undefined, string][] = [
    ['I64 maximum 2^63-1', 9223372036854775807n, '9223372036854775807'],
    ['I64 minimum -2^63', -9223372036854775808n, '-9223372036854775808'],
    ['U64 maximum 2^64-1', 18446744073709551615n, '18446744073709551615'],
    ['2^53+1 (not a safe integer)', 9007199254740993n, '9007199254740993'],
    ['zero bigint', 0n, '0'],
    ['U8', 255, '255'],
    ['I32 minimum', -2147483648, '-2147483648'],
    ['F64 with a fraction', 1.5, '1.5'],
    ['F64 large', 1e21, '1e+21'],
    ['F64 small', 5e-324, '5e-324'],
    ['F64 negative zero', -0, '0'],
    ['NaN', Number.NaN, 'null'],
    ['Infinity', Number.POSITIVE_INFINITY, 'null'],
    ['-Infinity', Number.NEGATIVE_INFINITY, 'null'],
    ['true', true, 'true'],
    ['false', false, 'false'],
    ['null', null, 'null'],
    ['undefined (a defect upstream)', undefined, 'null'],
    ['DATETIME with nanoseconds', at('2026-11-22T03:08:00Z', 123456789n), '"2026-11-22T03:08:00.123456789Z"'],
    ['DATETIME trailing zeros trimmed', at('2026-11-22T03:08:00Z', 500_000_000n), '"2026-11-22T03:08:00.5Z"'],
    ['DATETIME whole second', at('2026-11-22T03:08:00Z'), '"2026-11-22T03:08:00Z"'],
    ['DATETIME before 1970', at('1969-12-31T23:59:59Z', 1n), '"1969-12-31T23:59:59.000000001Z"'],
    ['DATETIME beyond what Date holds', new Instant(10n ** 30n), 'null'],
    ['BYTES', new Uint8Array([0, 1, 2, 253, 254, 255]), '"AAEC/f7/"'],
    ['BYTES empty', new Uint8Array(0), '""'],
    ['BYTES view into a larger buffer', new Uint8Array([9, 104, 105, 9]).subarray(1, 3), '"aGk="'],
    ['STRING plain', 'hello', '"hello"'],
    ['STRING quotes and backslash', 'a"b\\c', '"a\\"b\\\\c"'],
    ['STRING control characters', 'line\nnext\t\u0000', '"line\\nnext\\t\\u0000"'],
    ['STRING unicode kept as is', 'Grüße, 東京 🚀', '"Grüße, 東京 🚀"'],
    ['STRING line and paragraph separators', '\u2028\u2029', '"\u2028\u2029"'],
    ['STRING lone surrogate escaped', 'x\ud800y', '"x\\ud800y"'],
  ];
  for (const [what, value, json] of values) {
    it(`writes ${what} as ${json}`, () => assert.equal(valueToJson(value as RecordValues[string]), json));
  }

  it('keeps the fields in record order, keyed by field name, without an envelope', () => {
    const record: RecordValues = { zeta: 1, alpha: 'a', Mixed_Case: true, 'odd "name"': null };
    assert.equal(recordToJson(record), '{"zeta":1,"alpha":"a","Mixed_Case":true,"odd \\"name\\"":null}');
  });

  it('writes an empty record as {}', () => assert.equal(recordToJson({}), '{}'));

  it('is one line: no raw line break survives, whatever the strings hold', () => {
    const line = recordToJson({ text: 'a\r\nb\u2028c' });
    assert.doesNotMatch(line, /[\r\n]/);
  });

  it('parses back exactly, 64-bit integers included', () => {
    const record: RecordValues = {
      order_id: 'ORD-1 "quoted" 東京',
      amount: -9223372036854775808n,
      total: 18446744073709551615n,
      ratio: 0.1,
      at: at('2026-11-22T03:08:00Z', 1n),
      raw: new Uint8Array([255, 0]),
      note: null,
      ok: false,
    };
    const parseNumber = (text: string): number | bigint =>
      /^-?\d+$/.test(text) ? BigInt(text) : Number(text);
    const parsed = parse(recordToJson(record), null, { parseNumber }) as Record<string, unknown>;
    assert.deepEqual(Object.keys(parsed), Object.keys(record));
    assert.equal(parsed.order_id, record.order_id);
    assert.equal(parsed.amount, -9223372036854775808n);
    assert.equal(parsed.total, 18446744073709551615n);
    assert.equal(parsed.at, '2026-11-22T03:08:00.000000001Z');
    assert.equal(Buffer.from(parsed.raw as string, 'base64').toString('hex'), 'ff00');
    assert.equal(parsed.note, null);
    assert.equal(parsed.ok, false);
    assert.equal(parsed.ratio, 0.1);
  });
});

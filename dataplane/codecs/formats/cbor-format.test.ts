import assert from 'node:assert/strict';
import { parseJsonValue, type JsonValue } from '../json-value.js';
import { cborFormat } from './cbor-format.js';
import { CBOR_MAX_BIGNUM_BYTES, MAX_DEPTH } from './format-limits.js';
import {
  assertError,
  hex,
  inputsOf,
  readError,
  toHex,
  writeError,
  written,
} from '../../../test/fixtures/payload-formats.js';

describe('CBOR payload format', () => {
  describe('read: the JSON view (examples from RFC 8949 appendix A and more)', () => {
    const cases: [string, string, string][] = [
      ['small integers', '83 00 17 1818', '[0,23,24]'],
      ['the largest U64', '1b ffffffffffffffff', '18446744073709551615'],
      ['the lowest I64', '3b 7fffffffffffffff', '-9223372036854775808'],
      ['the lowest 64-bit negative', '3b ffffffffffffffff', '-18446744073709551616'],
      ['2^53 + 1 exactly', '1b 0020000000000001', '9007199254740993'],
      ['a tag 2 bignum', 'c2 49 010000000000000000', '18446744073709551616'],
      ['a tag 3 bignum', 'c3 49 010000000000000000', '-18446744073709551617'],
      ['an empty bignum is zero', 'c2 40', '0'],
      ['half floats', '84 f93c00 f93e00 f90001 f97bff', '[1,1.5,5.960464477539063e-8,65504]'],
      ['single and double floats', '82 fa47c35000 fb3ff199999999999a', '[100000,1.1]'],
      ['negative zero is 0', 'f98000', '0'],
      [
        'NaN and infinities become strings',
        '84 f97e00 f97c00 f9fc00 fb7ff8000000000000',
        '["NaN","Infinity","-Infinity","NaN"]',
      ],
      ['booleans, null; undefined is null', '84 f4 f5 f6 f7', '[false,true,null,null]'],
      ['byte strings are standard base64', '83 40 4401020304 43ffffff', '["","AQIDBA==","////"]'],
      ['text strings', '82 60 64 49455446', '["","IETF"]'],
      ['a BOM inside a text string is kept', '63 efbbbf', '"\ufeff"'],
      ['a map with text keys, in order', 'a2 6162 01 6161 02', '{"b":1,"a":2}'],
      [
        'integer keys become decimal text',
        'a3 01 61 61 20 61 62 1bffffffffffffffff 61 63',
        '{"1":"a","-1":"b","18446744073709551615":"c"}',
      ],
      ['__proto__ is an ordinary key', 'a1 69 5f5f70726f746f5f5f a1 6178 01', '{"__proto__":{"x":1}}'],
      ['tag 0 keeps its text', 'c0 74 323031332d30332d32315432303a30343a30305a', '"2013-03-21T20:04:00Z"'],
      ['tag 1 integer seconds → RFC 3339 UTC', 'c1 1a514b67b0', '"2013-03-21T20:04:00.000Z"'],
      ['tag 1 float seconds, to the millisecond', 'c1 fb41d452d9ec200000', '"2013-03-21T20:04:00.500Z"'],
      ['tag 1 before 1970', 'c1 3a 0001517f', '"1969-12-31T00:00:00.000Z"'],
      [
        'other tags are transparent (32: URI)',
        'd820 76 687474703a2f2f7777772e6578616d706c652e636f6d',
        '"http://www.example.com"',
      ],
      ['self-described CBOR (55799)', 'd9d9f7 a1 6161 01', '{"a":1}'],
      ['cbor-x record tags mean nothing here', 'd9dfff 83 190001 81 6161 f5', '[1,["a"],true]'],
      ['shared-reference tags build no cycle', 'd81c 81 d81d 00', '[0]'],
      ['indefinite arrays and maps', '9f 01 82 02 03 9f 04 ff ff', '[1,[2,3],[4]]'],
      ['an indefinite map', 'bf 6161 01 6162 9f 02 ff ff', '{"a":1,"b":[2]}'],
      ['an indefinite text string, its chunks joined', '7f 65 7374726561 64 6d696e67 ff', '"streaming"'],
      ['an indefinite byte string', '5f 42 0102 43 030405 ff', '"AQIDBAU="'],
      ['an empty indefinite string', '7f ff', '""'],
      ['an indefinite text string as a key', 'a1 7f 6161 ff 01', '{"a":1}'],
    ];
    for (const [name, bytes, input] of cases) {
      it(name, () => assert.deepEqual(inputsOf(cborFormat, hex(bytes)), [input]));
    }

    it('64-bit integers reach the program exactly', () => {
      const [input] = inputsOf(cborFormat, hex('a2 6175 1bffffffffffffffff 6169 3b7fffffffffffffff'));
      assert.deepEqual(parseJsonValue(input!), { u: 18446744073709551615n, i: -9223372036854775808n });
    });
  });

  describe('read: errors name the byte offset', () => {
    const cases: [string, string, string, RegExp][] = [
      ['an empty payload', '', 'SR3010', /^CBOR: an empty payload \(expected one data item\)$/],
      [
        'bytes after the item',
        '01 02',
        'SR3010',
        /^CBOR: bytes after the data item \(one item per payload\) at byte offset 1$/,
      ],
      ['a truncated integer', '1a 0102', 'SR3010', /the payload ends inside a data item at byte offset 1$/],
      ['a truncated array', '83 01 02', 'SR3010', /a length beyond the end of the payload at byte offset 0$/],
      [
        'a truncated indefinite array',
        '9f 01',
        'SR3010',
        /the payload ends inside a data item at byte offset 2$/,
      ],
      [
        'a length claiming 2^60 bytes',
        '5b 1000000000000000',
        'SR3010',
        /a length beyond the end of the payload at byte offset 0$/,
      ],
      [
        'an array claiming 2^32 items',
        '9a ffffffff 00',
        'SR3010',
        /a length beyond the end of the payload at byte offset 0$/,
      ],
      ['a map claiming more pairs than bytes', 'a3 01 02 03 04', 'SR3010', /a length beyond the end/],
      ['reserved additional information', '1c', 'SR3010', /additional information 28 .* at byte offset 0$/],
      ['an indefinite integer', '1f', 'SR3010', /additional information 31/],
      ['a break alone', 'ff', 'SR3010', /a break outside an indefinite-length item at byte offset 0$/],
      [
        'a nested indefinite chunk',
        '5f 5f 41 01 ff ff',
        'SR3010',
        /a chunk that is not a definite string of its type at byte offset 1$/,
      ],
      ['a text chunk in a byte string', '5f 61 61 ff', 'SR3010', /a chunk that is not/],
      [
        'invalid UTF-8 in a text string',
        '82 00 62 c328',
        'SR3010',
        /a text string that is not valid UTF-8 at byte offset 2$/,
      ],
      ['a code point split across chunks', '7f 61 c3 61 a9 ff', 'SR3010', /not valid UTF-8/],
      ['a duplicate key', 'a2 6161 01 6161 02', 'SR3010', /a duplicate map key at byte offset 4$/],
      [
        'keys that are duplicates as text',
        'a2 01 00 6131 00',
        'SR3010',
        /a duplicate map key at byte offset 3$/,
      ],
      [
        'a key that is not text or an integer',
        'a1 f5 00',
        'SR3010',
        /a map key that is neither text nor an integer .* at byte offset 1$/,
      ],
      ['a byte-string key', 'a1 41 00 00', 'SR3010', /neither text nor an integer/],
      ['an unassigned simple value', 'f0', 'SR3010', /a simple value with no JSON view at byte offset 0$/],
      ['a two-byte simple value below 32', 'f8 18', 'SR3010', /a two-byte simple value below 32/],
      [
        'tag 0 on a number',
        'c0 01',
        'SR3010',
        /tag 0 \(a date\/time string\) with content of the wrong type at byte offset 1$/,
      ],
      [
        'tag 1 on text',
        'c1 61 61',
        'SR3010',
        /tag 1 without an epoch time in years 0000–9999 at byte offset 0$/,
      ],
      ['tag 1 beyond year 9999', 'c1 1b 0000010000000000', 'SR3010', /tag 1 without an epoch time/],
      ['tag 1 NaN', 'c1 f97e00', 'SR3010', /tag 1 without an epoch time/],
      ['tag 2 on text', 'c2 61 61', 'SR3010', /tag 2 \(a bignum\) with content of the wrong type/],
    ];
    for (const [name, bytes, code, reason] of cases) {
      it(name, () => assertError(readError(cborFormat, hex(bytes)), code as 'SR3010', reason));
    }

    it(`refuses a bignum longer than ${CBOR_MAX_BIGNUM_BYTES} bytes (SR3011)`, () => {
      const payload = Buffer.concat([hex('c2 59 2001'), Buffer.alloc(CBOR_MAX_BIGNUM_BYTES + 1, 0xff)]);
      assertError(
        readError(cborFormat, payload),
        'SR3011',
        /a bignum longer than 8192 bytes at byte offset 0$/,
      );
    });

    it(`reads nesting ${MAX_DEPTH} deep`, () => {
      const payload = Buffer.concat([Buffer.alloc(MAX_DEPTH, 0x81), hex('00')]);
      assert.equal(inputsOf(cborFormat, payload)[0], '['.repeat(MAX_DEPTH) + '0' + ']'.repeat(MAX_DEPTH));
    });

    const deep: [string, number][] = [
      ['arrays', 0x81],
      ['indefinite arrays', 0x9f],
      ['tags', 0xc6],
    ];
    for (const [name, byte] of deep) {
      it(`refuses ${name} nested deeper (SR3011)`, () => {
        const payload = Buffer.concat([Buffer.alloc(100_000, byte), hex('00')]);
        assertError(
          readError(cborFormat, payload),
          'SR3011',
          /^CBOR: nesting deeper than 256 at byte offset 256$/,
        );
      });
    }
  });

  describe('write', () => {
    const cases: [string, JsonValue, string][] = [
      ['a map with the shortest header', { a: 1, b: [1, 2] }, 'a2616101616282 0102'],
      [
        '64-bit integers as integers',
        { u: 18446744073709551615n, i: -9223372036854775808n },
        'a2 6175 1bffffffffffffffff 6169 3b7fffffffffffffff',
      ],
      ['an integer beyond 32 bits as an integer, not a double', 5000000000, '1b 000000012a05f200'],
      [
        'beyond 64 bits as a bignum',
        [2n ** 64n, -(2n ** 64n) - 1n],
        '82 c2 49 010000000000000000 c3 49 010000000000000000',
      ],
      ['a float as a double', 1.5, 'fb 3ff8000000000000'],
      ['null, booleans, strings', [null, true, 'é'], '83 f6 f5 62c3a9'],
    ];
    for (const [name, value, bytes] of cases) {
      it(name, () => assert.equal(toHex(written(cborFormat, value)), bytes.replace(/\s+/g, '')));
    }

    it('writes an own __proto__ key as a key', () => {
      assert.equal(
        toHex(written(cborFormat, JSON.parse('{"__proto__":{"x":1}}') as JsonValue)),
        'a1695f5f70726f746f5f5fa1617801',
      );
    });

    it('refuses NaN and lone surrogates with SR3008 at the key path of positions', () => {
      assertError(
        writeError(cborFormat, { a: [NaN] }),
        'SR3008',
        /^CBOR: cannot write NaN or an infinity at \.\{1\}\[0\]$/,
      );
      assertError(writeError(cborFormat, { a: 'x\udc00' }), 'SR3008', /a lone surrogate .* at \.\{1\}$/);
    });

    it('round-trips 64-bit integers and bignums: value → write → read', () => {
      const value = {
        u: 18446744073709551615n,
        i: -9223372036854775808n,
        big: 2n ** 100n,
        neg: -(2n ** 100n),
      };
      const [input] = inputsOf(cborFormat, written(cborFormat, value));
      assert.deepEqual(parseJsonValue(input!), value);
    });
  });
});

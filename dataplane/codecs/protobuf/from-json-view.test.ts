import assert from 'node:assert/strict';
import { parseJsonValue, type JsonObject, type JsonValue } from '../json-value.js';
import { fromJsonView } from './from-json-view.js';
import { jsonView } from './json-view.js';
import { bytes, len, tag, utf8, varint, vint } from './testdata/wire-bytes.js';
import { messageType } from './testdata/test-messages.js';

const KITCHEN = messageType('streamroute.test.v1.Kitchen');
const SCALARS = messageType('streamroute.test.v1.Scalars');
const REPEATS = messageType('streamroute.test.v1.Repeats');
const MAPS = messageType('streamroute.test.v1.Maps');
const TREE = messageType('streamroute.test.v1.Tree');

function encode(type: typeof KITCHEN, value: JsonValue): Uint8Array {
  const result = fromJsonView(type, value);
  assert.ok('bytes' in result, 'error' in result ? result.error.reason : '');
  return result.bytes;
}

/** The view of what fromJsonView wrote. */
function again(type: typeof KITCHEN, value: JsonValue): JsonObject {
  const result = jsonView(type, encode(type, value));
  assert.ok('text' in result, 'error' in result ? result.error.reason : '');
  return parseJsonValue(result.text) as JsonObject;
}

function failure(type: typeof KITCHEN, value: JsonValue): string {
  const result = fromJsonView(type, value);
  assert.ok('error' in result, 'expected a message error');
  assert.equal(result.error.code, 'SR3008');
  return result.error.reason;
}

describe('protobuf from the JSON view', () => {
  describe('scalars', () => {
    it('writes each scalar type in its encoding, defaults left out (proto3)', () => {
      assert.deepEqual(encode(SCALARS, { f_int32: -1 }), bytes(vint(3, -1)));
      assert.deepEqual(encode(SCALARS, { f_sint32: -1, f_sint64: -1 }), bytes(vint(7, 1), vint(8, 1)));
      assert.deepEqual(encode(SCALARS, { f_fixed32: 1 }), bytes(tag(9, 5), [1, 0, 0, 0]));
      assert.deepEqual(
        encode(SCALARS, { f_sfixed64: -2 }),
        bytes(tag(12, 1), [0xfe, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff]),
      );
      assert.deepEqual(
        encode(SCALARS, { f_bool: true, f_string: 'é' }),
        bytes(vint(13, 1), len(14, utf8('é'))),
      );
      assert.deepEqual(
        encode(SCALARS, { f_int32: 0, f_string: '', f_bytes: '', f_bool: false, f_double: 0 }),
        bytes(),
      );
      assert.deepEqual(encode(SCALARS, { f_double: -0 }), bytes(tag(1, 1), [0, 0, 0, 0, 0, 0, 0, 0x80]));
    });

    it('takes 64-bit integers as numbers, exact bigints and decimal strings', () => {
      const value = parseJsonValue(
        '{"f_int64": -9223372036854775808, "f_uint64": "18446744073709551615", "f_sint64": 9223372036854775807, "f_fixed64": 12, "f_sfixed64": "-1"}',
      );
      const shown = again(SCALARS, value);
      assert.equal(shown.f_int64, -9223372036854775808n);
      assert.equal(shown.f_uint64, 18446744073709551615n);
      assert.equal(shown.f_sint64, 9223372036854775807n);
      assert.equal(shown.f_fixed64, 12);
      assert.equal(shown.f_sfixed64, -1);
    });

    it('takes floats and doubles as numbers, exact bigints and "NaN"/"Infinity"/"-Infinity"', () => {
      const shown = again(SCALARS, { f_double: 'NaN', f_float: '-Infinity' });
      assert.equal(shown.f_double, 'NaN');
      assert.equal(shown.f_float, '-Infinity');
      assert.equal(again(SCALARS, { f_double: 2n ** 70n }).f_double, 2 ** 70);
      assert.equal(again(SCALARS, { f_float: 0.1 }).f_float, 0.1);
      assert.equal(again(SCALARS, { f_float: 3.4028235e38 }).f_float, 3.4028235e38);
    });

    it('takes bytes as standard or URL-safe base64, padded or not', () => {
      for (const text of ['+/8=', '+/8', '-_8=', '-_8'])
        assert.equal(again(SCALARS, { f_bytes: text }).f_bytes, '+/8=');
      assert.equal(again(SCALARS, { f_bytes: 'aGVsbG8=' }).f_bytes, 'aGVsbG8=');
    });

    it('takes enums by name or by number, unknown numbers included', () => {
      assert.equal(again(KITCHEN, { status: 'STATUS_DONE' }).status, 'STATUS_CLOSED');
      assert.equal(again(KITCHEN, { status: 2 }).status, 'STATUS_CLOSED');
      assert.equal(again(KITCHEN, { status: -1 }).status, 'STATUS_NEGATIVE');
      assert.equal(again(KITCHEN, { status: 77 }).status, 77);
      assert.deepEqual(encode(KITCHEN, { status: -1 }), bytes(vint(7, -1)));
    });
  });

  describe('presence and null', () => {
    it('reads null as not set, for every kind of field', () => {
      const value = {
        id: null,
        total: null,
        items: null,
        maps: null,
        maybe_count: null,
        cash: null,
        voucher: 1,
      };
      assert.deepEqual(encode(KITCHEN, value), bytes(vint(12, 1)));
    });

    it('writes fields with presence even at their default', () => {
      assert.deepEqual(encode(KITCHEN, { maybe_count: 0, maybe_note: '' }), bytes(vint(13, 0), len(14)));
      assert.deepEqual(encode(KITCHEN, { voucher: 0 }), bytes(vint(12, 0)));
      assert.deepEqual(encode(KITCHEN, { total: {} }), len(6));
    });

    it('refuses two members of one oneof, but not a member next to a null one', () => {
      assert.equal(
        failure(KITCHEN, { card_token: 't', voucher: 1 }),
        'oneof payment has both card_token and voucher set',
      );
      assert.equal(again(KITCHEN, { card_token: null, voucher: 1 }).voucher, 1);
    });
  });

  describe('repeated fields and maps', () => {
    it('writes repeated scalars packed, and unpacked where the field says so', () => {
      assert.deepEqual(encode(REPEATS, { r_int32: [1, -1] }), len(3, varint(1), varint(-1)));
      assert.deepEqual(encode(REPEATS, { u_int64: [1, 2] }), bytes(vint(17, 1), vint(17, 2)));
      assert.deepEqual(encode(REPEATS, { r_string: ['a', ''] }), bytes(len(15, utf8('a')), len(15)));
      assert.deepEqual(encode(REPEATS, { r_int32: [] }), bytes());
    });

    it('writes each map key as one entry with key and value', () => {
      assert.deepEqual(encode(MAPS, { counts: { a: 0 } }), len(1, len(1, utf8('a')), vint(2, 0)));
      const shown = again(MAPS, {
        names: { '-5': 'x' },
        flags: { '9223372036854775807': true },
        items: { '18446744073709551615': { sku: 's' } },
        by_flag: { true: 't', false: 'f' },
        statuses: { '1': 'STATUS_OPEN' },
        f32: { '4294967295': 1.5 },
        sf64: { '-9223372036854775808': '18446744073709551615' },
      });
      assert.deepEqual(shown.names, { '-5': 'x' });
      assert.deepEqual(shown.flags, { '9223372036854775807': true });
      assert.deepEqual(shown.items, { '18446744073709551615': { sku: 's', quantity: 0 } });
      assert.deepEqual(shown.by_flag, { true: 't', false: 'f' });
      assert.deepEqual(shown.statuses, { '1': 'STATUS_OPEN' });
      assert.deepEqual(shown.f32, { '4294967295': 1.5 });
      assert.deepEqual(shown.sf64, { '-9223372036854775808': 18446744073709551615n });
    });
  });

  describe('nested messages', () => {
    it('writes nested messages of any length (the length prefix grows past one byte)', () => {
      for (const size of [0, 1, 120, 127, 128, 200, 16383, 16384, 70000, 3_000_000]) {
        const sku = 'x'.repeat(size);
        const shown = again(KITCHEN, { items: [{ sku, price: { units: 1 } }, { sku: 'b' }] });
        assert.deepEqual(shown.items, [
          { sku, quantity: 0, price: { currency_code: '', units: 1 } },
          { sku: 'b', quantity: 0 },
        ]);
      }
    });

    it('writes messages nested 100 deep and refuses deeper ones', () => {
      const nest = (depth: number): JsonObject => {
        let value: JsonObject = { value: 1 };
        for (let i = 0; i < depth; i++) value = { child: value };
        return value;
      };
      encode(TREE, nest(100));
      assert.match(failure(TREE, nest(101)), /^field child(\.child)+: messages nested deeper than 100$/);
      assert.match(failure(TREE, nest(100_000)), /messages nested deeper than 100$/);
    });
  });

  describe('strictness: one SR3008 error naming the field path and the expected type', () => {
    const cases: [string, typeof KITCHEN, JsonValue, string][] = [
      ['a non-object', KITCHEN, [], 'expected message streamroute.test.v1.Kitchen (an object), got an array'],
      [
        'an unknown key',
        KITCHEN,
        { items: [{}, { sku: 'a', colour: 1 }] },
        'field items[1]: key 2 of the object is not a field of message streamroute.test.v1.LineItem',
      ],
      [
        'a camelCase key',
        KITCHEN,
        { maybeCount: 1 },
        'key 1 of the object is not a field of message streamroute.test.v1.Kitchen',
      ],
      ['a string into int32', SCALARS, { f_int32: '1' }, 'field f_int32: expected int32, got a string'],
      [
        'a fraction into an integer',
        KITCHEN,
        { items: [{}, {}, { price: { units: 1.5 } }] },
        'field items[2].price.units: expected int64, got a number with a fraction',
      ],
      ['int32 above its range', SCALARS, { f_int32: 2 ** 31 }, 'field f_int32: out of range for int32'],
      [
        'int32 below its range',
        SCALARS,
        { f_sfixed32: -(2 ** 31) - 1 },
        'field f_sfixed32: out of range for sfixed32',
      ],
      ['uint32 negative', SCALARS, { f_uint32: -1 }, 'field f_uint32: out of range for uint32'],
      [
        'uint32 above its range',
        SCALARS,
        { f_fixed32: 2 ** 32 },
        'field f_fixed32: out of range for fixed32',
      ],
      ['int64 above its range', SCALARS, { f_int64: 2n ** 63n }, 'field f_int64: out of range for int64'],
      [
        'int64 text below its range',
        SCALARS,
        { f_sint64: '-9223372036854775809' },
        'field f_sint64: out of range for sint64',
      ],
      ['uint64 negative', SCALARS, { f_uint64: -1 }, 'field f_uint64: out of range for uint64'],
      [
        'uint64 text above its range',
        SCALARS,
        { f_fixed64: '18446744073709551616' },
        'field f_fixed64: out of range for fixed64',
      ],
      [
        'a very long decimal',
        SCALARS,
        { f_uint64: '1'.repeat(10_000) },
        'field f_uint64: out of range for uint64',
      ],
      [
        'an inexact double into int64',
        SCALARS,
        { f_int64: 2 ** 60 },
        'field f_int64: expected int64, got a floating-point number beyond 2^53 (inexact)',
      ],
      [
        'non-decimal text into int64',
        SCALARS,
        { f_int64: '1e3' },
        'field f_int64: expected int64, got a string that is not a decimal integer',
      ],
      [
        'a bool into int64',
        SCALARS,
        { f_int64: true },
        'field f_int64: expected int64 (an integer or a decimal string), got a boolean',
      ],
      ['a number into bool', SCALARS, { f_bool: 1 }, 'field f_bool: expected bool, got a number'],
      ['a number into string', SCALARS, { f_string: 1 }, 'field f_string: expected string, got a number'],
      [
        'a lone surrogate',
        SCALARS,
        { f_string: 'a\ud800b' },
        'field f_string: expected string, got a string with a lone surrogate (not Unicode)',
      ],
      [
        'bad base64',
        SCALARS,
        { f_bytes: 'a b=' },
        'field f_bytes: expected bytes (base64 text), got a string that is not base64',
      ],
      [
        'base64 of a bad length',
        SCALARS,
        { f_bytes: 'abcde' },
        'field f_bytes: expected bytes (base64 text), got a string that is not base64',
      ],
      [
        'other text into double',
        SCALARS,
        { f_double: '1.5' },
        'field f_double: expected double (a number, "NaN", "Infinity" or "-Infinity"), got a string',
      ],
      ['a float out of range', SCALARS, { f_float: 1e39 }, 'field f_float: out of range for float'],
      [
        'an unknown enum name',
        KITCHEN,
        { status: 'STATUS_SECRET' },
        'field status: expected enum streamroute.test.shared.Status, got a string that is not one of its names',
      ],
      [
        'an enum number out of int32',
        KITCHEN,
        { status: 2 ** 31 },
        'field status: out of range for enum streamroute.test.shared.Status',
      ],
      [
        'an enum as a bool',
        KITCHEN,
        { level: true },
        'field level: expected enum streamroute.test.v1.Kitchen.Level (a name or an int32 number), got a boolean',
      ],
      [
        'a string for a message',
        KITCHEN,
        { total: 'x' },
        'field total: expected message common.v1.Money (an object), got a string',
      ],
      [
        'an array for a message',
        KITCHEN,
        { items: [[]] },
        'field items[0]: expected message streamroute.test.v1.LineItem (an object), got an array',
      ],
      [
        'an object for a repeated field',
        REPEATS,
        { r_int32: {} },
        'field r_int32: expected repeated int32 (an array), got an object',
      ],
      ['null in an array', REPEATS, { r_int32: [1, null] }, 'field r_int32[1]: expected int32, got null'],
      [
        'a bad unpacked element',
        REPEATS,
        { u_int64: [1, 'x'] },
        'field u_int64[1]: expected int64, got a string that is not a decimal integer',
      ],
      [
        'an array for a map',
        MAPS,
        { counts: [] },
        'field counts: expected map<string, int64> (an object), got an array',
      ],
      [
        'a map key that is not decimal',
        MAPS,
        { names: { one: 'x' } },
        'field names.key: expected a map key of type int32 (decimal text), got another string',
      ],
      [
        'a map key out of range',
        MAPS,
        { names: { '2147483648': 'x' } },
        'field names.key: out of range for int32',
      ],
      [
        'a bool map key that is not a bool',
        MAPS,
        { by_flag: { yes: 'x' } },
        'field by_flag.key: expected a map key of type bool ("true" or "false"), got another string',
      ],
      [
        'null as a map value',
        MAPS,
        { counts: { a: null } },
        'field counts.value: expected int64 (an integer or a decimal string), got null',
      ],
      [
        'a bad map message value',
        MAPS,
        { items: { '1': { price: { units: 'x' } } } },
        'field items.value.price.units: expected int64, got a string that is not a decimal integer',
      ],
      [
        'an unknown key in a map value',
        MAPS,
        { tags: { a: { colour: 1 } } },
        'field tags.value: key 1 of the object is not a field of message streamroute.test.shared.Tag',
      ],
    ];
    for (const [name, type, value, reason] of cases) {
      it(name, () => assert.equal(failure(type, value), reason));
    }

    it('never quotes values in a reason', () => {
      for (const value of [
        { f_int32: 'SECRET' },
        { f_bytes: 'SECRET!' },
        { f_string: 1234567 },
        { f_uint64: '99999999999999999999' },
      ]) {
        assert.doesNotMatch(failure(SCALARS, value), /SECRET|1234567|99999/);
      }
      assert.doesNotMatch(failure(KITCHEN, { status: 'SECRET' }), /SECRET/);
    });

    it('names an unknown key by its position, never by its text', () => {
      assert.equal(
        failure(KITCHEN, { ['k'.repeat(500)]: 1 }),
        'key 1 of the object is not a field of message streamroute.test.v1.Kitchen',
      );
    });
  });

  it('recovers after a failure: the shared writer starts afresh', () => {
    failure(KITCHEN, { id: 'abc', items: [{ sku: 'half-written' }, { sku: 5 }] });
    assert.deepEqual(encode(KITCHEN, { id: 'x' }), len(1, utf8('x')));
  });
});

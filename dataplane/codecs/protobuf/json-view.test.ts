import assert from 'node:assert/strict';
import { parseJsonValue, type JsonObject } from '../json-value.js';
import { jsonView } from './json-view.js';
import { bytes, len, tag, utf8, varint, vint } from './testdata/wire-bytes.js';
import { messageType } from './testdata/test-messages.js';

const KITCHEN = messageType('streamroute.test.v1.Kitchen');
const SCALARS = messageType('streamroute.test.v1.Scalars');
const REPEATS = messageType('streamroute.test.v1.Repeats');
const MAPS = messageType('streamroute.test.v1.Maps');
const TREE = messageType('streamroute.test.v1.Tree');

function text(type = KITCHEN, payload: Uint8Array = new Uint8Array()): string {
  const result = jsonView(type, payload);
  assert.ok('text' in result, 'error' in result ? result.error.reason : '');
  return result.text;
}

function view(type = KITCHEN, payload: Uint8Array = new Uint8Array()): JsonObject {
  return parseJsonValue(text(type, payload)) as JsonObject;
}

function failure(type: typeof KITCHEN, payload: Uint8Array): string {
  const result = jsonView(type, payload);
  assert.ok('error' in result, 'expected a message error');
  assert.equal(result.error.code, 'SR3016');
  return result.error.reason;
}

/** Tree nested `depth` messages deep below the top level, through field `child`. */
function tree(depth: number): Uint8Array {
  let inner = bytes(vint(1, 7));
  for (let i = 0; i < depth; i++) inner = len(2, inner);
  return inner;
}

describe('protobuf JSON view', () => {
  describe('defaults and presence', () => {
    it('shows every field without presence at its default, in declaration order, with proto names', () => {
      assert.equal(
        text(SCALARS),
        '{"f_double":0,"f_float":0,"f_int32":0,"f_int64":0,"f_uint32":0,"f_uint64":0,"f_sint32":0,' +
          '"f_sint64":0,"f_fixed32":0,"f_fixed64":0,"f_sfixed32":0,"f_sfixed64":0,"f_bool":false,' +
          '"f_string":"","f_bytes":""}',
      );
    });

    it('leaves out unset fields with presence: messages, oneof members, proto3 optional', () => {
      assert.deepEqual(Object.keys(view()), ['id', 'items', 'status', 'level', 'count', 'tags', 'last']);
      const shown = view();
      assert.deepEqual(shown.items, []);
      assert.equal(shown.status, 'STATUS_UNSPECIFIED');
      assert.equal(shown.level, 'LEVEL_UNSPECIFIED');
      assert.equal(shown.count, 0);
    });

    it('shows a proto3 optional field set to its default, and a oneof member set to its default', () => {
      const shown = view(KITCHEN, bytes(vint(13, 0), len(14), vint(15, 0), vint(12, 0)));
      assert.equal(shown.maybe_count, 0);
      assert.equal(shown.maybe_note, '');
      assert.equal(shown.maybe_status, 'STATUS_UNSPECIFIED');
      assert.equal(shown.voucher, 0);
    });

    it('shows an empty nested message as an object of defaults', () => {
      assert.deepEqual(view(KITCHEN, len(6)).total, { currency_code: '', units: 0 });
    });

    it('shows repeated fields as [] and maps as {} when absent', () => {
      const shown = view(MAPS);
      assert.deepEqual(shown.counts, {});
      assert.deepEqual(view(REPEATS).r_int64, []);
    });
  });

  describe('scalars', () => {
    it('writes 64-bit integers as JSON numbers with every digit', () => {
      const payload = bytes(
        vint(4, -9223372036854775808n),
        vint(6, 18446744073709551615n),
        vint(8, 0xffffffffffffffffn), // zig-zag: the most negative sint64
        tag(10, 1),
        [0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff],
        tag(12, 1),
        [0, 0, 0, 0, 0, 0, 0, 0x80],
      );
      const shown = text(SCALARS, payload);
      assert.match(shown, /"f_int64":-9223372036854775808,/);
      assert.match(shown, /"f_uint64":18446744073709551615,/);
      assert.match(shown, /"f_sint64":-9223372036854775808,/);
      assert.match(shown, /"f_fixed64":18446744073709551615,/);
      assert.match(shown, /"f_sfixed64":-9223372036854775808,/);
    });

    it('keeps 2^53 + 1 exact, and small negatives small', () => {
      const shown = view(SCALARS, bytes(vint(4, 2n ** 53n + 1n), vint(6, 2n ** 53n + 1n), vint(8, 3)));
      assert.equal(shown.f_int64, 2n ** 53n + 1n);
      assert.equal(shown.f_uint64, 2n ** 53n + 1n);
      assert.equal(shown.f_sint64, -2);
      assert.equal(view(SCALARS, bytes(vint(4, -(2n ** 53n - 1n)))).f_int64, -(2 ** 53 - 1));
    });

    it('reads 32-bit integers from their low bits (negative int32 takes ten bytes)', () => {
      const shown = view(
        SCALARS,
        bytes(vint(3, -1), vint(5, 0xffffffff), vint(7, 1), tag(11, 5), [0xfe, 0xff, 0xff, 0xff]),
      );
      assert.equal(shown.f_int32, -1);
      assert.equal(shown.f_uint32, 4294967295);
      assert.equal(shown.f_sint32, -1);
      assert.equal(shown.f_sfixed32, -2);
    });

    it('writes floats in their shortest text and the IEEE specials as strings', () => {
      const float = (value: number): number[] => {
        const buffer = Buffer.alloc(4);
        buffer.writeFloatLE(value);
        return [...tag(2, 5), ...buffer];
      };
      const double = (value: number): number[] => {
        const buffer = Buffer.alloc(8);
        buffer.writeDoubleLE(value);
        return [...tag(1, 1), ...buffer];
      };
      assert.equal(view(SCALARS, bytes(float(0.1))).f_float, 0.1);
      assert.equal(view(SCALARS, bytes(float(3.4028234663852886e38))).f_float, 3.4028235e38);
      assert.equal(view(SCALARS, bytes(float(NaN))).f_float, 'NaN');
      assert.equal(view(SCALARS, bytes(double(Infinity))).f_double, 'Infinity');
      assert.equal(view(SCALARS, bytes(double(-Infinity))).f_double, '-Infinity');
      assert.match(text(SCALARS, bytes(double(-0))), /"f_double":-0,/);
      assert.equal(view(SCALARS, bytes(double(Number.MIN_VALUE))).f_double, Number.MIN_VALUE);
    });

    it('writes bools from any varint, strings as JSON strings, bytes as standard base64', () => {
      const shown = view(
        SCALARS,
        bytes(vint(13, 2n ** 40n), len(14, utf8('é "\n\u2028')), len(15, [0xfb, 0xff])),
      );
      assert.equal(shown.f_bool, true);
      assert.equal(shown.f_string, 'é "\n\u2028');
      assert.equal(shown.f_bytes, '+/8=');
    });

    it('keeps a leading byte order mark in a string (regression: TextDecoder strips it by default)', () => {
      assert.equal(view(SCALARS, len(14, utf8('\ufeffx'))).f_string, '\ufeffx');
    });
  });

  describe('enums', () => {
    it('writes names, the first name of aliases, and an unknown number as the number', () => {
      assert.equal(view(KITCHEN, bytes(vint(7, 1))).status, 'STATUS_OPEN');
      assert.equal(view(KITCHEN, bytes(vint(7, 2))).status, 'STATUS_CLOSED');
      assert.equal(view(KITCHEN, bytes(vint(7, -1))).status, 'STATUS_NEGATIVE');
      assert.equal(view(KITCHEN, bytes(vint(7, 42))).status, 42);
      assert.equal(view(KITCHEN, bytes(vint(7, -42))).status, -42);
      assert.equal(view(KITCHEN, bytes(vint(9, 2))).level, 'LEVEL_HIGH');
    });
  });

  describe('repeated fields', () => {
    it('accepts packed and unpacked encodings of the same field, in wire order', () => {
      const payload = bytes(len(3, varint(1), varint(-1)), vint(3, 300), len(3), len(3, varint(5)));
      assert.deepEqual(view(REPEATS, payload).r_int32, [1, -1, 300, 5]);
      assert.deepEqual(view(REPEATS, bytes(vint(17, 1), len(17, varint(2), varint(3)))).u_int64, [1, 2, 3]);
    });

    it('reads packed fixed-width values, bools and enums', () => {
      const payload = bytes(
        len(9, [1, 0, 0, 0], [0xff, 0xff, 0xff, 0xff]),
        len(12, [0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff]),
        len(13, 1, 0, 7),
        len(14, varint(1), varint(99)),
      );
      const shown = view(REPEATS, payload);
      assert.deepEqual(shown.r_fixed32, [1, 4294967295]);
      assert.deepEqual(shown.r_sfixed64, [-1]);
      assert.deepEqual(shown.r_bool, [true, false, true]);
      assert.deepEqual(shown.r_status, ['STATUS_OPEN', 99]);
    });

    it('writes repeated messages, strings and bytes as arrays', () => {
      const payload = bytes(len(5, len(1, utf8('a'))), len(5), len(18, len(1, utf8('k'))));
      const shown = view(KITCHEN, payload);
      assert.deepEqual(shown.items, [
        { sku: 'a', quantity: 0 },
        { sku: '', quantity: 0 },
      ]);
      assert.deepEqual(shown.tags, [{ key: 'k', value: '' }]);
      assert.deepEqual(view(REPEATS, bytes(len(15, utf8('x')), len(15))).r_string, ['x', '']);
    });
  });

  describe('maps', () => {
    it('writes maps as objects with keys as text', () => {
      const payload = bytes(
        len(1, len(1, utf8('a')), vint(2, -1)),
        len(2, vint(1, -5), len(2, utf8('five'))),
        len(3, vint(1, 2n ** 63n - 1n), vint(2, 1)),
        len(12, vint(1, 1), len(2, utf8('yes'))),
        len(5, vint(1, 2n ** 64n - 1n), len(2, len(1, utf8('s')))),
        len(6, vint(1, 5), vint(2, 2)),
      );
      const shown = view(MAPS, payload);
      assert.deepEqual(shown.counts, { a: -1 });
      assert.deepEqual(shown.names, { '-5': 'five' });
      assert.deepEqual(shown.flags, { '9223372036854775807': true });
      assert.deepEqual(shown.by_flag, { true: 'yes' });
      assert.deepEqual(shown.items, { '18446744073709551615': { sku: 's', quantity: 0 } });
      assert.deepEqual(shown.statuses, { '-3': 'STATUS_CLOSED' });
    });

    it('uses the default for a missing key or value, and the last entry for a repeated key', () => {
      const payload = bytes(
        len(1),
        len(1, len(1, utf8('a')), vint(2, 1)),
        len(1, len(1, utf8('a')), vint(2, 2)),
      );
      assert.deepEqual(view(MAPS, payload).counts, { '': 0, a: 2 });
      // A missing message value is an empty message: the same view as one present and empty (regression:
      // it was {}, so the view written back and read again was not the same).
      const emptyValue = view(MAPS, len(5, vint(1, 3), len(2))).items;
      assert.deepEqual(view(MAPS, len(5, vint(1, 3))).items, emptyValue);
      assert.notDeepEqual(emptyValue, { '3': {} });
    });

    it('skips unknown fields inside an entry', () => {
      assert.deepEqual(view(MAPS, len(2, vint(9, 1), vint(1, 4), len(2, utf8('x')))).names, { '4': 'x' });
    });
  });

  describe('merging like protoc', () => {
    it('takes the last value of a singular field', () => {
      assert.equal(view(KITCHEN, bytes(len(1, utf8('a')), len(1, utf8('b')))).id, 'b');
    });

    it('merges a message field that occurs twice', () => {
      const payload = bytes(len(6, len(1, utf8('EUR'))), len(6, vint(2, 5)));
      assert.deepEqual(view(KITCHEN, payload).total, { currency_code: 'EUR', units: 5 });
    });

    it('keeps only the last member of a oneof', () => {
      const shown = view(KITCHEN, bytes(len(10, utf8('tok')), len(11, vint(2, 1)), vint(12, 9)));
      assert.equal(shown.voucher, 9);
      assert.equal('card_token' in shown, false);
      assert.equal('cash' in shown, false);
      const merged = view(KITCHEN, bytes(len(11, vint(2, 1)), len(11, len(1, utf8('EUR')))));
      assert.deepEqual(merged.cash, { currency_code: 'EUR', units: 1 });
    });
  });

  describe('unknown fields', () => {
    it('skips unknown fields of every wire type, groups included', () => {
      const payload = bytes(
        vint(100, 1),
        tag(101, 1),
        [1, 2, 3, 4, 5, 6, 7, 8],
        len(102, 1, 2, 3),
        tag(103, 5),
        [1, 2, 3, 4],
        tag(104, 3),
        vint(1, 5),
        tag(105, 3),
        tag(105, 4),
        tag(104, 4),
        len(1, utf8('kept')),
      );
      assert.equal(view(KITCHEN, payload).id, 'kept');
    });

    it('reads the largest field number (a five-byte tag)', () => {
      assert.equal(view(KITCHEN, len(536870911, utf8('z'))).last, 'z');
    });
  });

  describe('bad payloads are one SR3016 error that says what failed', () => {
    const cases: [string, typeof KITCHEN, Uint8Array, RegExp][] = [
      ['a truncated varint', SCALARS, bytes(tag(3, 0), 0x80), /^field f_int32: truncated/],
      ['a truncated length', KITCHEN, bytes(tag(1, 2), 5, 0x61), /^field id: truncated/],
      ['a truncated fixed64', SCALARS, bytes(tag(10, 1), 1, 2, 3), /^field f_fixed64: truncated/],
      ['a truncated nested field', KITCHEN, len(5, tag(1, 2), 9), /^field items\[0\]\.sku: truncated/],
      ['a truncated tag', KITCHEN, bytes(0x80), /^truncated/],
      [
        'a wrong wire type',
        SCALARS,
        bytes(tag(3, 2), 0),
        /^field f_int32: wire type 2 where int32 expects wire type 0$/,
      ],
      [
        'a string as a varint',
        KITCHEN,
        bytes(vint(1, 5)),
        /^field id: wire type 0 where string expects wire type 2$/,
      ],
      ['a packed string', REPEATS, bytes(tag(15, 0), 1), /^field r_string\[0\]: wire type 0/],
      ['a map entry that is not length-delimited', MAPS, bytes(vint(1, 1)), /^field counts: wire type 0/],
      ['a map key of the wrong wire type', MAPS, len(1, vint(1, 1)), /^field counts\.key: wire type 0/],
      [
        'a message as a varint',
        KITCHEN,
        bytes(vint(6, 1)),
        /^field total: wire type 0 where message common\.v1\.Money/,
      ],
      [
        'invalid wire type 6',
        KITCHEN,
        bytes(tag(100, 6)),
        /^field \(an unknown field\): invalid wire type 6$/,
      ],
      ['invalid wire type 7', KITCHEN, bytes(tag(1, 7)), /^field id: wire type 7/],
      ['field number 0', KITCHEN, bytes(0x00, 0x01), /^field number 0/],
      [
        'an end-group tag alone',
        KITCHEN,
        bytes(tag(100, 4)),
        /^field \(an unknown field\): an end-group tag without its start$/,
      ],
      [
        'an unclosed group',
        KITCHEN,
        bytes(tag(100, 3), vint(1, 1)),
        /^field \(an unknown field\): truncated/,
      ],
      [
        'a mismatched end group',
        KITCHEN,
        bytes(tag(100, 3), tag(101, 4)),
        /end-group tag that does not match/,
      ],
      [
        'a varint of 11 bytes',
        SCALARS,
        bytes(tag(4, 0), Array(10).fill(0xff), 1),
        /^field f_int64: a varint is longer than 10 bytes$/,
      ],
      [
        'a string that is not UTF-8',
        KITCHEN,
        len(1, 0xc3, 0x28),
        /^field id: a string that is not valid UTF-8$/,
      ],
      ['a nested message past its parent', KITCHEN, len(6, len(1, 1, 2)).subarray(0, 4), /^field total/],
      ['packed values past their length', REPEATS, len(9, 1, 2, 3), /^field r_fixed32\[0\]: truncated/],
      ['a length beyond 2^32', KITCHEN, bytes(tag(1, 2), varint(2n ** 33n)), /^field id: truncated/],
    ];
    for (const [name, type, payload, reason] of cases) {
      it(name, () => assert.match(failure(type, payload), reason));
    }

    it('never quotes payload values in a reason', () => {
      const secret = utf8('SECRET-4111111111111111');
      for (const payload of [
        bytes(len(1, secret), vint(7, 1), tag(1, 0)),
        bytes(len(5, len(1, secret), tag(2, 1), 1)),
      ]) {
        assert.doesNotMatch(failure(KITCHEN, payload), /SECRET|4111/);
      }
    });
  });

  describe('nesting limit', () => {
    it('reads messages nested 100 deep', () => {
      let shown = view(TREE, tree(100));
      for (let i = 0; i < 100; i++) shown = shown.child as JsonObject;
      assert.equal(shown.value, 7);
    });

    it('refuses messages nested deeper than 100', () => {
      assert.match(failure(TREE, tree(101)), /messages nested deeper than 100$/);
      assert.match(failure(TREE, tree(1000)), /^field child\.child\./);
    });

    it('refuses unknown groups nested deeper than 100', () => {
      const open = Array.from({ length: 102 }, () => tag(100, 3)).flat();
      const close = Array.from({ length: 102 }, () => tag(100, 4)).flat();
      assert.match(failure(KITCHEN, bytes(open, close)), /groups nested deeper than 100$/);
    });

    it('counts groups inside nested messages against the same limit', () => {
      let inner = bytes(
        Array.from({ length: 60 }, () => tag(100, 3)).flat(),
        Array.from({ length: 60 }, () => tag(100, 4)).flat(),
      );
      for (let i = 0; i < 60; i++) inner = len(2, inner);
      assert.match(failure(TREE, inner), /groups nested deeper than 100$/);
    });
  });

  it('reads a Buffer and a view into a larger buffer', () => {
    const backing = Buffer.from([0xff, ...len(1, utf8('x')), 0xff]);
    assert.equal(view(KITCHEN, backing.subarray(1, backing.length - 1)).id, 'x');
    assert.equal(view(KITCHEN, new Uint8Array(backing.buffer, backing.byteOffset + 1, 3)).id, 'x');
  });
});

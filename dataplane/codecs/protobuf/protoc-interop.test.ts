// Interop with the real protoc: what protoc encodes, jsonView reads field by field (64-bit extremes
// included); what fromJsonView encodes, protoc decodes to the expected text format. Without protoc the
// suite skips with a message, except under CI, where a missing protoc fails it.
import assert from 'node:assert/strict';
import { parseJsonValue, type JsonObject, type JsonValue } from '../json-value.js';
import { fromJsonView } from './from-json-view.js';
import { jsonView } from './json-view.js';
import { protocDecode, protocEncode, protocVersion } from './testdata/protoc.js';
import { messageType } from './testdata/test-messages.js';

const KITCHEN = 'streamroute.test.v1.Kitchen';

function viewOf(message: string, bytes: Uint8Array, file?: string): JsonObject {
  const result = jsonView(messageType(message, file), bytes);
  assert.ok('text' in result, 'error' in result ? result.error.reason : '');
  return parseJsonValue(result.text) as JsonObject;
}

function encoded(message: string, value: JsonValue, file?: string): Uint8Array {
  const result = fromJsonView(messageType(message, file), value);
  assert.ok('bytes' in result, 'error' in result ? result.error.reason : '');
  return result.bytes;
}

const MINIMA = `
scalars {
  f_double: -1.5e300  f_float: -3.4028235e38
  f_int32: -2147483648  f_int64: -9223372036854775808  f_uint32: 0  f_uint64: 0
  f_sint32: -2147483648  f_sint64: -9223372036854775808
  f_fixed32: 0  f_fixed64: 0  f_sfixed32: -2147483648  f_sfixed64: -9223372036854775808
  f_bool: false  f_string: ""  f_bytes: ""
}`;

const MAXIMA = `
scalars {
  f_double: 1.7976931348623157e308  f_float: 0.1
  f_int32: 2147483647  f_int64: 9223372036854775807  f_uint32: 4294967295  f_uint64: 18446744073709551615
  f_sint32: 2147483647  f_sint64: 9223372036854775807
  f_fixed32: 4294967295  f_fixed64: 18446744073709551615  f_sfixed32: 2147483647  f_sfixed64: 9223372036854775807
  f_bool: true  f_string: "h\\303\\251llo \\"q\\"\\n"  f_bytes: "\\000\\001\\373\\377"
}`;

describe('protobuf JSON view against protoc', function () {
  before(function () {
    const version = protocVersion();
    if (version !== undefined) return;
    if (process.env.CI)
      throw new Error('protoc is not installed; CI runs the protobuf interop tests with it');
    console.warn(
      '      protoc not found: the protobuf interop tests are skipped (apt-get install protobuf-compiler)',
    );
    this.skip();
  });

  describe('protoc --encode → jsonView', () => {
    it('reads the minima of every scalar type, 64-bit ones with every digit', () => {
      const view = viewOf(KITCHEN, protocEncode(KITCHEN, MINIMA));
      assert.deepEqual(view.scalars, {
        f_double: -1.5e300,
        f_float: -3.4028235e38,
        f_int32: -2147483648,
        f_int64: -9223372036854775808n,
        f_uint32: 0,
        f_uint64: 0,
        f_sint32: -2147483648,
        f_sint64: -9223372036854775808n,
        f_fixed32: 0,
        f_fixed64: 0,
        f_sfixed32: -2147483648,
        f_sfixed64: -9223372036854775808n,
        f_bool: false,
        f_string: '',
        f_bytes: '',
      });
    });

    it('reads the maxima of every scalar type, 64-bit ones with every digit', () => {
      const view = viewOf(KITCHEN, protocEncode(KITCHEN, MAXIMA));
      assert.deepEqual(view.scalars, {
        f_double: 1.7976931348623157e308,
        f_float: 0.1,
        f_int32: 2147483647,
        f_int64: 9223372036854775807n,
        f_uint32: 4294967295,
        f_uint64: 18446744073709551615n,
        f_sint32: 2147483647,
        f_sint64: 9223372036854775807n,
        f_fixed32: 4294967295,
        f_fixed64: 18446744073709551615n,
        f_sfixed32: 2147483647,
        f_sfixed64: 9223372036854775807n,
        f_bool: true,
        f_string: 'héllo "q"\n',
        f_bytes: 'AAH7/w==',
      });
    });

    it('keeps the digits of 64-bit values just past 2^53 in the text itself', () => {
      const bytes = protocEncode(KITCHEN, 'scalars { f_int64: 9007199254740993 f_uint64: 9007199254740993 }');
      const result = jsonView(messageType(KITCHEN), bytes);
      assert.ok('text' in result);
      assert.match(result.text, /"f_int64":9007199254740993,/);
      assert.match(result.text, /"f_uint64":9007199254740993,/);
    });

    it('reads floating-point specials as proto3 JSON strings', () => {
      const bytes = protocEncode(
        KITCHEN,
        'scalars { f_double: nan f_float: -inf } repeats { r_double: [inf, -0] }',
      );
      const view = viewOf(KITCHEN, bytes);
      assert.equal((view.scalars as JsonObject).f_double, 'NaN');
      assert.equal((view.scalars as JsonObject).f_float, '-Infinity');
      assert.deepEqual((view.repeats as JsonObject).r_double, ['Infinity', -0]);
    });

    it('reads repeated fields packed (proto3 default) and unpacked, enums, maps, oneof and optional', () => {
      const text = `
        id: "k-1"
        repeats { r_int32: [1, -1, 300] r_sint64: [-9223372036854775808, 5] r_bool: [true, false]
                  r_status: [STATUS_OPEN, STATUS_DONE] r_string: ["a", "b"] u_int64: [9223372036854775807, 7]
                  u_float: [1.5] u_status: [STATUS_CLOSED] r_fixed64: [18446744073709551615] }
        maps { counts { key: "a" value: -1 } names { key: -5 value: "x" } flags { key: 9223372036854775807 value: true }
               items { key: 18446744073709551615 value { sku: "s" quantity: 2 } } by_flag { key: true value: "t" }
               statuses { key: -3 value: STATUS_OPEN } f64 { key: 18446744073709551615 value: "max" } }
        items { sku: "a" quantity: 1 price { currency_code: "EUR" units: -9223372036854775808 } }
        items { sku: "b" }
        status: STATUS_DONE
        note { text: "n" level: LEVEL_HIGH }
        cash { units: 3 }
        maybe_count: 0
        maybe_big: 18446744073709551615
        last: "z"`;
      const view = viewOf(KITCHEN, protocEncode(KITCHEN, text));
      const repeats = view.repeats as JsonObject;
      assert.deepEqual(repeats.r_int32, [1, -1, 300]);
      assert.deepEqual(repeats.r_sint64, [-9223372036854775808n, 5]);
      assert.deepEqual(repeats.r_bool, [true, false]);
      assert.deepEqual(repeats.r_status, ['STATUS_OPEN', 'STATUS_CLOSED']);
      assert.deepEqual(repeats.r_string, ['a', 'b']);
      assert.deepEqual(repeats.u_int64, [9223372036854775807n, 7]);
      assert.deepEqual(repeats.u_float, [1.5]);
      assert.deepEqual(repeats.u_status, ['STATUS_CLOSED']);
      assert.deepEqual(repeats.r_fixed64, [18446744073709551615n]);
      const maps = view.maps as JsonObject;
      assert.deepEqual(maps.counts, { a: -1 });
      assert.deepEqual(maps.names, { '-5': 'x' });
      assert.deepEqual(maps.flags, { '9223372036854775807': true });
      assert.deepEqual(maps.items, { '18446744073709551615': { sku: 's', quantity: 2 } });
      assert.deepEqual(maps.by_flag, { true: 't' });
      assert.deepEqual(maps.statuses, { '-3': 'STATUS_OPEN' });
      assert.deepEqual(maps.f64, { '18446744073709551615': 'max' });
      assert.deepEqual(view.items, [
        { sku: 'a', quantity: 1, price: { currency_code: 'EUR', units: -9223372036854775808n } },
        { sku: 'b', quantity: 0 },
      ]);
      assert.equal(view.status, 'STATUS_CLOSED');
      assert.deepEqual(view.note, { text: 'n', level: 'LEVEL_HIGH' });
      assert.deepEqual(view.cash, { currency_code: '', units: 3 });
      assert.equal(view.maybe_count, 0);
      assert.equal(view.maybe_big, 18446744073709551615n);
      assert.equal('maybe_note' in view, false);
      assert.equal('card_token' in view, false);
      assert.equal(view.last, 'z');
    });

    it('reads the example messages of examples/full/protos (an import across roots)', () => {
      const file = 'orders/v1/order.proto';
      const order = protocEncode('orders.v1.Order', 'order_id: "o-1" amount: -42 card_number: ""', file);
      assert.deepEqual(viewOf('orders.v1.Order', order, file), {
        order_id: 'o-1',
        customer: '',
        amount: -42,
        currency: '',
        card_number: '',
      });
      const refund = protocEncode(
        'orders.v1.Refund',
        'order_id: "o-1" refunded { units: 9223372036854775807 }',
        file,
      );
      assert.deepEqual(viewOf('orders.v1.Refund', refund, file), {
        order_id: 'o-1',
        refunded: { currency_code: '', units: 9223372036854775807n },
      });
    });
  });

  describe('fromJsonView → protoc --decode', () => {
    it('writes every scalar type at its extremes as protoc reads them', () => {
      const value = parseJsonValue(`{"scalars": {
        "f_double": -1.5e300, "f_float": 0.1, "f_int32": -2147483648, "f_int64": -9223372036854775808,
        "f_uint32": 4294967295, "f_uint64": 18446744073709551615, "f_sint32": -2147483648,
        "f_sint64": "9223372036854775807", "f_fixed32": 4294967295, "f_fixed64": "18446744073709551615",
        "f_sfixed32": -2147483648, "f_sfixed64": -9223372036854775808, "f_bool": true,
        "f_string": "héllo \\"q\\"\\n", "f_bytes": "AAH7/w=="}}`);
      assert.equal(
        protocDecode(KITCHEN, encoded(KITCHEN, value)),
        `scalars {
  f_double: -1.5e+300
  f_float: 0.1
  f_int32: -2147483648
  f_int64: -9223372036854775808
  f_uint32: 4294967295
  f_uint64: 18446744073709551615
  f_sint32: -2147483648
  f_sint64: 9223372036854775807
  f_fixed32: 4294967295
  f_fixed64: 18446744073709551615
  f_sfixed32: -2147483648
  f_sfixed64: -9223372036854775808
  f_bool: true
  f_string: "h\\303\\251llo \\"q\\"\\n"
  f_bytes: "\\000\\001\\373\\377"
}
`,
      );
    });

    it('writes the bytes protoc writes for a message it read (fields in number order)', () => {
      const original = protocEncode(KITCHEN, MAXIMA);
      assert.deepEqual(encoded(KITCHEN, viewOf(KITCHEN, original)), original);
      const minima = protocEncode(KITCHEN, MINIMA);
      assert.deepEqual(encoded(KITCHEN, viewOf(KITCHEN, minima)), minima);
    });

    it('writes repeated fields, maps, enums by name and number, oneof, optional and specials', () => {
      const value = parseJsonValue(`{
        "repeats": {"r_int32": [1, -1], "u_int64": ["-9223372036854775808"], "r_status": ["STATUS_OPEN", 2, 9],
                    "r_double": ["NaN", "Infinity", "-Infinity"], "r_bytes": ["-_8", "+/8="]},
        "maps": {"counts": {"b": 2, "a": 1}, "items": {"18446744073709551615": {"sku": "s"}},
                 "by_flag": {"false": "f"}, "statuses": {"-3": "STATUS_CLOSED"}},
        "status": "STATUS_DONE", "voucher": "18446744073709551615", "maybe_count": 0, "count": 0,
        "note": {"level": 1}}`);
      assert.equal(
        protocDecode(KITCHEN, encoded(KITCHEN, value)),
        `repeats {
  r_double: nan
  r_double: inf
  r_double: -inf
  r_int32: 1
  r_int32: -1
  r_status: STATUS_OPEN
  r_status: STATUS_CLOSED
  r_status: 9
  r_bytes: "\\373\\377"
  r_bytes: "\\373\\377"
  u_int64: -9223372036854775808
}
maps {
  counts {
    key: "a"
    value: 1
  }
  counts {
    key: "b"
    value: 2
  }
  items {
    key: 18446744073709551615
    value {
      sku: "s"
    }
  }
  statuses {
    key: -3
    value: STATUS_CLOSED
  }
  by_flag {
    key: false
    value: "f"
  }
}
status: STATUS_CLOSED
note {
  level: LEVEL_LOW
}
voucher: 18446744073709551615
maybe_count: 0
`,
      );
    });

    it('writes the example Order of examples/full/protos', () => {
      const file = 'orders/v1/order.proto';
      const value = {
        order_id: 'o-1',
        customer: 'ann',
        amount: -42,
        currency: 'EUR',
        card_number: null,
        placed_at: '',
      };
      assert.equal(
        protocDecode('orders.v1.Order', encoded('orders.v1.Order', value, file), file),
        'order_id: "o-1"\ncustomer: "ann"\namount: -42\ncurrency: "EUR"\nplaced_at: ""\n',
      );
    });
  });
});

// Properties of both directions: hostile bytes never throw or hang (a view or one SR3016), and a view
// survives the way back and forth unchanged.
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { parseJsonValue, type JsonObject, type JsonValue } from '../json-value.js';
import { fromJsonView } from './from-json-view.js';
import { assertSameView } from '../../../test/fixtures/payload-formats.js';
import { jsonValueView, jsonView } from './json-view.js';
import { Shape, fieldById, planFor, type MessagePlan } from './message-plan.js';
import { Wire } from './scalar-kinds.js';
import { message, normalise } from './testdata/view-arbitrary.js';
import { bytes, len, tag, varint, vint } from './testdata/wire-bytes.js';
import { messageType } from './testdata/test-messages.js';

const KITCHEN = messageType('streamroute.test.v1.Kitchen');
const TREE = messageType('streamroute.test.v1.Tree');
const ORDER = messageType('streamroute.test.v1.Order');
const PLAN = planFor(KITCHEN);

function encode(type: typeof KITCHEN, value: JsonValue): Uint8Array {
  const result = fromJsonView(type, value);
  assert.ok('bytes' in result, 'error' in result ? result.error.reason : '');
  return result.bytes;
}

/**
 * A view (valid JSON) or one SR3016; anything else (a throw) fails the property. The view read as a value
 * must agree: the same error, or parseJsonValue of the text.
 */
function viewOrError(type: typeof KITCHEN, payload: Uint8Array): string | undefined {
  const result = jsonView(type, payload);
  const value = jsonValueView(type, payload);
  assertSameView(
    'error' in result ? result : { inputs: [result.text] },
    'error' in value ? value : { values: [value.value] },
  );
  if ('error' in result) {
    assert.equal(result.error.code, 'SR3016');
    return undefined;
  }
  parseJsonValue(result.text);
  return result.text;
}

/** The message's encoding, one top-level field at a time (they concatenate to the whole). */
function chunks(type: typeof KITCHEN, value: JsonObject): Uint8Array[] {
  return Object.entries(value).map(([key, entry]) => encode(type, { [key]: entry }));
}

/** Kitchen declares the largest field number (`last`); unknown fields stay below it. */
const LAST_ID = 2 ** 29 - 1;

const unknownField = fc.oneof(
  fc
    .tuple(fc.integer({ min: 1000, max: LAST_ID - 1 }), fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }))
    .map(([id, v]) => bytes(vint(id, v))),
  fc
    .tuple(fc.integer({ min: 1000, max: 5000 }), fc.uint8Array({ minLength: 8, maxLength: 8 }))
    .map(([id, v]) => bytes(tag(id, 1), v)),
  fc
    .tuple(fc.integer({ min: 1000, max: 5000 }), fc.uint8Array({ maxLength: 20 }))
    .map(([id, v]) => len(id, v)),
  fc
    .tuple(fc.integer({ min: 1000, max: 5000 }), fc.uint8Array({ minLength: 4, maxLength: 4 }))
    .map(([id, v]) => bytes(tag(id, 5), v)),
  fc
    .tuple(fc.integer({ min: 1000, max: 5000 }), fc.integer({ min: 1, max: 50 }))
    .map(([id, depth]) =>
      bytes(
        Array.from({ length: depth }, () => tag(id, 3)).flat(),
        vint(1, 1),
        Array.from({ length: depth }, () => tag(id, 4)).flat(),
      ),
    ),
);

function acceptsWireType(plan: MessagePlan, id: number, wireType: number): boolean {
  const field = fieldById(plan, id);
  if (field === undefined) return true;
  if (field.shape === Shape.Map) return wireType === Wire.Len;
  return wireType === field.wireType || (field.packable && wireType === Wire.Len);
}

describe('protobuf JSON view properties', () => {
  it('round trip: jsonView(fromJsonView(v)) is v', () => {
    fc.assert(
      fc.property(message(PLAN), (value) => {
        const text = viewOrError(KITCHEN, encode(KITCHEN, value));
        assert.ok(text !== undefined);
        assert.deepEqual(normalise(parseJsonValue(text), PLAN), normalise(value, PLAN));
      }),
      { numRuns: 300 },
    );
  });

  it('round trip through a recursive message', () => {
    const plan = planFor(TREE);
    fc.assert(
      fc.property(message(plan), (value) => {
        assert.deepEqual(parseJsonValue(viewOrError(TREE, encode(TREE, value)) ?? 'null'), value);
      }),
    );
  });

  it('random bytes: a view or SR3016, never a throw', () => {
    for (const type of [KITCHEN, ORDER, TREE]) {
      fc.assert(
        fc.property(fc.uint8Array({ maxLength: 300 }), (payload) => void viewOrError(type, payload)),
        { numRuns: 2000 },
      );
    }
  });

  it('truncation at every offset of a valid message: a view or SR3016', () => {
    fc.assert(
      fc.property(message(PLAN), (value) => {
        const payload = encode(KITCHEN, value);
        for (let end = 0; end < payload.length; end++) viewOrError(KITCHEN, payload.subarray(0, end));
      }),
      { numRuns: 60 },
    );
  });

  it('single-byte corruption of a valid message: a view or SR3016', () => {
    fc.assert(
      fc.property(message(PLAN), fc.nat(), fc.integer({ min: 0, max: 255 }), (value, at, byte) => {
        const payload = encode(KITCHEN, value);
        if (payload.length === 0) return;
        payload[at % payload.length] = byte;
        viewOrError(KITCHEN, payload);
      }),
      { numRuns: 500 },
    );
  });

  it('unknown fields anywhere between fields leave the view unchanged', () => {
    fc.assert(
      fc.property(
        message(PLAN),
        fc.array(unknownField, { minLength: 1, maxLength: 6 }),
        fc.nat(),
        (value, unknown, seed) => {
          const parts: Uint8Array[] = chunks(KITCHEN, value);
          for (const [i, field] of unknown.entries())
            parts.splice((seed + i * 7) % (parts.length + 1), 0, field);
          assert.equal(viewOrError(KITCHEN, bytes(...parts)), viewOrError(KITCHEN, encode(KITCHEN, value)));
        },
      ),
      { numRuns: 200 },
    );
  });

  it('a declared field on a wrong wire type is SR3016', () => {
    fc.assert(
      fc.property(message(PLAN), fc.nat(), fc.integer({ min: 0, max: 5 }), (value, pick, wireType) => {
        const parts = chunks(KITCHEN, value).filter((part) => part.length > 0);
        if (parts.length === 0) return;
        const index = pick % parts.length;
        const part = Uint8Array.from(parts[index]!);
        const id = Number(readVarint(part) >> 3n);
        part[0] = (part[0]! & ~7) | wireType;
        parts[index] = part;
        const text = viewOrError(KITCHEN, bytes(...parts));
        if (!acceptsWireType(PLAN, id, wireType)) assert.equal(text, undefined);
      }),
      { numRuns: 500 },
    );
  });

  it('nesting: a view up to 100 deep, SR3016 beyond, through singular and repeated fields', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 250 }), fc.boolean(), (depth, repeated) => {
        let payload = bytes(vint(1, 1));
        for (let i = 0; i < depth; i++) payload = len(repeated ? 3 : 2, payload);
        const result = jsonView(TREE, payload);
        if (depth <= 100) assert.ok('text' in result);
        else assert.ok('error' in result && /nested deeper than 100/.test(result.error.reason));
      }),
      { numRuns: 60 },
    );
  });

  it('hostile nesting: length prefixes that claim more than they hold, thousands deep', () => {
    const claims = bytes(Array.from({ length: 5000 }, () => [...tag(2, 2), ...varint(0x0fffffff)]).flat());
    assert.ok('error' in jsonView(TREE, claims));
    const groups = bytes(Array.from({ length: 100_000 }, () => tag(9, 3)).flat());
    assert.ok('error' in jsonView(TREE, groups));
  });
});

function readVarint(data: Uint8Array): bigint {
  let value = 0n;
  for (let i = 0; i < 10; i++) {
    const byte = data[i]!;
    value |= BigInt(byte & 0x7f) << BigInt(7 * i);
    if (byte < 0x80) break;
  }
  return value;
}

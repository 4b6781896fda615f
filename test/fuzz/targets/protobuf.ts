// Protobuf wire (dataplane/codecs/protobuf/): bytes decode against a test message to a JSON view or one
// SR3016, never a throw; a view writes back (from-json-view.ts) and reads again as the same JSON value (the
// same view up to the order of map entries, which protobuf leaves unordered). Messages
// are loaded as the data plane loads them (testdata/test-messages.ts): the kitchen sink of every field
// shape, a recursive tree (nesting limits) and the example Order.
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { parseJsonValue } from '../../../dataplane/codecs/json-value.js';
import { fromJsonView } from '../../../dataplane/codecs/protobuf/from-json-view.js';
import { jsonView } from '../../../dataplane/codecs/protobuf/json-view.js';
import { planFor } from '../../../dataplane/codecs/protobuf/message-plan.js';
import { messageType } from '../../../dataplane/codecs/protobuf/testdata/test-messages.js';
import { message } from '../../../dataplane/codecs/protobuf/testdata/view-arbitrary.js';
import { varint } from '../../../dataplane/codecs/protobuf/testdata/wire-bytes.js';
import { filesEnding } from '../seeds.js';
import type { FuzzTarget } from '../target.js';

const TYPES = [
  messageType('streamroute.test.v1.Kitchen'),
  messageType('streamroute.test.v1.Tree'),
  messageType('orders.v1.Order', 'orders/v1/order.proto'),
];

function check(type: (typeof TYPES)[number], input: Uint8Array): boolean {
  const view = jsonView(type, input);
  if ('error' in view) {
    assert.equal(view.error.code, 'SR3016', `unexpected error code ${view.error.code}`);
    return false;
  }
  if (input.length > 64 * 1024) return true; // round trips on small inputs only: a hang is the decoder's own
  const written = fromJsonView(type, parseJsonValue(view.text));
  assert.ok(
    'bytes' in written,
    `a view does not write back: ${'error' in written ? written.error.reason : ''}`,
  );
  const again = jsonView(type, written.bytes);
  assert.ok('text' in again, 'what was written does not read');
  // The same JSON value, not the same text: a map's entries are unordered in protobuf, and the writer takes
  // them in a JavaScript object's key order (integer-like keys first), not in the view text's order.
  assert.deepEqual(
    parseJsonValue(again.text),
    parseJsonValue(view.text),
    'the view changed on write and read',
  );
  return true;
}

/** Wire bytes of generated views of each type (deterministic: a fixed fast-check seed). */
function generatedSeeds(): Uint8Array[] {
  const out: Uint8Array[] = [];
  for (const type of TYPES) {
    for (const value of fc.sample(message(planFor(type)), { seed: 15, numRuns: 30 })) {
      const written = fromJsonView(type, value);
      if ('bytes' in written) out.push(written.bytes);
    }
  }
  return out;
}

/** A Tree nested `depth` levels through field 2 (each level a tag and a length), past any nesting limit. */
function deepTree(depth: number): Uint8Array {
  let inner: number[] = [0x08, 0x01];
  for (let level = 0; level < depth; level++) inner = [0x12, ...varint(inner.length), ...inner];
  return Uint8Array.from(inner);
}

export const target: FuzzTarget = {
  maxBytes: 1024 * 1024,
  bytes: true,
  // Tags of every wire type, varints at the 64-bit edge, lengths that claim too much, group markers.
  tokens: [
    '\x08',
    '\x10',
    '\x12',
    '\x1a',
    '\x22',
    '\x0d',
    '\x09',
    '\x0b',
    '\x0c',
    '\x13',
    '\x14',
    '\x80',
    '\xff',
    '\xff\xff\xff\xff\x0f',
    '\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01',
    '\x80\x80\x80\x80\x80\x80\x80\x80\x80\x80\x01',
    '\xfa\xff\xff\xff\x0f',
    '\x7f',
    '\x00',
    '\x12\x00',
    '\x12\x7f',
    '\x1a\x02\x08\x01',
  ],
  // Tree.child (field 2, length-delimited) nested: each level is a tag and a length.
  nests: [
    ['\x12\x00', ''],
    ['\x1a\x00', ''],
    ['\x13', '\x14'],
  ],
  seeds: () => [...filesEnding(['examples'], ['.pb']), ...generatedSeeds(), deepTree(50), deepTree(2000)],
  run(input) {
    let accepted = false;
    for (const type of TYPES) accepted = check(type, input) || accepted;
    return accepted;
  },
};

// Views read as values on a payload reader thread: what crosses back by structured clone must be what the
// format reads on the event loop — bigints with every digit, an own `__proto__` key (not a prototype),
// U+FFFD for a lone surrogate — and a refusal the same message error.
import assert from 'node:assert/strict';
import { assertPlain, assertSameView } from '../../../test/fixtures/payload-formats.js';
import type { JaqFormat } from '../../graph/types.js';
import { PAYLOAD_FORMATS } from '../formats/index.js';
import type { JsonObject } from '../json-value.js';
import { jsonValueView, jsonView } from '../protobuf/json-view.js';
import { descriptorOf, messageType } from '../protobuf/testdata/test-messages.js';
import { OrderedReads } from './ordered-reads.js';
import { ReaderPool } from './reader-pool.js';
import { readerFor, type ValuesRead, type ViewRead } from './reader-spec.js';

const text = (value: string): Uint8Array => new TextEncoder().encode(value);

/** Each format's payload with a U64, an I64 minimum, an own `__proto__` key and a nested `__proto__`. */
const PAYLOADS: Record<JaqFormat, Uint8Array> = {
  JSON: text('{"__proto__":{"polluted":1},"u":18446744073709551615,"s":"\\ud800x","l":[{"__proto__":[]}]}'),
  YAML: text('__proto__: {polluted: 1}\nu: 18446744073709551615\ns: "\\ud800x"\nl: [{__proto__: []}]\n'),
  TOML: text('u = 18446744073709551615\ni = -9223372036854775808\n[__proto__]\npolluted = 1\n'),
  XML: text('<__proto__ polluted="1"><__proto__>x</__proto__></__proto__>'),
  CBOR: cborPayload(),
};

/** CBOR has no text to write a `__proto__` key in: the writer writes an own one. */
function cborPayload(): Uint8Array {
  const map = { u: 18446744073709551615n, l: [{ a: -(2n ** 64n) }] } as JsonObject;
  Object.defineProperty(map, '__proto__', { value: { polluted: 1 }, enumerable: true, writable: true });
  const written = PAYLOAD_FORMATS.CBOR.write(map);
  assert.ok('bytes' in written);
  return written.bytes;
}

describe('payload readers: views as values', function () {
  this.timeout(30_000);
  let pool: ReaderPool;
  beforeEach(() => {
    pool = new ReaderPool({ workers: 1 });
  });
  afterEach(async () => {
    await pool.close();
  });

  for (const [name, payload] of Object.entries(PAYLOADS) as [JaqFormat, Uint8Array][]) {
    it(`${name}: a thread gives the values the event loop reads, own __proto__ keys and bigints kept`, async () => {
      const format = PAYLOAD_FORMATS[name];
      const values = (await pool.read(
        readerFor({ kind: 'format', format: name, values: true }),
        payload,
      )) as ValuesRead;
      const inline = format.readValues(payload);
      assert.deepEqual(values, inline);
      assertSameView(format.read(payload), values);
      assert.ok('values' in values);
      const [value] = values.values as [JsonObject];
      assertPlain(value);
      const top = name === 'XML' ? (value.__proto__ as JsonObject) : value;
      assert.ok(Object.hasOwn(top, '__proto__'), `${name}: an own __proto__ key`);
      assert.equal(Object.getPrototypeOf(top), Object.prototype);
      assert.equal(({} as { polluted?: unknown }).polluted, undefined);
    });
  }

  it('bigints cross with every digit', async () => {
    const reply = await pool.read(
      readerFor({ kind: 'format', format: 'JSON', values: true }),
      text('[18446744073709551615,-9223372036854775808,9007199254740993,1.5]'),
    );
    assert.deepEqual(reply, {
      values: [[18446744073709551615n, -9223372036854775808n, 9007199254740993n, 1.5]],
      texts: ['[18446744073709551615,-9223372036854775808,9007199254740993,1.5]'],
    });
  });

  it('a refusal on a thread is the same message error as on the event loop', async () => {
    for (const [name, payload] of [
      ['JSON', text('{"a":01}')],
      ['YAML', text('a: [1, 2')],
      ['TOML', text('a = 99999999999999999999')],
      ['XML', text('<a><b></a>')],
      ['CBOR', Uint8Array.of(0x9f, 0x01)],
    ] as [JaqFormat, Uint8Array][]) {
      const reply = await pool.read(readerFor({ kind: 'format', format: name, values: true }), payload);
      assert.ok('error' in reply, name);
      assert.deepEqual(reply, PAYLOAD_FORMATS[name].read(payload));
    }
  });

  it('protobuf: a thread gives the view as a value; a text reader still gives text', async () => {
    const type = messageType('streamroute.test.v1.Order');
    const payload = type
      .encode(type.fromObject({ order_id: 'o-1', sequence: '18446744073709551615', amount: 7 }))
      .finish();
    const spec = {
      kind: 'protobuf',
      descriptor: descriptorOf('kitchen.proto'),
      message: 'streamroute.test.v1.Order',
    } as const;
    const values = await pool.read(readerFor({ ...spec, values: true }), payload);
    const inline = jsonValueView(type, payload);
    assert.ok('value' in inline);
    assert.deepEqual(values, { values: [inline.value] });
    assert.equal((inline.value as JsonObject).sequence, 18446744073709551615n);
    const texts = await pool.read(readerFor(spec), payload);
    const view = jsonView(type, payload);
    assert.ok('text' in view);
    assert.deepEqual(texts, { inputs: [view.text] });
  });

  it('OrderedReads asks for values: large payloads from a thread, in order with small ones', async () => {
    const reads = new OrderedReads<ValuesRead>(
      { kind: 'format', format: 'JSON', values: true },
      { pool: () => pool, inlineBytes: 8 },
    );
    const payloads = ['[1]', `[${'1,'.repeat(50)}18446744073709551615]`, '[2]'].map(text);
    const seen: ValuesRead[] = [];
    await Promise.all(
      payloads.map(async (payload) =>
        reads.read(
          payload,
          () => PAYLOAD_FORMATS.JSON.readValues(payload),
          (read) => seen.push(read),
        ),
      ),
    );
    assert.deepEqual(
      seen.map((read) => ('values' in read ? read.values[0] : read.error)),
      payloads.map(
        (payload) => (PAYLOAD_FORMATS.JSON.readValues(payload) as { values: unknown[] }).values[0],
      ),
    );
    const textReads: ViewRead = PAYLOAD_FORMATS.JSON.read(text('[1]'));
    assert.deepEqual(textReads, { inputs: ['[1]'] });
  });
});

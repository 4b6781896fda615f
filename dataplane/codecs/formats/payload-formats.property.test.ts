// Property and fuzz tests over all five payload formats: any bytes give inputs or one error, never a
// throw or a hang; truncations, deep nesting, huge numbers and invalid UTF-8 fail cleanly and fast; and
// what a format writes, it reads back as the same JSON value (for values in its image).
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { JaqFormat } from '../../graph/types.js';
import type { JsonObject, JsonValue } from '../json-value.js';
import { PAYLOAD_FORMATS } from './index.js';
import type { PayloadFormat, ReadResult } from './payload-format.js';
import {
  anyString,
  assertReadContract,
  assertViewOf,
  bytesOf,
  inputsOf,
  jsonValues,
  readBothWays,
  readError,
  syntaxString,
  written,
  xmlString,
  type Payload,
} from '../../../test/fixtures/payload-formats.js';

const FORMATS = Object.entries(PAYLOAD_FORMATS) as [JaqFormat, PayloadFormat][];
const TEXT_FORMATS = FORMATS.filter(([name]) => name !== 'CBOR');

/** A generous bound for one read on two shared cores: failing fast means milliseconds, not seconds. */
const SLOW_MS = 1500;

/** Reads as text and as values (which must agree: readBothWays), each within SLOW_MS. */
function timedRead(format: PayloadFormat, payload: Payload): ReadResult {
  const started = performance.now();
  const result = readBothWays(format, bytesOf(payload));
  const took = performance.now() - started;
  assert.ok(took < 2 * SLOW_MS, `read as text and as values took ${took.toFixed(0)} ms`);
  assertReadContract(result);
  return result;
}

/** Characters each format's syntax is made of, so random text reaches deep into its parser. */
const ALPHABETS: Record<JaqFormat, string> = {
  JSON: '{}[]:,"\\ntrufalse0123456789.-+eE ',
  YAML: '-:?[]{},&*!|>\'"#%@` \n\t.~0123456789abcxyz<=',
  TOML: '[]{}=,."\'#\n 0123456789-:TZabcxyzinftrue_+',
  XML: '<>/!?=&;#"\' \nabxyz:[]CDATA-DOCTYPEENTITYlt',
  CBOR: '',
};

/** A valid payload of each format, for truncation at every offset. */
const SAMPLES: Record<JaqFormat, Uint8Array> = {
  JSON: bytesOf(
    '{"id":"o-1","amount":18446744073709551615,"items":[{"sku":"a","qty":2},{"sku":"b","qty":1}],"note":null}',
  ),
  YAML: bytesOf(
    'id: o-1\namount: 18446744073709551615\nitems:\n  - &i {sku: a, qty: 2}\n  - *i\nnote: "x: y"\n---\n[1, 2]\n',
  ),
  TOML: bytesOf(
    'id = "o-1"\namount = 9223372036854775807\nat = 1979-05-27T07:32:00Z\n[[items]]\nsku = "a"\nqty = 2\n',
  ),
  XML: bytesOf(
    '<?xml version="1.0"?><order id="o-1"><item sku="a">2</item><item sku="b"><![CDATA[<x>]]></item>&amp;</order>',
  ),
  CBOR: written(PAYLOAD_FORMATS.CBOR, {
    id: 'o-1',
    amount: 18446744073709551615n,
    items: [{ sku: 'a', qty: 2 }],
    at: 1.5,
  }),
};

/** Formats whose sample leaves no strict prefix valid (an object, a root element, one CBOR item). */
const EVERY_PREFIX_FAILS = new Set<JaqFormat>(['JSON', 'XML', 'CBOR']);

describe('payload formats: properties', () => {
  for (const [name, format] of FORMATS) {
    describe(name, () => {
      it('random bytes give inputs or one error, quickly', () => {
        fc.assert(
          fc.property(fc.uint8Array({ maxLength: 512 }), (bytes) => void timedRead(format, bytes)),
          { numRuns: 400 },
        );
      });

      if (name !== 'CBOR') {
        it('random text in its own syntax gives inputs or one error, quickly', () => {
          const text = fc.string({ unit: fc.constantFrom(...ALPHABETS[name]), maxLength: 200 });
          fc.assert(
            fc.property(text, (payload) => void timedRead(format, payload)),
            { numRuns: 600 },
          );
        });
      }

      it('a valid payload cut at every offset gives inputs or one error', () => {
        const sample = SAMPLES[name];
        assert.ok('inputs' in timedRead(format, sample));
        for (let end = 0; end < sample.length; end += 1) {
          const result = timedRead(format, sample.subarray(0, end));
          if (EVERY_PREFIX_FAILS.has(name)) assert.ok('error' in result, `prefix of ${end} bytes read`);
        }
      });

      it('a valid payload with one byte changed gives inputs or one error', () => {
        const sample = SAMPLES[name];
        const change = fc.tuple(fc.nat({ max: sample.length - 1 }), fc.integer({ min: 0, max: 255 }));
        fc.assert(
          fc.property(change, ([at, byte]) => {
            const bytes = Uint8Array.from(sample);
            bytes[at] = byte;
            timedRead(format, bytes);
          }),
        );
      });
    });
  }

  describe('deep nesting is SR3011, quickly', () => {
    const levels = 100_000;
    const yamlLevels = 30_000; // yaml parses deep flow nesting at a few µs per level before it gives up
    const cases: [JaqFormat, Payload][] = [
      ['JSON', '['.repeat(levels) + ']'.repeat(levels)],
      ['JSON', '{"a":'.repeat(levels) + '1' + '}'.repeat(levels)],
      ['YAML', '['.repeat(yamlLevels) + ']'.repeat(yamlLevels)],
      ['YAML', '{a: '.repeat(yamlLevels) + '1' + '}'.repeat(yamlLevels)],
      ['YAML', `${'- '.repeat(levels)}x`],
      ['TOML', `a = ${'['.repeat(levels)}${']'.repeat(levels)}`],
      ['TOML', `a = ${'{b = '.repeat(levels)}1${'}'.repeat(levels)}`],
      ['TOML', `${'a.'.repeat(levels)}b = 1`],
      ['XML', '<a>'.repeat(levels) + '</a>'.repeat(levels)],
      ['XML', '<a x="1"><b/>'.repeat(levels) + '</a>'.repeat(levels)],
      ['CBOR', Buffer.concat([Buffer.alloc(levels, 0x81), Buffer.from([0])])],
      ['CBOR', Buffer.concat([Buffer.from('a16161'.repeat(levels), 'hex'), Buffer.from([0])])],
      ['CBOR', Buffer.concat([Buffer.alloc(levels, 0x9f), Buffer.from([0])])],
    ];
    for (const [name, payload] of cases) {
      it(`${name}: ${Buffer.from(bytesOf(payload).subarray(0, 8)).toString('hex')}…`, () => {
        const result = timedRead(PAYLOAD_FORMATS[name], payload);
        assert.ok('error' in result && result.error.code === 'SR3011', JSON.stringify(result).slice(0, 200));
      });
    }
  });

  describe('expansion attacks stop early', () => {
    it('YAML: alias trees of any depth and fan-out read, or stop at the budget (SR3011), quickly', () => {
      const shape = fc.record({
        levels: fc.integer({ min: 1, max: 14 }),
        fanOut: fc.integer({ min: 1, max: 12 }),
      });
      fc.assert(
        fc.property(shape, ({ levels, fanOut }) => {
          const lines = ['a0: &a0 lol'];
          for (let i = 1; i <= levels; i += 1)
            lines.push(
              `a${i}: &a${i} [${Array(fanOut)
                .fill(`*a${i - 1}`)
                .join(', ')}]`,
            );
          const result = timedRead(PAYLOAD_FORMATS.YAML, lines.join('\n'));
          const expanded = Array.from({ length: levels }, (_, i) => fanOut ** (i + 1)).reduce(
            (sum, n) => sum + n,
            0,
          );
          if (expanded > 200_000) assert.ok('error' in result && result.error.code === 'SR3011');
        }),
        { numRuns: 60 },
      );
    });

    it('XML: any entity declaration is refused before expansion (SR3011)', () => {
      const declaration = fc.constantFrom(
        '<!ENTITY e "x">',
        '<!ENTITY e SYSTEM "file:///etc/passwd">',
        '<!ENTITY e PUBLIC "-//x//y" "http://example.com/e">',
        '<!ENTITY % p SYSTEM "http://example.com/p.dtd"> %p;',
        '<!ENTITY a "&b;&b;"><!ENTITY b "&c;&c;"><!ENTITY c "lol">',
        '<!ELEMENT r ANY><!ATTLIST r x CDATA "default">',
      );
      const use = fc.constantFrom('&e;', '&a;', '', 'x');
      fc.assert(
        fc.property(fc.array(declaration, { minLength: 1, maxLength: 4 }), use, (declarations, body) => {
          const result = timedRead(
            PAYLOAD_FORMATS.XML,
            `<?xml version="1.0"?><!DOCTYPE r [${declarations.join('')}]><r>${body}</r>`,
          );
          assert.ok('error' in result && result.error.code === 'SR3011', JSON.stringify(result));
        }),
      );
    });
  });

  describe('huge numbers are exact or refused, quickly', () => {
    const digits = '9'.repeat(100_000);
    it('JSON passes 100,000 digits through', () => {
      assert.equal(inputsOf(PAYLOAD_FORMATS.JSON, `[${digits}]`)[0], `[${digits}]`);
    });
    it('YAML keeps 100,000 digits', () => {
      assert.equal(inputsOf(PAYLOAD_FORMATS.YAML, `a: ${digits}`)[0], `{"a":${digits}}`);
    });
    it('TOML refuses an integer beyond 64 bits', () => {
      assert.equal(readError(PAYLOAD_FORMATS.TOML, `a = ${digits}`).code, 'SR3010');
    });
    it('YAML and TOML read a float beyond the double range as "Infinity"', () => {
      assert.deepEqual(inputsOf(PAYLOAD_FORMATS.YAML, `a: 1e400`), ['{"a":"Infinity"}']);
      assert.deepEqual(inputsOf(PAYLOAD_FORMATS.TOML, `a = 1e400`), ['{"a":"Infinity"}']);
    });
  });

  describe('invalid UTF-8 is SR3001 at the first bad byte', () => {
    for (const [name, format] of TEXT_FORMATS) {
      it(name, () => {
        const sample = SAMPLES[name];
        const bad = fc.tuple(
          fc.nat({ max: sample.length }),
          fc.constantFrom(0x80, 0xbf, 0xc0, 0xc1, 0xf5, 0xff),
        );
        fc.assert(
          fc.property(bad, ([at, byte]) => {
            const bytes = Buffer.concat([sample.subarray(0, at), Buffer.from([byte]), sample.subarray(at)]);
            assert.equal(
              readError(format, bytes).reason,
              `${name}: the payload is not valid UTF-8 (byte offset ${at})`,
            );
          }),
        );
      });
    }
  });

  describe('CBOR lengths are checked before anything is allocated', () => {
    it('any head claiming more than the payload holds fails at once', () => {
      const head = fc.tuple(
        fc.constantFrom(0x5b, 0x7b, 0x9b, 0xbb),
        fc.bigInt({ min: 1n << 20n, max: (1n << 64n) - 1n }),
        fc.uint8Array({ maxLength: 16 }),
      );
      fc.assert(
        fc.property(head, ([initial, length, rest]) => {
          const bytes = Buffer.alloc(9 + rest.length);
          bytes[0] = initial;
          bytes.writeBigUInt64BE(length, 1);
          bytes.set(rest, 9);
          assert.match(
            readError(PAYLOAD_FORMATS.CBOR, bytes).reason,
            /a length beyond the end of the payload at byte offset 0$/,
          );
        }),
      );
    });

    it('indefinite-length items nest and end with a break', () => {
      const value = fc.letrec<{ item: Buffer }>((tie) => ({
        item: fc.oneof(
          { depthSize: 'small' },
          fc.constant(Buffer.from([0x01])),
          fc
            .array(tie('item'), { maxLength: 4 })
            .map((items) => Buffer.concat([Buffer.from([0x9f]), ...items, Buffer.from([0xff])])),
          fc
            .array(fc.tuple(fc.string({ maxLength: 3 }), tie('item')), { maxLength: 3 })
            .map((pairs) =>
              Buffer.concat([
                Buffer.from([0xbf]),
                ...pairs.map(([key, item], index) =>
                  Buffer.concat([written(PAYLOAD_FORMATS.CBOR, `${index}${key}`), item]),
                ),
                Buffer.from([0xff]),
              ]),
            ),
        ),
      })).item;
      fc.assert(fc.property(value, (bytes) => void inputsOf(PAYLOAD_FORMATS.CBOR, bytes)));
    });
  });

  describe('write → read gives the same JSON value', () => {
    const tables = (string: fc.Arbitrary<string>): fc.Arbitrary<JsonValue> =>
      fc
        .dictionary(
          fc.oneof(string, fc.constant('__proto__')),
          jsonValues({ noNull: true, integers64: true, string }),
        )
        .map((entries) => ({ ...entries }));
    const images: [JaqFormat, string, fc.Arbitrary<JsonValue>][] = [
      ['JSON', 'any value', jsonValues()],
      ['YAML', 'any value', jsonValues()],
      ['YAML', 'strings of YAML syntax', jsonValues({ string: syntaxString })],
      ['TOML', 'a table without null', tables(anyString)],
      ['TOML', 'strings of TOML syntax', tables(syntaxString)],
      ['XML', 'the mapping’s image', xmlDocuments(xmlString)],
      ['XML', 'strings of XML syntax', xmlDocuments(syntaxString)],
      ['CBOR', 'any value', jsonValues()],
    ];
    for (const [name, what, values] of images) {
      it(`${name}: ${what}`, () => {
        fc.assert(
          fc.property(values, (value) => {
            const inputs = inputsOf(PAYLOAD_FORMATS[name], written(PAYLOAD_FORMATS[name], value));
            assert.equal(inputs.length, 1);
            assertViewOf(inputs[0]!, value);
          }),
          { numRuns: 300 },
        );
      });
    }
  });
});

/** Values in the XML view's image: one root; elements as strings, or objects of attributes, text, children. */
function xmlDocuments(string: fc.Arbitrary<string>): fc.Arbitrary<JsonValue> {
  const name = fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_.-]{0,5}(:[A-Za-z_][A-Za-z0-9]{0,3})?$/);
  const { element } = fc.letrec<{ element: JsonValue }>((tie) => ({
    element: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      string,
      fc
        .record({
          attributes: fc.dictionary(name, string, { maxKeys: 3 }),
          text: string,
          children: fc.dictionary(name, fc.array(tie('element'), { minLength: 1, maxLength: 3 }), {
            maxKeys: 3,
          }),
        })
        .filter(
          ({ attributes, children }) => Object.keys(attributes).length + Object.keys(children).length > 0,
        )
        .map(({ attributes, text, children }) => {
          const object: JsonObject = {};
          for (const [key, value] of Object.entries(attributes)) object[`@${key}`] = value;
          const kept = Object.keys(children).length === 0 ? text !== '' : /[^ \t\r\n]/.test(text);
          if (kept) object['#text'] = text;
          for (const [key, value] of Object.entries(children)) object[key] = value;
          return object;
        }),
    ),
  }));
  return fc.tuple(name, element).map(([root, value]) => ({ [root]: value }));
}

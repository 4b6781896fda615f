// Payload formats of the JAQ codecs (dataplane/codecs/formats/): read never throws (inputs, or one message
// error), and what was read writes back and reads again as the same view — exactly for JSON, YAML and CBOR,
// whose image is every JSON value; for TOML and XML (views of a narrower shape) the second round trip must
// change nothing.
import assert from 'node:assert/strict';
import { PAYLOAD_FORMATS } from '../../../dataplane/codecs/formats/index.js';
import type { PayloadFormat } from '../../../dataplane/codecs/formats/payload-format.js';
import { parseJsonValue, type JsonValue } from '../../../dataplane/codecs/json-value.js';
import type { JaqFormat } from '../../../dataplane/graph/types.js';
import { assertReadContract, canonical } from '../../fixtures/payload-formats.js';
import { docBlocks, filesEnding, texts } from '../seeds.js';
import type { FuzzTarget } from '../target.js';

const ROUND_TRIP_MAX = 64 * 1024;

/** One view read back from what `value` writes; undefined when the format does not write it. */
function roundTrip(format: PayloadFormat, value: JsonValue): JsonValue | undefined {
  const written = format.write(value);
  if ('error' in written) return undefined;
  const read = format.read(written.bytes);
  assert.ok(
    !('error' in read),
    `reading what was written failed: ${'error' in read ? read.error.reason : ''}`,
  );
  assert.equal(read.inputs.length, 1, 'a written value reads as one input');
  return parseJsonValue(read.inputs[0] ?? '');
}

function checkRoundTrip(name: JaqFormat, format: PayloadFormat, view: JsonValue): void {
  const exact = name === 'JSON' || name === 'YAML' || name === 'CBOR';
  const once = roundTrip(format, view);
  if (once === undefined) return;
  if (exact) {
    assert.equal(canonical(once), canonical(view), 'the view changed on write and read');
    return;
  }
  const twice = roundTrip(format, once);
  if (twice !== undefined)
    assert.equal(canonical(twice), canonical(once), 'the view is not stable on write and read');
}

/** YAML's syntax and scalar forms: the YAML payload format's dictionary, and part of resource YAML's. */
export const YAML_TOKENS: readonly string[] = [
  '- ',
  ': ',
  '? ',
  '---\n',
  '...\n',
  '&a ',
  '*a',
  '!!binary ',
  '!!str ',
  '!!int ',
  '!!map ',
  '!custom ',
  '<<: ',
  '|\n',
  '>-\n',
  '"',
  "'",
  '#',
  '{',
  '}',
  '[',
  ']',
  ',',
  '\t',
  '\n',
  '  ',
  '%YAML 1.1\n',
  '%TAG ! x\n',
  '.nan',
  '.inf',
  '0o17',
  '0x1F',
  '1_000',
  '2001-12-14t21:59:43.10-05:00',
  '~',
  'null',
  'y',
  'on',
  '=',
  '\ufeff',
];

const GRAMMARS: Record<JaqFormat, Pick<FuzzTarget, 'tokens' | 'nests'>> = {
  JSON: {
    tokens: [
      '{',
      '}',
      '[',
      ']',
      ':',
      ',',
      '"',
      '\\u0000',
      '\\ud800',
      'true',
      'false',
      'null',
      '-0',
      '1e400',
      '18446744073709551616',
      '0.0000001',
      '"__proto__"',
      ' ',
      '\n',
      '\ufeff',
    ],
    nests: [
      ['[', ']'],
      ['{"a":', '}'],
      ['[{"":', '}]'],
    ],
  },
  YAML: {
    tokens: YAML_TOKENS,
    nests: [
      ['[', ']'],
      ['{', '}'],
      ['- ', ''],
      ['{a: ', '}'],
      ['? ', ''],
      ['  ', ''],
      ['&a [', ']'],
    ],
  },
  TOML: {
    tokens: [
      '[',
      ']',
      '[[',
      ']]',
      '{',
      '}',
      '=',
      ',',
      '.',
      '"',
      "'",
      '"""',
      "'''",
      '#',
      '\n',
      ' ',
      'a',
      'a.b',
      'true',
      'inf',
      '-nan',
      '0x7FFFFFFFFFFFFFFF',
      '9223372036854775808',
      '1979-05-27T07:32:00Z',
      '07:32:00',
      '1e400',
      '"__proto__"',
      '\\u0000',
      '\\U0010FFFF',
      '\r\n',
    ],
    nests: [
      ['[', ']'],
      ['{a=', '}'],
      ['a=[', ']'],
      ['[a.', ']'],
    ],
  },
  XML: {
    tokens: [
      '<',
      '>',
      '</',
      '/>',
      '<?xml version="1.0"?>',
      '<!DOCTYPE a [',
      '<!ENTITY e "x">',
      ']>',
      '&e;',
      '&amp;',
      '&#x0;',
      '&#1114111;',
      '<![CDATA[',
      ']]>',
      '<!--',
      '-->',
      '<?pi x?>',
      ' a="1"',
      " b='2'",
      'xmlns:p="u"',
      'p:',
      '=',
      '"',
      "'",
      '\n',
      '__proto__',
      '#text',
      '@a',
    ],
    nests: [
      ['<a>', '</a>'],
      ['<a b="c">', '</a>'],
      ['<a><![CDATA[', ']]></a>'],
      ['<!--', '-->'],
    ],
  },
  CBOR: {
    // Heads of every major type with the lengths that are edge cases, indefinite markers, tags, simple values.
    tokens: [
      '\x80',
      '\x81',
      '\x9f',
      '\xa0',
      '\xa1',
      '\xbf',
      '\xff',
      '\x5f',
      '\x7f',
      '\x18\xff',
      '\x19\xff\xff',
      '\x1a\xff\xff\xff\xff',
      '\x1b\xff\xff\xff\xff\xff\xff\xff\xff',
      '\xc2',
      '\xc3',
      '\xc0',
      '\xd9\xd9\xf7',
      '\xf4',
      '\xf5',
      '\xf6',
      '\xf7',
      '\xf9\x7c\x00',
      '\xfa\x7f\xc0\x00\x00',
      '\xfb',
      '\x60',
      '\x40',
      '\x5b',
      '\x7b',
      '\x3b',
    ],
    nests: [
      ['\x81', ''],
      ['\x9f', '\xff'],
      ['\xa1\x61a', ''],
      ['\xc6', ''],
      ['\xbf\x61a', '\xff'],
    ],
  },
};

const EXTENSIONS: Record<JaqFormat, string[]> = {
  JSON: ['.json'],
  YAML: ['.yaml', '.yml'],
  TOML: ['.toml'],
  XML: ['.xml'],
  CBOR: ['.cbor'],
};

const HAND_SEEDS: Record<JaqFormat, string[]> = {
  JSON: [
    '{"id":"o-1","amount":18446744073709551615,"items":[{"sku":"a","qty":2}],"note":null}',
    '[1,2.5,-0,"\\u00e9"]',
  ],
  YAML: [
    'id: o-1\namount: 18446744073709551615\nitems:\n  - &i {sku: a, qty: 2}\n  - *i\nnote: "x: y"\n---\n[1, 2]\n',
  ],
  TOML: [
    'id = "o-1"\namount = 9223372036854775807\nat = 1979-05-27T07:32:00Z\n[[items]]\nsku = "a"\nqty = 2\n',
  ],
  XML: [
    '<?xml version="1.0"?><order id="o-1"><item sku="a">2</item><item sku="b"><![CDATA[<x>]]></item>&amp;</order>',
  ],
  CBOR: ['\xa2\x62id\x63o-1\x65items\x82\x01\xc2\x49\x01\x00\x00\x00\x00\x00\x00\x00\x00'],
};

/** The byte string of a string whose characters are all below 256 (CBOR tokens are bytes, not text). */
function latin1(text: string): Uint8Array {
  return Uint8Array.from(text, (char) => char.charCodeAt(0));
}

export function formatTarget(name: JaqFormat): FuzzTarget {
  const format = PAYLOAD_FORMATS[name];
  const grammar = GRAMMARS[name];
  const binary = name === 'CBOR';
  return {
    // An HTTP ingestor's default body limit (operator/api/kinds/http-ingestor.ts: 1 MiB).
    maxBytes: 1024 * 1024,
    // Linear: YAML up to ~6 s per MiB on its slowest inputs found (`- -` lines), the others up to ~1.4 s, on
    // the busy 2-core machine (docs/benchmarks.md).
    msPerMiB: name === 'YAML' ? 10000 : 2000,
    ...grammar,
    bytes: binary,
    seeds: () => [
      ...filesEnding(['examples', 'test', 'dataplane/codecs'], EXTENSIONS[name]),
      ...docBlocks([name.toLowerCase()]),
      ...(binary ? HAND_SEEDS[name].map(latin1) : texts(...HAND_SEEDS[name])),
    ],
    run(input) {
      const result = format.read(input);
      assertReadContract(result);
      if ('error' in result) return false;
      // Round trips of big payloads would make the input's time (a hang) and memory more this check's than
      // the format's: they are tried on small ones.
      if (input.length > ROUND_TRIP_MAX) return true;
      for (const text of result.inputs) checkRoundTrip(name, format, parseJsonValue(text));
      return true;
    },
  };
}

// fast-check arbitraries of inputs for the differential test: JSON texts and the JsonValue the product
// parses them to (parseJsonValue: exact integers as bigints). The text is generated, not printed from the
// value, so numbers can be written the ways jq keeps (`1.50`, `1E2`, `-0`, `9.223372036854776e18`), and
// objects can hold `__proto__`, `constructor`, `toString` and integer-like keys such as "1" and "10".
import fc from 'fast-check';
import { parseJsonValue, toJsonText, type JsonValue } from '../../../dataplane/codecs/json-value.js';
import { FIELD_NAMES } from './program-arbitrary.js';

export interface GeneratedInput {
  /** The input's JSON text, as it would arrive in a JSON body. */
  text: string;
  /** What the product decodes the text to. */
  value: JsonValue;
  /** A number is written other than JavaScript prints its value (jq prints such text back as written). */
  numberText: boolean;
  /** A string holds a lone surrogate (jq refuses a high one in JSON text and replaces a low one). */
  loneSurrogate: boolean;
}

const NUMBER_TEXTS = {
  small: ['0', '1', '2', '3', '-1', '-7', '10', '42', '100', '255', '65536'],
  fraction: ['1.5', '-2.25', '0.1', '3.7', '0.30000000000000004', '1e-7', '2.5e-8', '123.456'],
  near53: [
    '9007199254740991',
    '9007199254740992',
    '9007199254740993',
    '-9007199254740993',
    '-9007199254740992',
  ],
  near63: [
    '9223372036854775807',
    '9223372036854775808',
    '-9223372036854775808',
    '-9223372036854775809',
    '18446744073709551615',
    '100000000000000000000000',
  ],
  doubles: [
    '9.007199254740993e+15',
    '9.223372036854776e+18',
    '1e+300',
    '-1.7976931348623157e+308',
    '5e-324',
    '1e+21',
  ],
  odd: ['-0', '1.50', '1E2', '1.0', '-0.0', '100e-2', '0.10', '1e1000', '12345678901234567890.0'],
};

const STRING_POOL = [
  '',
  'a',
  'b',
  'A',
  'É',
  'ß',
  'é',
  '😀',
  'a😀b',
  '\uffff',
  '\ufffd',
  'a,b',
  'x,y,',
  ',',
  '1',
  '10',
  '-3.5',
  ' 12 ',
  '0x10',
  '1e2',
  'nan',
  'true',
  'null',
  '__proto__',
  'constructor',
  'x\u0000y',
  'line\nbreak',
  '  pad  ',
  'İ',
  'ǅ',
];
const LONE_SURROGATES = ['\ud800', '\udc00', 'a\udfffb', '\ud83d'];

type Node =
  | { t: 'number'; text: string }
  | { t: 'string'; text: string }
  | { t: 'literal'; text: 'null' | 'true' | 'false' }
  | { t: 'array'; items: Node[] }
  | { t: 'object'; entries: [string, Node][] };

const numberNode = fc
  .oneof(
    { arbitrary: fc.constantFrom(...NUMBER_TEXTS.small), weight: 6 },
    { arbitrary: fc.constantFrom(...NUMBER_TEXTS.fraction), weight: 3 },
    { arbitrary: fc.constantFrom(...NUMBER_TEXTS.near53), weight: 2 },
    { arbitrary: fc.constantFrom(...NUMBER_TEXTS.near63), weight: 2 },
    { arbitrary: fc.constantFrom(...NUMBER_TEXTS.doubles), weight: 1 },
    { arbitrary: fc.integer({ min: -1000, max: 1000 }).map(String), weight: 2 },
  )
  .map((text): Node => ({ t: 'number', text }));

const oddNumberNode = fc.constantFrom(...NUMBER_TEXTS.odd).map((text): Node => ({ t: 'number', text }));

const stringNode = fc
  .oneof(
    { arbitrary: fc.constantFrom(...STRING_POOL), weight: 8 },
    { arbitrary: fc.constantFrom(...FIELD_NAMES), weight: 3 },
    { arbitrary: fc.string({ unit: 'binary', maxLength: 4 }), weight: 2 },
  )
  .map((text): Node => ({ t: 'string', text }));

const key = fc.oneof(
  { arbitrary: fc.constantFrom(...FIELD_NAMES), weight: 6 },
  { arbitrary: fc.string({ unit: 'grapheme', maxLength: 3 }), weight: 1 },
);

/** Fields with the type a schema would give them, so that typical programs often get outputs. */
function typedEntry(object: fc.Arbitrary<Node>): fc.Arbitrary<[string, Node]> {
  const strings = fc.array(stringNode, { maxLength: 3 }).map((items): Node => ({ t: 'array', items }));
  return fc.oneof(
    fc.tuple(fc.constantFrom('name', 's'), stringNode),
    fc.tuple(fc.constant('n'), numberNode),
    fc.tuple(fc.constant('tags'), strings),
    fc.tuple(fc.constantFrom('a', 'b'), object),
  );
}

/** Input trees; `odd` admits number texts jq prints back as written and lone surrogates. */
function nodeArbitrary(odd: boolean): fc.Arbitrary<Node> {
  const scalar = fc.oneof(
    { arbitrary: numberNode, weight: 4 },
    { arbitrary: stringNode, weight: 4 },
    {
      arbitrary: fc.constantFrom('null', 'true', 'false').map((text): Node => ({ t: 'literal', text })),
      weight: 2,
    },
    ...(odd
      ? [
          { arbitrary: oddNumberNode, weight: 2 },
          {
            arbitrary: fc.constantFrom(...LONE_SURROGATES).map((text): Node => ({ t: 'string', text })),
            weight: 1,
          },
        ]
      : []),
  );
  const { node, object } = fc.letrec<{ node: Node; object: Node }>((tie) => ({
    node: fc.oneof(
      { maxDepth: 3, depthSize: 'small', depthIdentifier: 'json-input' },
      { arbitrary: scalar, weight: 3 },
      {
        arbitrary: fc.array(tie('node'), { maxLength: 4 }).map((items): Node => ({ t: 'array', items })),
        weight: 2,
      },
      { arbitrary: tie('object'), weight: 3 },
    ),
    object: fc
      .uniqueArray(fc.oneof(fc.tuple(key, tie('node')), typedEntry(tie('object'))), {
        maxLength: 5,
        selector: ([name]) => name,
      })
      .map((entries): Node => ({ t: 'object', entries })),
  }));
  // records are mostly objects
  return fc.oneof({ arbitrary: object, weight: 3 }, { arbitrary: node, weight: 1 });
}

function print(node: Node): string {
  switch (node.t) {
    case 'number':
    case 'literal':
      return node.text;
    case 'string':
      return JSON.stringify(node.text);
    case 'array':
      return `[${node.items.map(print).join(',')}]`;
    case 'object':
      return `{${node.entries.map(([name, value]) => `${JSON.stringify(name)}:${print(value)}`).join(',')}}`;
  }
}

function strings(node: Node): string[] {
  if (node.t === 'string') return [node.text];
  if (node.t === 'array') return node.items.flatMap(strings);
  if (node.t === 'object') return node.entries.flatMap(([name, value]) => [name, ...strings(value)]);
  return [];
}

function numberTexts(node: Node): string[] {
  if (node.t === 'number') return [node.text];
  if (node.t === 'array') return node.items.flatMap(numberTexts);
  if (node.t === 'object') return node.entries.flatMap(([, value]) => numberTexts(value));
  return [];
}

/** Number text other than JavaScript's printing of its value (`1.50`, `1E2`, `-0`, `1e1000`: Infinity). */
function unusual(text: string): boolean {
  const value = parseJsonValue(text);
  return (
    (typeof value === 'number' && !Number.isFinite(value)) ||
    Object.is(value, -0) ||
    toJsonText(value) !== text
  );
}

const LONE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

function generated(node: Node): GeneratedInput {
  const text = print(node);
  return {
    text,
    value: parseJsonValue(text),
    numberText: numberTexts(node).some(unusual),
    loneSurrogate: strings(node).some((text) => LONE.test(text)),
  };
}

/** Inputs as routing records are: mostly objects with the fields programs name. */
export function inputArbitrary(options: { odd: boolean }): fc.Arbitrary<GeneratedInput> {
  return nodeArbitrary(options.odd).map(generated);
}

/** One to four inputs for a program: mostly plain, now and then one built to need jq's own text. */
export function inputsArbitrary(): fc.Arbitrary<GeneratedInput[]> {
  const input = fc.oneof(
    { arbitrary: inputArbitrary({ odd: false }), weight: 6 },
    { arbitrary: inputArbitrary({ odd: true }), weight: 1 },
  );
  return fc.array(input, { minLength: 1, maxLength: 4 });
}

/** A hand-written input text as the differential check takes it. */
export function inputFromText(text: string): GeneratedInput {
  const value = parseJsonValue(text);
  const texts = (item: JsonValue): string[] => {
    if (typeof item === 'string') return [item];
    if (item === null || typeof item !== 'object') return [];
    if (Array.isArray(item)) return item.flatMap(texts);
    return Object.keys(item).flatMap((key) => [key, ...texts(item[key] as JsonValue)]);
  };
  const numbers = text.replace(/"(?:[^"\\]|\\.)*"/g, '').match(/-?\d[\d.eE+-]*/g) ?? [];
  return {
    text,
    value,
    numberText: numbers.some(unusual),
    loneSurrogate: texts(value).some((item) => LONE.test(item)),
  };
}

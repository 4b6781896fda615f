import assert from 'node:assert/strict';
import { parseJsonValue, type JsonValue } from '../json-value.js';
import { MAX_DEPTH, YAML_MAX_ALIAS_NODES, YAML_MAX_DOCUMENTS } from './format-limits.js';
import { yamlFormat } from './yaml-format.js';
import {
  assertError,
  hex,
  inputsOf,
  readError,
  writeError,
  writtenText,
} from '../../../test/fixtures/payload-formats.js';

/** `levels` anchors, each a sequence of ten aliases of the one before: 10^levels nodes once expanded. */
function billionLaughs(levels: number): string {
  const lines = ['a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]'];
  for (let i = 1; i <= levels; i += 1)
    lines.push(
      `a${i}: &a${i} [${Array(10)
        .fill(`*a${i - 1}`)
        .join(', ')}]`,
    );
  return lines.join('\n');
}

describe('YAML payload format', () => {
  describe('read: documents', () => {
    const cases: [string, string, string[]][] = [
      ['one document', 'a: 1\nb: [x, y]\n', ['{"a":1,"b":["x","y"]}']],
      [
        'each document of a stream is one input, in order',
        'a: 1\n---\n- x\n---\nz\n',
        ['{"a":1}', '["x"]', '"z"'],
      ],
      ['an empty stream has no input', '', []],
      ['comments only: no document, no input', '# nothing here\n', []],
      ['an empty document is null', '---\n', ['null']],
      ['empty documents in a stream', '---\n---\na: 1\n', ['null', '{"a":1}']],
      ['a document end marker', 'a: 1\n...\n', ['{"a":1}']],
      ['a byte-order mark is dropped', '\ufeffa: 1', ['{"a":1}']],
    ];
    for (const [name, payload, inputs] of cases) {
      it(name, () => assert.deepEqual(inputsOf(yamlFormat, payload), inputs));
    }
  });

  describe(`read: at most ${YAML_MAX_DOCUMENTS} documents per payload`, () => {
    it(`reads ${YAML_MAX_DOCUMENTS} documents`, () => {
      assert.equal(inputsOf(yamlFormat, '---\nx\n'.repeat(YAML_MAX_DOCUMENTS)).length, YAML_MAX_DOCUMENTS);
    });

    it(`reads ${YAML_MAX_DOCUMENTS} documents each ended by ... and started by ---`, () => {
      const payload = 'x\n...\n---\n'.repeat(YAML_MAX_DOCUMENTS - 1) + 'x\n...\n';
      assert.equal(inputsOf(yamlFormat, payload).length, YAML_MAX_DOCUMENTS);
    });

    it(`refuses ${YAML_MAX_DOCUMENTS + 1} documents before parsing, at the marker over the limit (SR3011)`, () => {
      assertError(
        readError(yamlFormat, 'x\n' + '---\nx\n'.repeat(YAML_MAX_DOCUMENTS) + '...\n'),
        'SR3011',
        /^YAML: more than 1024 documents in the payload \(more than 1024 --- or \.\.\. lines; the first over the limit at line 2050, column 1\)$/,
      );
    });

    it(`refuses ${YAML_MAX_DOCUMENTS + 1} documents that have only ${YAML_MAX_DOCUMENTS} markers (SR3011)`, () => {
      assertError(
        readError(yamlFormat, 'x\n' + '---\nx\n'.repeat(YAML_MAX_DOCUMENTS)),
        'SR3011',
        /^YAML: more than 1024 documents in the payload$/,
      );
    });

    it('regression: a 1 MiB payload of ---\\n lines is refused at once (it gave 262,144 jq inputs)', () => {
      const started = performance.now();
      assertError(readError(yamlFormat, '---\n'.repeat(256 * 1024)), 'SR3011', /more than 1024 documents/);
      // Parsing it took seconds on the event loop (0.4 s for 200 KB), then a jq run per document.
      const took = performance.now() - started;
      assert.ok(took < 250, `${took.toFixed(0)} ms`);
    });
  });

  describe('read: scalars (YAML 1.2 core schema)', () => {
    const cases: [string, string, string][] = [
      [
        'integers, exact to 64 bits and beyond',
        'u: 18446744073709551615\ni: -9223372036854775808\nh: 123456789012345678901234567890',
        '{"u":18446744073709551615,"i":-9223372036854775808,"h":123456789012345678901234567890}',
      ],
      ['hex and octal integers', 'h: 0x1F\no: 0o17', '{"h":31,"o":15}'],
      ['floats', 'a: 1.5\nb: .5\nc: 1e3\nd: -0.0\ne: 2.0', '{"a":1.5,"b":0.5,"c":1000,"d":0,"e":2}'],
      [
        'infinities and NaN become strings',
        'a: .inf\nb: -.Inf\nc: .NaN',
        '{"a":"Infinity","b":"-Infinity","c":"NaN"}',
      ],
      [
        'booleans and null',
        'a: true\nb: False\nc: ~\nd: null\ne:',
        '{"a":true,"b":false,"c":null,"d":null,"e":null}',
      ],
      [
        'YAML 1.1 spellings are strings',
        'a: yes\nb: on\nc: 017\nd: 1_000\ne: 2001-12-14',
        '{"a":"yes","b":"on","c":17,"d":"1_000","e":"2001-12-14"}',
      ],
      [
        'a %YAML 1.1 directive does not change the schema',
        '%YAML 1.1\n---\na: yes\nb: 2001-12-14',
        '{"a":"yes","b":"2001-12-14"}',
      ],
      ['quoted numbers are strings', 'a: "12"\nb: \'true\'', '{"a":"12","b":"true"}'],
      ['block scalars', 'a: |\n  x\n  y\nb: >-\n  p\n  q', '{"a":"x\\ny\\n","b":"p q"}'],
      ['!!binary is standard base64 text', 'a: !!binary aGVs\n  bG8=', '{"a":"aGVsbG8="}'],
      ['a local tag leaves the text', 'a: !ref 12', '{"a":"12"}'],
      ['!!timestamp is not resolved: its text', 'a: !!timestamp 2001-12-14', '{"a":"2001-12-14"}'],
      [
        'an explicit core tag that cannot resolve leaves the text',
        'a: !!float 1\nb: !!str 1\nc: !!int "7"',
        '{"a":"1","b":"1","c":7}',
      ],
      [
        '!!set and !!omap are plain collections',
        'a: !!set {x, y}\nb: !!omap [k: 1]',
        '{"a":{"x":null,"y":null},"b":[{"k":1}]}',
      ],
    ];
    for (const [name, payload, input] of cases) {
      it(name, () => assert.deepEqual(inputsOf(yamlFormat, payload), [input]));
    }

    it('64-bit integers reach the program exactly', () => {
      const [input] = inputsOf(yamlFormat, 'u: 18446744073709551615\ni: -9223372036854775808');
      assert.deepEqual(parseJsonValue(input!), { u: 18446744073709551615n, i: -9223372036854775808n });
    });
  });

  describe('read: keys', () => {
    const cases: [string, string, string][] = [
      [
        'scalar keys become their JSON text',
        '1: a\ntrue: b\n~: c\n1.5: d\n0x10: e',
        '{"1":"a","true":"b","null":"c","1.5":"d","16":"e"}',
      ],
      ['an empty key is null', '? \n: x', '{"null":"x"}'],
      [
        '<< is an ordinary key (no merge in YAML 1.2)',
        'base: &b {x: 1}\nitem:\n  <<: *b\n  y: 2',
        '{"base":{"x":1},"item":{"<<":{"x":1},"y":2}}',
      ],
      ['__proto__ is an ordinary key', '__proto__: {polluted: 1}', '{"__proto__":{"polluted":1}}'],
      ['an alias as a key', 'a: &k key\n*k : 2', '{"a":"key","key":2}'],
    ];
    for (const [name, payload, input] of cases) {
      it(name, () => assert.deepEqual(inputsOf(yamlFormat, payload), [input]));
    }

    it('refuses duplicate keys, saying where', () => {
      assertError(
        readError(yamlFormat, 'a: 1\nb: 2\na: 3'),
        'SR3010',
        /^YAML document 1: a duplicate key \(the second one is here\) at line 3, column 1$/,
      );
    });

    it('refuses keys that are duplicates once they are text (1 and "1")', () => {
      assertError(
        readError(yamlFormat, '---\nx: 0\n---\n1: a\n"1": b'),
        'SR3010',
        /^YAML document 2: a duplicate key \(the second one is here\) at line 5, column 1$/,
      );
    });

    it('refuses a collection as a key', () => {
      assertError(
        readError(yamlFormat, '? [a, b]\n: x'),
        'SR3010',
        /a collection as a map key .* at line 1, column 3$/,
      );
    });

    it('refuses an alias to a collection as a key', () => {
      assertError(readError(yamlFormat, 'a: &c [1]\n? *c\n: x'), 'SR3010', /a collection as a map key/);
    });
  });

  describe('read: aliases', () => {
    const cases: [string, string, string][] = [
      ['an alias repeats its anchor', 'a: &x [1, 2]\nb: *x', '{"a":[1,2],"b":[1,2]}'],
      [
        'an alias means the anchor before it, even when redefined later',
        'a: &y 1\nb: &x [*y]\nc: &y 2\nd: *x\ne: *y',
        '{"a":1,"b":[1],"c":2,"d":[1],"e":2}',
      ],
      [
        'aliases inside aliases',
        'a: &a [x]\nb: &b [*a, *a]\nc: [*b, *b]',
        '{"a":["x"],"b":[["x"],["x"]],"c":[[["x"],["x"]],[["x"],["x"]]]}',
      ],
    ];
    for (const [name, payload, input] of cases) {
      it(name, () => assert.deepEqual(inputsOf(yamlFormat, payload), [input]));
    }

    it('refuses an alias to an undefined anchor', () => {
      assertError(
        readError(yamlFormat, 'a: *nope'),
        'SR3010',
        /an alias to an anchor not defined before it at line 1, column 4$/,
      );
    });

    it('refuses an alias inside the node it names (a recursive structure)', () => {
      assertError(readError(yamlFormat, 'a: &a [1, *a]'), 'SR3010', /recursion\) at line 1, column 11$/);
    });

    it(`stops a billion laughs at ${YAML_MAX_ALIAS_NODES} alias nodes, quickly, at the alias`, () => {
      const started = performance.now();
      assertError(
        readError(yamlFormat, billionLaughs(9)),
        'SR3011',
        /aliases expand to more than 100000 nodes at line \d+, column \d+$/,
      );
      assert.ok(performance.now() - started < 2000);
    });

    it('stops aliases of long strings by the text they add', () => {
      const payload = `a: &s ${'x'.repeat(100_000)}\nb: [${Array(100).fill('*s').join(', ')}]`;
      assertError(readError(yamlFormat, payload), 'SR3011', /aliases expand to more than 4194304 characters/);
    });

    it('allows moderate reuse', () => {
      const [input] = inputsOf(yamlFormat, billionLaughs(3));
      assert.equal(input!.match(/lol/g)?.length, 10 + 100 + 1000 + 10000);
    });
  });

  describe('read: errors carry the document, line and column', () => {
    const cases: [string, string, RegExp][] = [
      ['bad indentation', 'a: [1, 2\n', /^YAML document 1: bad indentation at line 2, column 1$/],
      [
        'a nested map in a compact one',
        'a: b: c',
        /a block collection used as an implicit key at line 1, column 4$/,
      ],
      ['a bad escape', 'a: "\\x"', /an invalid escape .* at line 1, column 5$/],
      ['the error of a later document', 'a: 1\n---\nb: [\n', /^YAML document 2: /],
      ['a tab as indentation', 'a:\n\t- b', /^YAML document 1: .* at line 2, column 1$/],
    ];
    for (const [name, payload, reason] of cases) {
      it(name, () => assertError(readError(yamlFormat, payload), 'SR3010', reason));
    }

    it('never quotes the payload', () => {
      const { reason } = readError(yamlFormat, 'password: "hunter2\\q"');
      assert.doesNotMatch(reason, /hunter2|password/);
    });

    it('is SR3001 for invalid UTF-8', () => {
      assertError(
        readError(yamlFormat, hex('61 3a 20 ff')),
        'SR3001',
        /^YAML: the payload is not valid UTF-8 \(byte offset 3\)$/,
      );
    });
  });

  describe('read: nesting', () => {
    it(`reads ${MAX_DEPTH} levels`, () => {
      assert.equal(inputsOf(yamlFormat, '['.repeat(MAX_DEPTH) + ']'.repeat(MAX_DEPTH)).length, 1);
    });

    const deep: [string, string][] = [
      ['flow', '['.repeat(MAX_DEPTH + 1) + ']'.repeat(MAX_DEPTH + 1)],
      ['block', `${'- '.repeat(MAX_DEPTH + 1)}x`],
      ['very deep', '['.repeat(50_000) + ']'.repeat(50_000)],
    ];
    for (const [name, payload] of deep) {
      it(`refuses deeper as SR3011 (${name})`, () =>
        assertError(readError(yamlFormat, payload), 'SR3011', /nesting/));
    }
  });

  describe('write: one YAML document', () => {
    const cases: [string, JsonValue, string][] = [
      ['a map', { a: 1, b: ['x', null] }, 'a: 1\nb:\n  - x\n  - null\n'],
      [
        '64-bit integers',
        { u: 18446744073709551615n, i: -9223372036854775808n },
        'u: 18446744073709551615\ni: -9223372036854775808\n',
      ],
      [
        'strings that look like other scalars are quoted',
        { a: '1', b: 'true', c: 'null', d: '', e: 'x: y' },
        'a: "1"\nb: "true"\nc: "null"\nd: ""\ne: "x: y"\n',
      ],
      [
        'a long string stays on one line',
        { a: 'word '.repeat(30).trim() },
        `a: ${'word '.repeat(30).trim()}\n`,
      ],
      ['a scalar document', 'x', 'x\n'],
      [
        'shared objects are written twice, not as an anchor',
        ((shared) => ({ a: shared, b: shared }))({ k: 1 }),
        'a:\n  k: 1\nb:\n  k: 1\n',
      ],
    ];
    for (const [name, value, text] of cases) {
      it(name, () => assert.equal(writtenText(yamlFormat, value), text));
    }

    it('writes an own __proto__ key', () => {
      assert.equal(
        writtenText(yamlFormat, JSON.parse('{"__proto__":{"x":1}}') as JsonValue),
        '__proto__:\n  x: 1\n',
      );
    });

    it('regression: a string whose first line is only blanks reads back whole (yaml writes it as a broken |+ block)', () => {
      assert.deepEqual(inputsOf(yamlFormat, writtenText(yamlFormat, { a: ' \n', b: ' \n\n' })), [
        '{"a":" \\n","b":" \\n\\n"}',
      ]);
    });

    it('refuses NaN with SR3008 at its key path', () => {
      assertError(
        writeError(yamlFormat, { a: { 'b c': NaN } }),
        'SR3008',
        /^YAML: cannot write NaN or an infinity at \.\{1\}\.\{1\}$/,
      );
    });

    it('round-trips 64-bit integers: value → write → read', () => {
      const value = { u: 18446744073709551615n, i: -9223372036854775808n };
      const [input] = inputsOf(yamlFormat, writtenText(yamlFormat, value));
      assert.deepEqual(parseJsonValue(input!), value);
    });
  });
});

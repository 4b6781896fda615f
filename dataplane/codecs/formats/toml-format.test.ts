import assert from 'node:assert/strict';
import { parseJsonValue, type JsonValue } from '../json-value.js';
import { MAX_DEPTH } from './format-limits.js';
import { tomlFormat } from './toml-format.js';
import {
  assertError,
  hex,
  inputsOf,
  readError,
  writeError,
  writtenText,
} from '../../../test/fixtures/payload-formats.js';

describe('TOML payload format', () => {
  describe('read: one document is one object', () => {
    const cases: [string, string, string][] = [
      [
        'tables and arrays of tables',
        'a = 1\n[t]\nb = "x"\n[[items]]\nid = 1\n[[items]]\nid = 2',
        '{"a":1,"t":{"b":"x"},"items":[{"id":1},{"id":2}]}',
      ],
      ['an empty document is an empty object', '', '{}'],
      ['dotted and quoted keys', 'a.b = 1\n"x y" = 2\n"" = 3', '{"a":{"b":1},"x y":2,"":3}'],
      [
        '64-bit integers exactly',
        'max = 9223372036854775807\nmin = -9223372036854775808\nu = 18446744073709551615',
        '{"max":9223372036854775807,"min":-9223372036854775808,"u":18446744073709551615}',
      ],
      [
        'hex, octal and binary integers',
        'h = 0xff\no = 0o17\nb = 0b101\nu = 1_000',
        '{"h":255,"o":15,"b":5,"u":1000}',
      ],
      [
        'floats; a whole float reads as its integer',
        'a = 1.5\nb = 2.0\nc = -0.0\nd = 1e3',
        '{"a":1.5,"b":2,"c":0,"d":1000}',
      ],
      [
        'inf and nan become strings',
        'a = inf\nb = -inf\nc = nan\nd = +nan',
        '{"a":"Infinity","b":"-Infinity","c":"NaN","d":"NaN"}',
      ],
      [
        'offset date-times keep their offset, with milliseconds',
        'a = 1979-05-27T07:32:00Z\nb = 1979-05-27T00:32:00.5-07:00\nc = 1979-05-27T07:32:00+00:00',
        '{"a":"1979-05-27T07:32:00.000Z","b":"1979-05-27T00:32:00.500-07:00","c":"1979-05-27T07:32:00.000+00:00"}',
      ],
      [
        'a space and a lower-case z are normalised',
        'a = 1979-05-27 07:32:00z',
        '{"a":"1979-05-27T07:32:00.000Z"}',
      ],
      [
        'digits beyond milliseconds are cut off',
        'a = 1979-05-27T00:32:00.999999Z',
        '{"a":"1979-05-27T00:32:00.999Z"}',
      ],
      [
        'local date-times, dates and times',
        'a = 1979-05-27T07:32:00\nb = 1979-05-27\nc = 07:32:00\nd = 00:32:00.1234',
        '{"a":"1979-05-27T07:32:00.000","b":"1979-05-27","c":"07:32:00.000","d":"00:32:00.123"}',
      ],
      ['February 29 in a leap year', 'a = 1980-02-29', '{"a":"1980-02-29"}'],
      ['a string holding a date stays that string', 'a = "1979-02-30"', '{"a":"1979-02-30"}'],
      [
        '__proto__ and constructor are ordinary keys',
        '"__proto__" = 1\n[constructor]\nx = 1',
        '{"__proto__":1,"constructor":{"x":1}}',
      ],
      ['a byte-order mark is dropped', '\ufeffa = 1', '{"a":1}'],
    ];
    for (const [name, payload, input] of cases) {
      it(name, () => assert.deepEqual(inputsOf(tomlFormat, payload), [input]));
    }

    it('64-bit integers reach the program exactly', () => {
      const [input] = inputsOf(tomlFormat, 'u = 18446744073709551615\ni = -9223372036854775808');
      assert.deepEqual(parseJsonValue(input!), { u: 18446744073709551615n, i: -9223372036854775808n });
    });
  });

  describe('read: errors', () => {
    const cases: [string, string, string, RegExp][] = [
      [
        'a redefined key',
        'x = 1\nx = 2',
        'SR3010',
        /^TOML: trying to redefine an already defined table or value at line 2, column 1$/,
      ],
      [
        'a control character in a string',
        'x = "\u0001"',
        'SR3010',
        /^TOML: control characters are not allowed in strings at line 1, column 6$/,
      ],
      [
        'an integer beyond 64 bits',
        'a = 18446744073709551616',
        'SR3010',
        /^TOML: an integer beyond 64 bits at \.\{1\}$/,
      ],
      [
        'a day beyond its month (no roll-over to March)',
        'd = 1979-02-30',
        'SR3010',
        /^TOML: an invalid date \(a day beyond its month\) at \.\{1\}$/,
      ],
      [
        'February 29 in a common year',
        '[t]\nd = 1979-02-29T00:00:00Z',
        'SR3010',
        /an invalid date .* at \.\{1\}\.\{1\}$/,
      ],
      ['hour 24', 'a = 1979-05-27T24:00:00Z', 'SR3010', /^TOML: invalid date at line 1, column 5$/],
      [
        'inline nesting too deep',
        `a = ${'['.repeat(MAX_DEPTH + 1)}${']'.repeat(MAX_DEPTH + 1)}`,
        'SR3011',
        /^TOML: nesting deeper than 256 at line 1, column \d+$/,
      ],
      [
        'dotted keys too deep',
        `a.${'b.'.repeat(MAX_DEPTH)}c = 1`,
        'SR3011',
        /^TOML: nesting deeper than 256 at …(\.\{1\}){8}$/,
      ],
    ];
    for (const [name, payload, code, reason] of cases) {
      it(name, () => assertError(readError(tomlFormat, payload), code as 'SR3010', reason));
    }

    it('is SR3001 for invalid UTF-8', () => {
      assertError(
        readError(tomlFormat, hex('61 3d 22 c3 22')),
        'SR3001',
        /^TOML: the payload is not valid UTF-8 \(byte offset 3\)$/,
      );
    });

    it('never quotes the payload', () => {
      const { reason } = readError(tomlFormat, 'password = "hunter2\\q"');
      assert.doesNotMatch(reason, /hunter2|password/);
    });
  });

  describe('write: the value must be a table', () => {
    const cases: [string, JsonValue, string][] = [
      [
        'scalars, arrays and tables',
        { a: 1, b: 'x', c: [1, 'y'], t: { d: true } },
        'a = 1\nb = "x"\nc = [ 1, "y" ]\n\n[t]\nd = true\n',
      ],
      ['arrays of tables', { items: [{ id: 1 }, { id: 2 }] }, '[[items]]\nid = 1\n\n[[items]]\nid = 2\n'],
      [
        '64-bit integers',
        { u: 18446744073709551615n, i: -9223372036854775808n },
        'u = 18446744073709551615\ni = -9223372036854775808\n',
      ],
      [
        'a date read from TOML is written back as a string',
        { d: '1979-05-27T07:32:00.000Z' },
        'd = "1979-05-27T07:32:00.000Z"\n',
      ],
      ['odd keys are quoted', { 'a.b': 1, 'x y': 2 }, '"a.b" = 1\n"x y" = 2\n'],
      ['an empty object is an empty document', {}, '\n'],
    ];
    for (const [name, value, text] of cases) {
      it(name, () => assert.equal(writtenText(tomlFormat, value), text));
    }

    const refused: [string, JsonValue, RegExp][] = [
      [
        'a top-level array',
        [1],
        /^TOML: cannot write an array at \.: a TOML document is a table \(an object\)$/,
      ],
      ['a top-level string', 'x', /cannot write a string at \./],
      ['a top-level null', null, /cannot write null at \./],
      [
        'null in a table',
        { a: { b: null } },
        /^TOML: cannot write null \(TOML has no null\) at \.\{1\}\.\{1\}$/,
      ],
      ['null in an array', { a: [1, null] }, /null .* at \.\{1\}\[1\]$/],
      ['an integer beyond 64 bits', { a: 18446744073709551616n }, /an integer beyond 64 bits at \.\{1\}$/],
      ['a lone surrogate', { a: 'x\ud800' }, /a lone surrogate .* at \.\{1\}$/],
      ['NaN', { a: NaN }, /NaN or an infinity at \.\{1\}$/],
    ];
    for (const [name, value, reason] of refused) {
      it(`refuses ${name} with SR3008`, () => assertError(writeError(tomlFormat, value), 'SR3008', reason));
    }

    it('writes an own __proto__ key', () => {
      assert.equal(
        writtenText(tomlFormat, JSON.parse('{"__proto__":{"x":1}}') as JsonValue),
        '[__proto__]\nx = 1\n',
      );
    });

    it('round-trips 64-bit integers: value → write → read', () => {
      const value = { u: 18446744073709551615n, i: -9223372036854775808n };
      const [input] = inputsOf(tomlFormat, writtenText(tomlFormat, value));
      assert.deepEqual(parseJsonValue(input!), value);
    });
  });
});

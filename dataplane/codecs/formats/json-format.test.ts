import assert from 'node:assert/strict';
import { parseJsonValue, type JsonValue } from '../json-value.js';
import { MAX_DEPTH } from './format-limits.js';
import { jsonFormat } from './json-format.js';
import {
  assertError,
  bytesOf,
  hex,
  inputsOf,
  readError,
  writeError,
  writtenText,
} from '../../../test/fixtures/payload-formats.js';

describe('JSON payload format', () => {
  describe('read: the payload text is the input, as sent', () => {
    const cases: [string, string, string][] = [
      ['an object', '{"a":1,"b":[true,null,"x"]}', '{"a":1,"b":[true,null,"x"]}'],
      ['white space around and inside is kept', ' \n{ "a" : 1 }\t\r\n', ' \n{ "a" : 1 }\t\r\n'],
      ['a U64 keeps every digit', '{"big":18446744073709551615}', '{"big":18446744073709551615}'],
      ['the lowest I64', '{"low":-9223372036854775808}', '{"low":-9223372036854775808}'],
      ['beyond 64 bits too', '[123456789012345678901234567890]', '[123456789012345678901234567890]'],
      ['a top-level scalar', '42', '42'],
      ['a top-level string', '"x"', '"x"'],
      ['null', 'null', 'null'],
      [
        'duplicate keys are passed on (the program sees the last, as jq does)',
        '{"a":1,"a":2}',
        '{"a":1,"a":2}',
      ],
      ['a lone surrogate escape is valid JSON text', '"\\ud800"', '"\\ud800"'],
      ['__proto__ is an ordinary key', '{"__proto__":{"x":1}}', '{"__proto__":{"x":1}}'],
      ['a leading byte-order mark is dropped', '\ufeff{"a":1}', '{"a":1}'],
    ];
    for (const [name, payload, input] of cases) {
      it(name, () => assert.deepEqual(inputsOf(jsonFormat, payload), [input]));
    }

    it('exact integers survive into the value the program reads', () => {
      const [input] = inputsOf(jsonFormat, '{"u":18446744073709551615,"i":-9223372036854775808}');
      assert.deepEqual(parseJsonValue(input!), { u: 18446744073709551615n, i: -9223372036854775808n });
    });
  });

  describe('read: not JSON is SR3002 with a line, a column and what was expected', () => {
    const cases: [string, string, RegExp][] = [
      ['an empty payload', '', /^JSON: expected a value at line 1, column 1$/],
      ['only white space', '  \n ', /expected a value at line 2, column 2$/],
      ['a value missing', '{"a": }', /expected a value at line 1, column 7$/],
      ['a trailing comma', '{"a": 1,}', /expected a key \(a string in double quotes\) at line 1, column 9$/],
      ['an unclosed array', '[1, 2', /expected ',' or '\]' at line 1, column 6$/],
      ['a bad escape', '"\\x"', /expected a valid escape sequence at line 1, column 2$/],
      [
        'a raw control character',
        '"a\tb"',
        /expected a control character to be escaped at line 1, column 3$/,
      ],
      ['an unterminated string', '"abc', /expected a closing quote at line 1, column 5$/],
      ['a missing colon', '{"a" 1}', /expected ':' after the key at line 1, column 6$/],
      ['text after the value', '{"a":1} x', /expected the end of the payload at line 1, column 9$/],
      ['two values', '1 2', /expected the end of the payload at line 1, column 3$/],
      ['a leading zero', '[01]', /expected ',' or '\]' at line 1, column 3$/],
      ['NaN', '[NaN]', /expected a value at line 1, column 2$/],
      ['a truncated literal', 'tru', /expected a value at line 1, column 1$/],
      ['a later line', '{\n  "a": tru\n}', /expected a value at line 2, column 8$/],
      ['single quotes', "{'a': 1}", /expected a key/],
    ];
    for (const [name, payload, reason] of cases) {
      it(name, () => assertError(readError(jsonFormat, payload), 'SR3002', reason));
    }

    it('never quotes the payload', () => {
      const { reason } = readError(jsonFormat, '{"password": "hunter2", }');
      assert.doesNotMatch(reason, /hunter2|password/);
    });
  });

  describe('read: invalid UTF-8 is SR3001 with the byte offset', () => {
    const cases: [string, string, number][] = [
      ['a bad continuation', '7b c3 28 7d', 1],
      ['an overlong encoding', '22 c0 80 22', 1],
      ['a UTF-16 surrogate', '22 61 ed a0 80 22', 2],
      ['beyond U+10FFFF', '22 f4 90 80 80 22', 1],
      ['a truncated sequence', '22 e2 82', 1],
      ['a lone continuation byte', '80', 0],
    ];
    for (const [name, bytes, offset] of cases) {
      it(name, () =>
        assertError(readError(jsonFormat, hex(bytes)), 'SR3001', new RegExp(`\\(byte offset ${offset}\\)$`)),
      );
    }
  });

  describe('read: nesting', () => {
    it(`reads ${MAX_DEPTH} levels`, () => {
      const text = '['.repeat(MAX_DEPTH) + ']'.repeat(MAX_DEPTH);
      assert.deepEqual(inputsOf(jsonFormat, text), [text]);
    });

    it(`refuses ${MAX_DEPTH + 1} levels as SR3011 at the bracket that goes too deep`, () => {
      const text = `{"a":${'['.repeat(MAX_DEPTH)}${']'.repeat(MAX_DEPTH)}}`;
      assertError(
        readError(jsonFormat, text),
        'SR3011',
        /^JSON: nesting deeper than 256 at line 1, column 261$/,
      );
    });

    it('does not count brackets inside strings', () => {
      const text = `[${JSON.stringify('['.repeat(2000) + '\\"[')}]`;
      assert.deepEqual(inputsOf(jsonFormat, text), [text]);
    });
  });

  describe('write', () => {
    const cases: [string, JsonValue, string][] = [
      ['an object', { a: 1, b: [true, null, 'x'] }, '{"a":1,"b":[true,null,"x"]}'],
      [
        '64-bit integers with every digit',
        { u: 18446744073709551615n, i: -9223372036854775808n },
        '{"u":18446744073709551615,"i":-9223372036854775808}',
      ],
      ['a scalar', 'x', '"x"'],
      ['a float', 1.5, '1.5'],
    ];
    for (const [name, value, text] of cases) {
      it(name, () => assert.equal(writtenText(jsonFormat, value), text));
    }

    it('writes an own __proto__ key', () => {
      assert.equal(
        writtenText(jsonFormat, JSON.parse('{"__proto__":{"x":1}}') as JsonValue),
        '{"__proto__":{"x":1}}',
      );
    });

    it('refuses NaN and infinities with SR3008, naming the key path', () => {
      assertError(
        writeError(jsonFormat, { a: [1, NaN] }),
        'SR3008',
        /^JSON: cannot write NaN or an infinity at \.\{1\}\[1\]$/,
      );
      assertError(writeError(jsonFormat, Infinity), 'SR3008', / at \.$/);
    });

    it(`refuses a value nested deeper than ${MAX_DEPTH}`, () => {
      let value: JsonValue = [];
      for (let i = 0; i < MAX_DEPTH; i += 1) value = [value];
      assertError(writeError(jsonFormat, value), 'SR3008', /nested deeper than 256 at …(\[0\]){8}$/);
    });

    it('round-trips 64-bit integers: value → write → read', () => {
      const value = { u: 18446744073709551615n, i: -9223372036854775808n };
      const [input] = inputsOf(jsonFormat, bytesOf(writtenText(jsonFormat, value)));
      assert.deepEqual(parseJsonValue(input!), value);
    });
  });
});

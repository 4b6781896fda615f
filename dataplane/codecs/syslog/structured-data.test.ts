import assert from 'node:assert/strict';
import { StructuredDataScanner } from './structured-data.js';

const bytes = (text: string) => new TextEncoder().encode(text);

/** Where the elements at the start of `text` end (bytes), or the problem and its offset. */
function scan(text: string): number | { at: number; problem: string } {
  const scanner = new StructuredDataScanner();
  const payload = bytes(text);
  const end = scanner.scan(payload, 0, payload.length);
  return end < 0 ? { at: scanner.at, problem: scanner.problem } : end;
}

describe('RFC 5424 STRUCTURED-DATA scanner', () => {
  const wellFormed: [string, string, number][] = [
    ['an element without parameters', '[id@1]', 6],
    ['an empty value', '[id@1 a=""]', 11],
    ['several parameters', '[id@1 a="1" b="2" c="3"]', 24],
    ['adjacent elements', '[a@1][b@2 x="y"]', 16],
    ['stops before SP', '[a@1] [b@2]', 5],
    ['escaped quote, backslash and bracket', '[a@1 v="\\"\\\\\\]"]', 16],
    ['a backslash before another character is ordinary', '[a@1 v="\\n\\t"]', 14],
    ['UTF-8 in a value (bytes, not characters)', '[a@1 v="ü"]', 12],
    ['32-character names', `[${'i'.repeat(32)} ${'p'.repeat(32)}="v"]`, 71],
    ['"=" is allowed in a value', '[a@1 v="x=y"]', 13],
  ];
  for (const [name, text, end] of wellFormed) {
    it(`well-formed: ${name}`, () => assert.equal(scan(text), end));
  }

  const malformed: [string, string, number, string][] = [
    [
      'no SD-ID',
      '[ a="1"]',
      1,
      'an SD-ID must be 1–32 printable US-ASCII characters other than =, SP, ] and "',
    ],
    [
      'an SD-ID over 32',
      `[${'i'.repeat(33)}]`,
      1,
      'an SD-ID must be 1–32 printable US-ASCII characters other than =, SP, ] and "',
    ],
    ['a quote in an SD-ID', '[a"b]', 2, 'expected SP or "]" after an SD-ID or SD-PARAM'],
    ['no "=" after a name', '[a@1 b]', 6, 'expected =" after a PARAM-NAME'],
    ['an unquoted value', '[a@1 b=1]', 6, 'expected =" after a PARAM-NAME'],
    ['a value that is not closed', '[a@1 b="1', 9, 'a PARAM-VALUE is not closed by "'],
    ['a backslash at the end', '[a@1 b="\\', 9, 'a PARAM-VALUE is not closed by "'],
    ['an unescaped "]"', '[a@1 b="x]"]', 9, 'a PARAM-VALUE has a "]" that is not escaped as \\]'],
    [
      'two spaces between parameters',
      '[a@1 b="1"  c="2"]',
      11,
      'a PARAM-NAME must be 1–32 printable US-ASCII characters other than =, SP, ] and "',
    ],
    ['an element that is not closed', '[a@1', 4, 'expected SP or "]" after an SD-ID or SD-PARAM'],
    ['a control character in a name', '[a\tb]', 2, 'expected SP or "]" after an SD-ID or SD-PARAM'],
  ];
  for (const [name, text, at, problem] of malformed) {
    it(`malformed: ${name}`, () => assert.deepEqual(scan(text), { at, problem }));
  }
});

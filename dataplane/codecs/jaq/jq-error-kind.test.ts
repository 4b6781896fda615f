import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { JQ_ERROR_KINDS, jqErrorKind, type JqErrorKind } from './jq-error-kind.js';

const DOCS = join(import.meta.dirname, '..', '..', '..', 'docs', 'codecs.md');

describe('jq error kinds: a runtime error becomes one fixed kind, never its text', () => {
  it('are the table of docs/codecs.md ("jq error kinds")', () => {
    const text = readFileSync(DOCS, 'utf8');
    const section = text.slice(
      text.indexOf('### jq error kinds'),
      text.indexOf('### Tested against the reference'),
    );
    const rows = [...section.matchAll(/^\| `([a-z0-9_]+)` \| (.+) \|$/gm)].map(([, kind, what]) => [
      kind,
      what,
    ]);
    assert.deepEqual(rows, Object.entries(JQ_ERROR_KINDS));
  });

  it('classifies jq 1.8’s own messages (as the JAQ engine raises them) by their words', () => {
    const cases: [string, JqErrorKind][] = [
      ['Cannot iterate over string ("Mk73519b")', 'iterate'],
      ['Cannot index array with string ("Mk73519a")', 'index'],
      ['Cannot index object with object ({"Mk73519a":[...})', 'index'],
      ['Cannot check whether object has a number key', 'index'],
      ['object ({"Mk73519a":[7...}) and number (1) cannot be added', 'arithmetic'],
      ['object ({"a":1}) cannot be negated', 'arithmetic'],
      ['object ({"a":1}) and number (1) cannot have their containment checked', 'arithmetic'],
      ['number (73519) and number (0) cannot be divided because the divisor is zero', 'divide_by_zero'],
      [
        'number (73519) and number (0) cannot be divided (remainder) because the divisor is zero',
        'divide_by_zero',
      ],
      ['string ("Mk73519b") cannot be parsed as a number', 'parse'],
      ["Invalid numeric literal at EOF at line 1, column 8 (while parsing 'Mk73519b')", 'parse'],
      ['Invalid path expression with result "{\\"Mk73519a\\":[\\"Mk73519..."', 'path'],
      ['Invalid path expression near attempt to iterate through [77,107,55,51,53,49,57]', 'path'],
      ['Cannot use object ({"Mk73519a":[...}) as object key', 'object_key'],
      ['string ("Mk73519b") has no keys', 'type'],
      ['object ({"a":1}) cannot be sorted, as it is not an array', 'type'],
      ['trim input must be a string', 'type'],
      ['explode input must be a string', 'type'],
      ['startswith() requires string inputs', 'type'],
      ['object ({"a":1}) only strings have UTF-8 byte length', 'type'],
      ['object ({"a":1}) cannot be matched, as it is not a string', 'regex'],
      ['Regex failure: end pattern with unmatched parenthesis', 'regex'],
      ['date "Mk73519b" does not match format "%Y"', 'date'],
      ['strftime/1 requires parsed datetime inputs', 'date'],
      ['object ({"a":1}) cannot be csv-formatted, only an array', 'format'],
      ['object ({"a":1}) can not be escaped for shell', 'format'],
      ['base32d is not a valid format', 'format'],
      ['string ("Mk73519") is not valid base64 data', 'base64'],
      ["limit doesn't support negative count", 'argument'],
      ['Range bounds must be numeric', 'argument'],
      ['Exceeds depth limit for parsing', 'depth'],
      ['order A-17 has no lines', 'error_text'],
      ['break', 'error_text'],
    ];
    for (const [message, kind] of cases) assert.equal(jqErrorKind(message), kind, message);
  });

  it('classifies a message of megabytes by its ends, in bounded time', () => {
    const value = 'x'.repeat(4_000_000);
    const started = performance.now();
    assert.equal(jqErrorKind(`Cannot iterate over string ("${value}")`), 'iterate');
    assert.equal(jqErrorKind(`string ("${value}") cannot be parsed as a number`), 'parse');
    assert.equal(jqErrorKind(value), 'error_text');
    assert.ok(performance.now() - started < 500, 'bounded');
  });

  it('names a raised value that is not text by that fact alone', () => {
    for (const value of [null, 73519, 12345678901234567890n, { card: '4111' }, ['x'], true]) {
      assert.equal(jqErrorKind(value), 'error_value');
    }
  });

  it('gives one of the fixed kinds for any text, so a reason holds nothing of the text (property)', () => {
    fc.assert(
      fc.property(
        fc.string({ maxLength: 200 }),
        fc.constantFrom('', 'Cannot iterate over ', 'date "'),
        (text, head) => {
          const kind = jqErrorKind(head + text);
          assert.ok(Object.hasOwn(JQ_ERROR_KINDS, kind));
        },
      ),
    );
  });
});

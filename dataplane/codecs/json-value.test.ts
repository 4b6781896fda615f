import assert from 'node:assert/strict';
import { parseJsonValue, toJsonText } from './json-value.js';

describe('json-value: exact JSON both ways', () => {
  it('keeps integers beyond 2^53 as bigints and writes every digit back', () => {
    const text =
      '{"u64":18446744073709551615,"i64":-9223372036854775808,"safe":9007199254740991,"f":1.5,"e":1e400}';
    const value = parseJsonValue(text);
    assert.deepEqual(value, {
      u64: 18446744073709551615n,
      i64: -9223372036854775808n,
      safe: 9007199254740991,
      f: 1.5,
      e: Infinity,
    });
    assert.equal(
      toJsonText({ u64: 18446744073709551615n, list: [1n, null, 'x', true] }),
      '{"u64":18446744073709551615,"list":[1,null,"x",true]}',
    );
  });

  it('keeps every digit of an integer literal, also with a zero fraction (regression: 1…91.0 was rounded)', () => {
    const values = parseJsonValue('[12345678901234567891.0, 1180591620717411303424, 2.5e20, 1e2, 3.5, -0]');
    assert.deepEqual(values, [12345678901234567891n, 1180591620717411303424n, 2.5e20, 100, 3.5, -0]);
    assert.ok(Object.is((values as number[])[5], -0), 'minus zero stays a double');
  });

  it('keeps a "__proto__" key as an ordinary key on the exact path too (regression)', () => {
    const text = '{"__proto__":{"x":1},"big":18446744073709551615}';
    const value = parseJsonValue(text) as Record<string, unknown>;
    assert.deepEqual(Object.keys(value), ['__proto__', 'big']);
    assert.equal(Object.getPrototypeOf(value), Object.prototype);
    assert.equal(toJsonText(parseJsonValue(text)), text);
  });

  it('refuses to write NaN and the infinities, which JSON lacks', () => {
    assert.throws(() => toJsonText(Number.NaN), RangeError);
    assert.throws(() => toJsonText([Infinity]), RangeError);
  });

  it('throws SyntaxError for text that is not JSON', () => {
    assert.throws(() => parseJsonValue('{"a":'), SyntaxError);
  });
});

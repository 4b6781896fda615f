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

  it('keeps every digit of an integral number however it is written (regression: 1…91.0 was rounded)', () => {
    assert.deepEqual(parseJsonValue('[12345678901234567891.0, 1.8446744073709551615e19, 2.5e20, 1e2, 3.5]'), [
      12345678901234567891n,
      18446744073709551615n,
      250000000000000000000n,
      100,
      3.5,
    ]);
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

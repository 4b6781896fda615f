import assert from 'node:assert/strict';
import fc from 'fast-check';
import { sqlEquals } from '../../test/fixtures/correlator-reference.js';
import { Instant, type Value } from '../core/values.js';
import { keyFunction, normaliseKey } from './index-key.js';

describe('normaliseKey', () => {
  const same: [string, Value, Value][] = [
    ['U8 5 and I64 5n', 5, 5n],
    ['a negative I32 and an I64', -42, -42n],
    ['0 and -0', 0, -0],
    ['an exact float beyond 2^53 and its bigint', 2 ** 60, 2n ** 60n],
    ['instants with the same nanoseconds', new Instant(123n), new Instant(123n)],
    [
      'bytes with the same content, whatever the view',
      Uint8Array.of(1, 2),
      new Uint8Array(Uint8Array.of(0, 1, 2).buffer, 1),
    ],
    ['equal strings', 'order-1', 'order-1'],
  ];
  for (const [name, a, b] of same)
    it(`one key for ${name}`, () => {
      assert.notEqual(normaliseKey(a), undefined);
      assert.equal(normaliseKey(a), normaliseKey(b));
    });

  const different: [string, Value, Value][] = [
    ['a string and a number', '5', 5],
    ['a string and a bigint', '5', 5n],
    ['a boolean and a number', true, 1],
    ['an instant and its nanoseconds as a number', new Instant(5n), 5],
    ['an instant and the string spelling its tag', new Instant(5n), '\u0000t5'],
    ['bytes and the string of the same characters', Uint8Array.of(65), 'A'],
    ['bytes and the string spelling their tag', Uint8Array.of(65), '\u0000xA'],
    ['2^53 + 1 and 2^53 (a float cannot hold the former)', 2n ** 53n + 1n, 2 ** 53],
  ];
  for (const [name, a, b] of different)
    it(`different keys for ${name}`, () => assert.notEqual(normaliseKey(a), normaliseKey(b)));

  it('gives no key to null and NaN: `=` with them is never true', () => {
    assert.equal(normaliseKey(null), undefined);
    assert.equal(normaliseKey(Number.NaN), undefined);
  });

  it('gives the same key exactly when `=` holds (property, over mixed representations)', () => {
    const value = fc.oneof(
      fc.integer({ min: -3, max: 3 }),
      fc.bigInt({ min: -3n, max: 3n }),
      fc.constantFrom<Value>(2 ** 53, 2n ** 53n, 2n ** 53n + 1n, 0.5, -0, '', '1', '\u0000s', true, false),
      fc.bigInt({ min: 0n, max: 3n }).map((n) => new Instant(n)),
      fc.uint8Array({ maxLength: 2 }),
    );
    fc.assert(
      fc.property(value, value, (a, b) => {
        assert.equal(normaliseKey(a) === normaliseKey(b), sqlEquals(a, b));
      }),
      { numRuns: 2000 },
    );
  });
});

describe('keyFunction', () => {
  it('reads field names or accessors, per side', () => {
    const pairs = [{ left: 'a', right: (r: Record<string, Value>) => r.x ?? null }];
    assert.equal(keyFunction(pairs, 'left')({ a: 7n }), keyFunction(pairs, 'right')({ x: 7 }));
  });

  it('gives every record the same key when there are no equality conjuncts', () => {
    const all = keyFunction([], 'left');
    assert.equal(all({ a: 1 }), all({}));
  });

  it('joins several parts without ambiguity, and a null part gives no key', () => {
    const pairs = [
      { left: 'a', right: 'a' },
      { left: 'b', right: 'b' },
    ];
    const key = keyFunction(pairs, 'left');
    const part = fc.oneof(
      fc.string({ maxLength: 3, unit: fc.constantFrom('s', '1', ':', ';', 'n') }),
      fc.integer({ min: 0, max: 12 }),
    );
    fc.assert(
      fc.property(part, part, part, part, (a, b, c, d) => {
        const equal = sqlEquals(a, c) && sqlEquals(b, d);
        assert.equal(key({ a, b }) === key({ a: c, b: d }), equal);
      }),
      { numRuns: 2000 },
    );
    assert.equal(key({ a: 1, b: null }), undefined);
    assert.equal(key({ a: 1 }), undefined);
  });
});

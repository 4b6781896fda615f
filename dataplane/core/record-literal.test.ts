import assert from 'node:assert/strict';
import fc from 'fast-check';
import { inheritingLiteral, readingLiteral, requiredCheck } from './record-literal.js';
import type { RecordValues, Value } from './values.js';

/** Names that would break a literal if they were pasted into source without quoting. */
const AWKWARD = [
  'a"b',
  "c'd",
  'e\\f',
  'g\nh',
  'i\u2028j',
  '}); throw 1; ({',
  '\ud800',
  'constructor',
  'x-y z',
];

describe('record literals', () => {
  it('readingLiteral: the fields in schema order, each from its read with both arguments', () => {
    const make = readingLiteral<string, number>(
      ['b', 'a', 'c'],
      [(s, n) => `${s}${n}`, (_, n) => n * 2, () => null],
    );
    const record = make('x', 4);
    assert.deepEqual(record, { b: 'x4', a: 8, c: null });
    assert.deepEqual(Object.keys(record), ['b', 'a', 'c']);
    assert.notEqual(make('x', 4), record, 'a new record every call');
  });

  it('readingLiteral refuses a read count that does not match the names', () => {
    assert.throws(() => readingLiteral(['a', 'b'], [() => 1]), RangeError);
  });

  it('inheritingLiteral copies the inherited fields, nulls the others and the missing ones', () => {
    const make = inheritingLiteral(['id', 'note', 'extra', 'n'], new Set(['id', 'note', 'n']));
    const record = make({ id: 'o-1', n: 3n, other: 'dropped' });
    assert.deepEqual(record, { id: 'o-1', note: null, extra: null, n: 3n });
    assert.deepEqual(Object.keys(record), ['id', 'note', 'extra', 'n']);
    assert.deepEqual(make(undefined), { id: null, note: null, extra: null, n: null });
  });

  it('requiredCheck: the index of the first required field that is null, else -1', () => {
    const first = requiredCheck(['a', 'b']);
    assert.equal(first({ a: 1, b: 2 }), -1);
    assert.equal(first({ a: 1, b: null }), 1);
    assert.equal(first({ a: null, b: null }), 0);
    assert.equal(requiredCheck([])({ a: null }), -1);
  });

  it('embeds any field name as data: quotes, line terminators, lone surrogates, code-like text', () => {
    const values = AWKWARD.map((_, index) => index);
    const record = readingLiteral(
      AWKWARD,
      AWKWARD.map((_, index) => () => index),
    )(0, 0);
    assert.deepEqual(Object.keys(record), AWKWARD);
    assert.deepEqual(Object.values(record), values);
    const copied = inheritingLiteral(AWKWARD, new Set(AWKWARD))(record);
    assert.deepEqual(copied, record);
    assert.equal(requiredCheck(AWKWARD)({ ...record, [AWKWARD[3] ?? '']: null }), 3);
  });

  it('__proto__ is an own field like any other and never sets the prototype', () => {
    const record = readingLiteral(['__proto__', 'x'], [() => null, () => 1])(0, 0);
    assert.equal(Object.getPrototypeOf(record), Object.prototype);
    assert.deepEqual(Object.keys(record), ['__proto__', 'x']);
    assert.equal(Object.getOwnPropertyDescriptor(record, '__proto__')?.value, null);
    const input = readingLiteral(['__proto__'], [() => 'p'])(0, 0);
    const copied = inheritingLiteral(['__proto__'], new Set(['__proto__']))(input);
    assert.equal(Object.getOwnPropertyDescriptor(copied, '__proto__')?.value, 'p');
    const fromPlain = inheritingLiteral(['__proto__'], new Set(['__proto__']))({});
    assert.equal(Object.getOwnPropertyDescriptor(fromPlain, '__proto__')?.value, null, 'not the prototype');
    assert.equal(requiredCheck(['__proto__'])(record), 0);
  });

  it('a record inherits exactly what a keyed copy would (property)', () => {
    const name = fc.string({ minLength: 1, maxLength: 12 }).filter((text) => text !== '__proto__');
    const value = fc.oneof(fc.constant(null), fc.integer(), fc.string());
    fc.assert(
      fc.property(fc.uniqueArray(name, { maxLength: 12 }), fc.dictionary(name, value), (names, input) => {
        const inherit = new Set(names.filter((_, index) => index % 2 === 0));
        const expected: RecordValues = {};
        for (const field of names) {
          expected[field] = inherit.has(field) ? ((input as Record<string, Value>)[field] ?? null) : null;
        }
        assert.deepEqual(inheritingLiteral(names, inherit)(input), expected);
      }),
    );
  });
});

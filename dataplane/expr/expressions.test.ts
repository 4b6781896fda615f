import assert from 'node:assert/strict';
import fc from 'fast-check';
import { typedExpression, type ScopeShape } from '../../test/fixtures/typed-expression.js';
import { RecordError } from '../core/errors.js';
import { compileExpression, type EvalScope } from './expressions.js';
import { parseRfc3339 } from '../core/rfc3339.js';
import { Instant, type Value } from '../core/values.js';

const NOW = parseRfc3339('2026-11-22T03:08:00.123456789Z')!;
const options = { now: () => NOW };

const SHAPE: ScopeShape = {
  input: {
    u8: 'U8',
    u8b: 'U8',
    u16: 'U16',
    u32: 'U32',
    i32: 'I32',
    i64: 'I64',
    u64: 'U64',
    f64: 'F64',
    s: 'STRING',
    t: 'DATETIME',
    b: 'BOOL',
    raw: 'BYTES',
    ns: 'STRING?',
    ni: 'I64?',
    nb: 'BOOL?',
  },
  metadata: { host: 'STRING' },
  output: { x: 'I64' },
};

const SCOPE: EvalScope = {
  input: {
    u8: 200,
    u8b: 100,
    u16: 65535,
    u32: 4294967295,
    i32: -2147483648,
    i64: 9223372036854775807n,
    u64: 18446744073709551615n,
    f64: 1.5,
    s: ' Héllo 😀 ',
    t: parseRfc3339('2026-01-02T03:04:05.5+01:00')!,
    b: true,
    raw: new Uint8Array([1, 2, 3]),
    ns: null,
    ni: null,
    nb: null,
  },
  metadata: { host: 'shop.example.com' },
  output: { x: 41n },
};

function run(text: string): Value {
  return compileExpression(typedExpression(text, SHAPE), options)(SCOPE);
}

type Expected = Value | { error: string };

const CASES: [string, Expected][] = [
  // literals and scopes
  ['42', 42n],
  ['3.25', 3.25],
  ["'it''s'", "it's"],
  ['TRUE', true],
  ['NULL IS NULL', true],
  ['metadata.host', 'shop.example.com'],
  ['output.x + 1', 42n],
  // 64-bit integers are exact
  ['input.i64', 9223372036854775807n],
  ['input.i64 - 1', 9223372036854775806n],
  ['input.i64 + 1', { error: 'SR3102' }],
  ['input.u64 - 1', 18446744073709551614n],
  ['input.u64 + 1', { error: 'SR3102' }],
  ['input.u64 + input.i64', { error: 'SR3102' }], // typed I64: neither contains the other
  ['-9223372036854775808', -9223372036854775808n],
  ['-9223372036854775808 / -1', { error: 'SR3102' }],
  ['9007199254740993 + 0', 9007199254740993n],
  ["to_i64('9223372036854775807')", 9223372036854775807n],
  ['to_string(input.u64)', '18446744073709551615'],
  // narrow integers keep their type and overflow in it
  ['input.u8 + 55', 255],
  ['input.u8 + 56', { error: 'SR3102' }],
  ['input.u8 + input.u8b', { error: 'SR3102' }],
  ['input.u8 - 201', { error: 'SR3102' }],
  ['input.u8 + 1000', 1200n],
  ['input.u16 + input.u8', { error: 'SR3102' }],
  ['input.u32 * input.u32', { error: 'SR3102' }],
  ['input.i32 / -1', { error: 'SR3102' }],
  ['input.i32 + 1', -2147483647],
  // division
  ['7 / 2', 3n],
  ['-7 / 2', -3n],
  ['input.u8 / 3', 66],
  ['1 / 0', { error: 'SR3101' }],
  ['input.u8 / (input.u8b - 100)', { error: 'SR3101' }],
  ['input.f64 / 0', { error: 'SR3101' }],
  // F64
  ['input.f64 * 2', 3],
  ['input.f64 + 1', 2.5],
  ['input.u64 + 0.5', 18446744073709551615.5],
  ['-input.f64', -1.5],
  // unary minus is I64
  ['-input.u8', -200n],
  ['-input.u64', { error: 'SR3102' }],
  // comparisons across representations
  ['input.u8 = 200', true],
  ['input.u8 < input.i64', true],
  ['input.u64 > input.i64', true],
  ['input.f64 > 1', true],
  ['input.f64 = 1.5', true],
  ['input.i64 = 9223372036854775806', false],
  ['input.i64 != 9223372036854775806', true],
  ["'b' > 'a'", true],
  ["'a' <= 'a'", true],
  ["'\uffff' < '😀'", true], // code point order, not UTF-16 units
  ['input.t < now()', true],
  ['input.t = input.t', true],
  ['input.b = TRUE', true],
  ['input.raw = input.raw', true],
  // nulls
  ["input.ns = 'x'", null],
  ['input.ni + 1', null],
  ['-input.ni', null],
  ["input.ns || 'x'", null],
  ['NULL + 1', null],
  ['coalesce(NULL, NULL)', null],
  ['input.nb AND FALSE', false],
  ['input.nb AND TRUE', null],
  ['FALSE AND input.nb', false],
  ['input.nb OR TRUE', true],
  ['input.nb OR FALSE', null],
  ['NOT input.nb', null],
  ['NOT input.b', false],
  ['input.ns IS NULL', true],
  ['input.ns IS NOT NULL', false],
  ['length(input.ns)', null],
  ['substr(input.s, input.ni)', null],
  ["concat(input.ns, 'a', 1, input.ni, TRUE)", 'a1true'],
  ['coalesce(input.ni, input.u8)', 200n],
  ["coalesce(input.ns, 'default')", 'default'],
  // functions
  ['lower(input.s)', ' héllo 😀 '],
  ['upper(input.s)', ' HÉLLO 😀 '],
  ['trim(input.s)', 'Héllo 😀'],
  ['length(input.s)', 9n],
  ['length(input.raw)', 3n],
  ["substr('hello', 2, 3)", 'ell'],
  ["substr('hello', 0, 2)", 'h'],
  ["substr('hello', -1)", 'hello'],
  ["substr('hello', 4)", 'lo'],
  ["substr('hello', 9)", ''],
  ["substr('hello', 2, -1)", { error: 'SR3103' }],
  ["substr('a😀b', 2, 1)", '😀'],
  ["'a' || 'b' || to_string(input.u8)", 'ab200'],
  ['to_string(TRUE)', 'true'],
  ['to_string(input.t)', '2026-01-02T02:04:05.5Z'],
  ['to_string(input.f64)', '1.5'],
  ['to_string(input.raw)', 'AQID'],
  ['to_string(now())', '2026-11-22T03:08:00.123456789Z'],
  ["to_i64('  -42 ')", -42n],
  ["to_i64('4.2')", null],
  ["to_i64('9223372036854775808')", null],
  ['to_i64(input.f64)', null],
  ['to_i64(2.0)', 2n],
  ['to_i64(input.u64)', null],
  ['to_i64(input.b)', 1n],
  ['to_i64(input.u8)', 200n],
  ['abs(-5)', 5n],
  ['abs(input.i32)', { error: 'SR3102' }],
  ['abs(-9223372036854775807 - 1)', { error: 'SR3102' }],
  ['abs(-input.f64)', 1.5],
  ['abs(input.u8)', 200],
];

describe('expressions', () => {
  for (const [text, expected] of CASES) {
    it(`${text} → ${show(expected)}`, () => {
      if (expected !== null && typeof expected === 'object' && 'error' in expected) {
        assert.throws(
          () => run(text),
          (error: unknown) => error instanceof RecordError && error.code === expected.error,
        );
        return;
      }
      const value = run(text);
      if (expected instanceof Uint8Array || expected instanceof Instant) assert.deepEqual(value, expected);
      else assert.equal(value, expected);
    });
  }

  it('now() reads the injected clock', () => {
    assert.ok(NOW.equals(run('now()') as Instant));
  });

  it('compiles the tree once: changing the tree afterwards does not change the closure', () => {
    const tree = typedExpression('input.u8 + 1', SHAPE);
    const evaluate = compileExpression(tree, options);
    if (tree.kind === 'binary' && tree.right.kind === 'literal') tree.right.value = '50';
    assert.equal(evaluate(SCOPE), 201);
  });

  it('refuses a tree without types (a graph the compiler did not type)', () => {
    assert.throws(
      () => compileExpression({ kind: 'literal', literal: 'INTEGER', value: '1' }, options),
      /has no type/,
    );
  });

  it('I64 addition is exact or an overflow, never rounded', () => {
    const evaluate = compileExpression(
      typedExpression('input.a + input.b', { input: { a: 'I64', b: 'I64' } }),
      options,
    );
    fc.assert(
      fc.property(
        fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }),
        fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }),
        (a, b) => {
          const exact = a + b;
          const fits = exact >= -(2n ** 63n) && exact < 2n ** 63n;
          if (fits) assert.equal(evaluate({ input: { a, b } }), exact);
          else assert.throws(() => evaluate({ input: { a, b } }), RecordError);
        },
      ),
    );
  });

  it('compares U32 numbers with I64 bigints and F64 numbers exactly', () => {
    const evaluate = compileExpression(
      typedExpression('input.a < input.b', { input: { a: 'U32', b: 'I64' } }),
      options,
    );
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 4294967295 }),
        fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }),
        (a, b) => {
          assert.equal(evaluate({ input: { a, b } }), BigInt(a) < b);
        },
      ),
    );
  });
});

function show(expected: Expected): string {
  if (expected !== null && typeof expected === 'object' && 'error' in expected) return expected.error;
  if (typeof expected === 'bigint') return `${expected}n`;
  return expected instanceof Instant ? expected.toRfc3339() : JSON.stringify(expected);
}

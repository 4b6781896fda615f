import assert from 'node:assert/strict';
import type { ExprType } from '../../dataplane/graph/expression.js';
import { parseExpression } from '../language/parse.js';
import { assignable } from './expression-types.js';
import { typeExpression, type ScopeField, type Scopes } from './type-expression.js';

const field = (type: ScopeField['type'], nullable = false): ScopeField => ({
  type,
  nullable,
  sensitive: false,
});

const SCOPES: Scopes = {
  input: {
    what: 'input',
    fields: new Map([
      ['s', field('STRING')],
      ['ns', field('STRING', true)],
      ['n', field('I64')],
      ['u8', field('U8')],
      ['u64', field('U64')],
      ['f', field('F64')],
      ['b', field('BOOL')],
      ['t', field('DATETIME')],
      ['raw', field('BYTES')],
    ]),
  },
};

function typeOf(text: string): {
  type: ExprType | undefined;
  nullable: boolean | undefined;
  problems: string[];
} {
  const parsed = parseExpression(text);
  assert.ok(parsed.expr, `${text} parses`);
  const typed = typeExpression(parsed.expr, SCOPES);
  return {
    type: typed.expr.type,
    nullable: typed.expr.nullable,
    problems: typed.problems.map((problem) => `${problem.code} ${problem.message}`),
  };
}

describe('type-expression', () => {
  const ok: [string, ExprType, boolean][] = [
    ["'text'", 'STRING', false],
    ['42', 'I64', false],
    ['18446744073709551615', 'U64', false],
    ['1.5', 'F64', false],
    ['NULL', 'NULL', true],
    ['input.ns', 'STRING', true],
    ['input.u8 + 1', 'U8', false],
    ['input.u8 + input.n', 'I64', false],
    ['input.u64 + input.n', 'I64', false],
    ['input.n * input.f', 'F64', false],
    ['-input.u8', 'I64', false],
    ['input.s || input.ns', 'STRING', true],
    ['concat(input.s, input.ns, input.n)', 'STRING', false],
    ["coalesce(input.ns, 'x')", 'STRING', false],
    ['coalesce(input.ns, NULL)', 'STRING', true],
    ['coalesce(input.u8, input.n)', 'I64', false],
    ['length(input.raw)', 'I64', false],
    ['substr(input.s, 1, 2)', 'STRING', false],
    ['now()', 'DATETIME', false],
    ['to_string(input.t)', 'STRING', false],
    ['to_i64(input.s)', 'I64', true],
    ['to_i64(input.u8)', 'I64', false],
    ['to_i64(input.u64)', 'I64', true],
    ['abs(input.f)', 'F64', false],
    ['input.ns IS NULL', 'BOOL', false],
    ['input.s = input.ns AND NOT input.b', 'BOOL', true],
    ['input.t < now() OR input.n >= 3', 'BOOL', false],
    ['UPPER(input.s)', 'STRING', false],
  ];
  for (const [text, type, nullable] of ok) {
    it(`${text} is ${type}${nullable ? ' (nullable)' : ''}`, () => {
      assert.deepEqual(typeOf(text), { type, nullable, problems: [] });
    });
  }

  const problems: [string, string][] = [
    ['input.nope', 'SR2003 input.nope: input has no field nope'],
    ['error.code', 'SR2008 error.code: the error. scope is not available here; use input.'],
    ['input.s + 1', 'SR2005 + needs numbers, not STRING'],
    ['input.s || input.n', 'SR2005 || joins STRING values, not I64; convert with to_string()'],
    ['input.s = input.n', 'SR2005 cannot compare STRING with I64'],
    ['input.b < input.b', 'SR2005 BOOL values have no order'],
    ['input.s = NULL', 'SR2005 = with NULL is never true; write IS NULL or IS NOT NULL'],
    ['NOT input.s', 'SR2005 NOT needs a BOOL, not STRING'],
    ['input.n AND input.b', 'SR2005 AND needs BOOL operands, not I64'],
    ['lower(input.n)', 'SR2005 lower(): its argument must be STRING, not I64'],
    ['coalesce(input.s, 1)', 'SR2005 coalesce(): its arguments must share a type, not STRING, I64'],
    ['substr(input.s)', 'SR2006 substr() takes 2 to 3 arguments, not 1'],
    ['now(1)', 'SR2006 now() takes no arguments, not 1'],
    ['coalesce(input.s)', 'SR2006 coalesce() takes at least 2 arguments, not 1'],
    ['frobnicate(input.s)', 'SR2006 unknown function frobnicate()'],
    ['99999999999999999999999', 'SR2005 99999999999999999999999 is beyond U64'],
    ['-18446744073709551615', 'SR2005 -18446744073709551615 is beyond I64'],
    ['-9223372036854775809', 'SR2005 -9223372036854775809 is beyond I64'],
  ];
  for (const [text, problem] of problems) {
    it(`${text} → ${problem.slice(0, 6)}`, () => {
      const found = typeOf(text).problems;
      assert.equal(found.length, 1, found.join('\n'));
      assert.ok(found[0]?.startsWith(problem), `${found[0]} starts with ${problem}`);
    });
  }

  it('judges a constant by its value, even when its type is the field’s', () => {
    const beyond = { type: 'I64', nullable: false, constant: -(2n ** 64n) } as const;
    assert.equal(assignable(beyond, 'I64'), false);
    assert.equal(assignable({ ...beyond, constant: -1n }, 'I64'), true);
    assert.equal(assignable({ ...beyond, constant: -1n }, 'U64'), false);
  });

  it('-9223372036854775808, the least I64, is an I64 constant', () => {
    assert.deepEqual(typeOf('-9223372036854775808'), { type: 'I64', nullable: false, problems: [] });
  });

  it('reports a problem once, not again for every enclosing node', () => {
    assert.deepEqual(typeOf('upper(lower(input.nope)) || input.s').problems.length, 1);
  });
});

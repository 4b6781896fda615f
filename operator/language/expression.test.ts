import assert from 'node:assert/strict';
import type { Expr } from '../../dataplane/graph/expression.js';
import { parseExpression } from './parse.js';

/** The tree without spans, written compactly: fields as `scope.name`, literals as their value. */
function shape(expr: Expr): unknown {
  switch (expr.kind) {
    case 'literal':
      return [expr.literal, expr.value];
    case 'field':
      return `${expr.scope}.${expr.name}`;
    case 'unary':
      return [expr.op, shape(expr.operand)];
    case 'binary':
      return [expr.op, shape(expr.left), shape(expr.right)];
    case 'is-null':
      return [expr.negated ? 'IS NOT NULL' : 'IS NULL', shape(expr.operand)];
    case 'call':
      return [`${expr.name}()`, ...expr.args.map(shape)];
  }
}

function parsed(text: string): Expr {
  const result = parseExpression(text);
  assert.deepEqual(result.diagnostics, [], text);
  assert.ok(result.expr !== undefined);
  return result.expr;
}

describe('parseExpression', () => {
  const CASES: [string, unknown][] = [
    ["'it''s'", ['STRING', "it's"]],
    ["''", ['STRING', '']],
    ['42', ['INTEGER', '42']],
    ['3.25', ['FLOAT', '3.25']],
    ['TRUE', ['BOOL', true]],
    ['false', ['BOOL', false]],
    ['Null', ['NULL', null]],
    ['input.orderId', 'input.orderId'],
    ['METADATA.peer_addr', 'metadata.peer_addr'],
    ['error.code', 'error.code'],
    ['output.total', 'output.total'],
    ['left.id = right.id', ['=', 'left.id', 'right.id']],
    ['a_fn()', ['a_fn()']],
    ['LOWER(input.name)', ['lower()', 'input.name']],
    ["coalesce(input.a, input.b, 'x')", ['coalesce()', 'input.a', 'input.b', ['STRING', 'x']]],
    ['substr(input.s, 1, 3)', ['substr()', 'input.s', ['INTEGER', '1'], ['INTEGER', '3']]],
    // Precedence, loosest first: OR; AND; NOT; comparison and IS NULL; || + -; * /; unary -.
    ['input.a OR input.b AND input.c', ['OR', 'input.a', ['AND', 'input.b', 'input.c']]],
    ['NOT input.a AND input.b', ['AND', ['NOT', 'input.a'], 'input.b']],
    ['NOT input.a = 1', ['NOT', ['=', 'input.a', ['INTEGER', '1']]]],
    ['NOT NOT input.a', ['NOT', ['NOT', 'input.a']]],
    [
      'input.a + 1 = input.b * 2',
      ['=', ['+', 'input.a', ['INTEGER', '1']], ['*', 'input.b', ['INTEGER', '2']]],
    ],
    ["input.a || '-' || input.b", ['||', ['||', 'input.a', ['STRING', '-']], 'input.b']],
    ['1 - 2 - 3', ['-', ['-', ['INTEGER', '1'], ['INTEGER', '2']], ['INTEGER', '3']]],
    ['8 / 4 * 2', ['*', ['/', ['INTEGER', '8'], ['INTEGER', '4']], ['INTEGER', '2']]],
    ['-input.a * 2', ['*', ['-', 'input.a'], ['INTEGER', '2']]],
    ['- -1', ['-', ['-', ['INTEGER', '1']]]],
    ['(1 + 2) * 3', ['*', ['+', ['INTEGER', '1'], ['INTEGER', '2']], ['INTEGER', '3']]],
    ['input.a IS NULL', ['IS NULL', 'input.a']],
    ['input.a || input.b is not null', ['IS NOT NULL', ['||', 'input.a', 'input.b']]],
    ['input.a IS NULL OR input.a != 0', ['OR', ['IS NULL', 'input.a'], ['!=', 'input.a', ['INTEGER', '0']]]],
    [
      'input.a <= 1 AND input.b >= 2',
      ['AND', ['<=', 'input.a', ['INTEGER', '1']], ['>=', 'input.b', ['INTEGER', '2']]],
    ],
    [
      'input.a < 1 OR input.b > 2',
      ['OR', ['<', 'input.a', ['INTEGER', '1']], ['>', 'input.b', ['INTEGER', '2']]],
    ],
    ['  now()  -- trailing comment', ['now()']],
    ['/* c */ to_i64(input.s)', ['to_i64()', 'input.s']],
    ['input.and_more = input.or_x', ['=', 'input.and_more', 'input.or_x']],
  ];
  for (const [text, expected] of CASES) {
    it(text, () => assert.deepEqual(shape(parsed(text)), expected));
  }

  it('gives every node the span of its text', () => {
    const text = "lower(input.name) || 'x' IS NOT NULL";
    const spans: string[] = [];
    const visit = (expr: Expr): void => {
      spans.push(text.slice(expr.span?.start, expr.span?.end));
      if (expr.kind === 'binary') [expr.left, expr.right].forEach(visit);
      if (expr.kind === 'is-null' || expr.kind === 'unary') visit(expr.operand);
      if (expr.kind === 'call') expr.args.forEach(visit);
    };
    visit(parsed(text));
    assert.deepEqual(spans, [text, "lower(input.name) || 'x'", 'lower(input.name)', 'input.name', "'x'"]);
  });

  const ERRORS: [string, string, string][] = [
    ['', '1:1', 'found end of input but expected an expression'],
    ['foo.bar', '1:1', "found 'foo' but expected an expression"],
    ['input.', '1:7', 'found end of input but expected field name'],
    ['input.a +', '1:10', 'found end of input but expected an expression'],
    ['lower(input.a', '1:14', "found end of input but expected an operator, ',' or ')'"],
    ['input.a input.b', '1:9', "found 'input' but expected an operator or end of input"],
    ["'open", '1:1', "this string has no closing '"],
    ['1 +\n  $', '2:3', "found '$' but expected an expression"],
    ['TRUE()', '1:5', "found '(' but expected an operator or end of input"],
  ];
  for (const [text, where, message] of ERRORS) {
    it(`reports ${JSON.stringify(text)}`, () => {
      const result = parseExpression(text);
      assert.equal(result.expr, undefined);
      assert.equal(result.diagnostics.length, 1);
      const [diagnostic] = result.diagnostics;
      assert.equal(diagnostic?.code, 'SR1015');
      assert.equal(`${diagnostic?.location?.line}:${diagnostic?.location?.column}`, where);
      assert.ok(diagnostic?.message.startsWith(message), diagnostic?.message);
    });
  }
});

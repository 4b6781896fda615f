// Compiles a typed expression tree (dataplane/graph/expression.ts, types filled in by the compiler) ONCE
// into a closure over the record scopes; running a route never walks the tree again.
//
// Null rules (docs/compiler.md, SQL's): an operator or function with a null operand is null, except
// `IS [NOT] NULL`, `concat()` (skips nulls), `coalesce()` (first non-null) and AND / OR, which follow
// SQL's three-valued logic (FALSE AND NULL is FALSE, TRUE OR NULL is TRUE). Failures at run time
// (division by zero, overflow) throw a RecordError, which the route turns into a message error.
import type { Expr, ExprType } from '../graph/expression.js';
import { arithmetic, negate } from './arithmetic.js';
import { comparison } from './comparison.js';
import { call } from './functions.js';
import { GraphBuildError, type Evaluate, type ExpressionOptions, type Operand } from './scope.js';
import type { Value } from '../core/values.js';

export type { EvalScope, Evaluate, ExpressionOptions } from './scope.js';

export function compileExpression(expr: Expr, options: ExpressionOptions): Evaluate {
  return compileOperand(expr, options).evaluate;
}

function typeOf(expr: Expr): ExprType {
  if (expr.type === undefined) throw new GraphBuildError(`expression node ${expr.kind} has no type`);
  return expr.type;
}

function compileOperand(expr: Expr, options: ExpressionOptions): Operand {
  const type = typeOf(expr);
  return { evaluate: compileNode(expr, type, options), type };
}

const nothing: Evaluate = () => null;

function compileNode(expr: Expr, type: ExprType, options: ExpressionOptions): Evaluate {
  const operand = (child: Expr): Operand => compileOperand(child, options);
  switch (expr.kind) {
    case 'literal':
      return literal(expr, type);
    case 'field': {
      const { scope, name } = expr;
      return (s) => s[scope]?.[name] ?? null;
    }
    case 'is-null': {
      const inner = operand(expr.operand).evaluate;
      return expr.negated ? (s) => inner(s) !== null : (s) => inner(s) === null;
    }
    case 'unary':
      if (type === 'NULL') return nothing;
      return expr.op === 'NOT' ? not(operand(expr.operand).evaluate) : negate(operand(expr.operand), type);
    case 'binary':
      return binary(expr, type, operand);
    case 'call':
      return call(expr.name, expr.args.map(operand), type, options);
  }
}

function literal(expr: Extract<Expr, { kind: 'literal' }>, type: ExprType): Evaluate {
  const value = literalValue(expr, type);
  return () => value;
}

function literalValue(expr: Extract<Expr, { kind: 'literal' }>, type: ExprType): Value {
  const { literal: kind, value } = expr;
  if (kind === 'NULL' || value === null) return null;
  if (kind === 'BOOL') return value === true || value === 'TRUE';
  if (kind === 'STRING') return String(value);
  if (kind === 'FLOAT') return Number(value);
  if (!/^-?\d+$/.test(String(value)))
    throw new GraphBuildError(`integer literal ${String(value)} is malformed`);
  // An integer literal is I64 or U64 (docs/compiler.md), always a bigint.
  if (type !== 'I64' && type !== 'U64') throw new GraphBuildError(`integer literal typed ${type}`);
  return BigInt(String(value));
}

function binary(
  expr: Extract<Expr, { kind: 'binary' }>,
  type: ExprType,
  operand: (child: Expr) => Operand,
): Evaluate {
  const left = operand(expr.left);
  const right = operand(expr.right);
  switch (expr.op) {
    case 'AND':
      return and(left.evaluate, right.evaluate);
    case 'OR':
      return or(left.evaluate, right.evaluate);
    case '||':
      return joinText(left.evaluate, right.evaluate);
    case '+':
    case '-':
    case '*':
    case '/':
      return type === 'NULL' ? nothing : arithmetic(expr.op, left, right, type);
    default:
      return comparison(expr.op, left, right);
  }
}

function not(inner: Evaluate): Evaluate {
  return (s) => {
    const value = inner(s);
    return value === null ? null : !(value as boolean);
  };
}

/** Three-valued AND: FALSE wins over NULL. */
function and(left: Evaluate, right: Evaluate): Evaluate {
  return (s) => {
    const a = left(s);
    if (a === false) return false;
    const b = right(s);
    if (b === false) return false;
    return a === null || b === null ? null : true;
  };
}

/** Three-valued OR: TRUE wins over NULL. */
function or(left: Evaluate, right: Evaluate): Evaluate {
  return (s) => {
    const a = left(s);
    if (a === true) return true;
    const b = right(s);
    if (b === true) return true;
    return a === null || b === null ? null : false;
  };
}

function joinText(left: Evaluate, right: Evaluate): Evaluate {
  return (s) => {
    const a = left(s);
    if (a === null) return null;
    const b = right(s);
    return b === null ? null : (a as string) + (b as string);
  };
}

// The expression tree: produced by the statement parser, type-checked by the compiler, carried in the
// Graph (with `type` filled in) and compiled to functions by the runtime.
import type { FieldType } from './field-types.js';

export type Scope = 'input' | 'metadata' | 'output' | 'left' | 'right' | 'error';

export const BINARY_OPERATORS = [
  '=',
  '!=',
  '<',
  '<=',
  '>',
  '>=',
  'AND',
  'OR',
  '+',
  '-',
  '*',
  '/',
  '||',
] as const;
export type BinaryOperator = (typeof BINARY_OPERATORS)[number];

export const FUNCTIONS = [
  'lower',
  'upper',
  'trim',
  'concat',
  'coalesce',
  'length',
  'substr',
  'now',
  'to_string',
  'to_i64',
  'abs',
] as const;
export type FunctionName = (typeof FUNCTIONS)[number];

/** Offset into the expression's own text (0-based), so a caller can map it to a line and column. */
export interface ExprSpan {
  start: number;
  end: number;
}

/** The static type of an expression; NULL is the type of the literal NULL. */
export type ExprType = FieldType | 'NULL';

interface Node {
  span?: ExprSpan;
  /** Set by the compiler. */
  type?: ExprType;
  /** Set by the compiler: whether the value can be null at run time. */
  nullable?: boolean;
}

export type Expr =
  | (Node & {
      kind: 'literal';
      literal: 'STRING' | 'INTEGER' | 'FLOAT' | 'BOOL' | 'NULL';
      value: string | boolean | null;
    })
  | (Node & { kind: 'field'; scope: Scope; name: string })
  | (Node & { kind: 'unary'; op: 'NOT' | '-'; operand: Expr })
  | (Node & { kind: 'binary'; op: BinaryOperator; left: Expr; right: Expr })
  | (Node & { kind: 'is-null'; negated: boolean; operand: Expr })
  | (Node & { kind: 'call'; name: string; args: Expr[] });

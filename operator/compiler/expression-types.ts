// The type rules of expressions: which values fit which fields, which operands compare, what arithmetic
// yields. Integers widen implicitly (U8 into I64) but never narrow, except an integer literal that fits.
import type { ExprType } from '../../dataplane/graph/expression.js';
import { INTEGER_RANGES, isIntegerType, type FieldType } from '../../dataplane/graph/field-types.js';

/** An expression's static facts: its type, whether it can be null, and its value when it is an integer literal. */
export interface Typing {
  type: ExprType;
  nullable: boolean;
  constant?: bigint;
}

export function isInteger(type: ExprType): boolean {
  return type !== 'NULL' && isIntegerType(type);
}

export function isNumeric(type: ExprType): boolean {
  return type === 'F64' || isInteger(type);
}

function range(type: FieldType): readonly [bigint, bigint] {
  return INTEGER_RANGES[type] ?? [0n, 0n];
}

export function fitsInteger(value: bigint, type: FieldType): boolean {
  const [low, high] = range(type);
  return value >= low && value <= high;
}

/** Whether every value of `from` is a value of `to` (both integer types). */
export function widensTo(from: FieldType, to: FieldType): boolean {
  const [fromLow, fromHigh] = range(from);
  const [toLow, toHigh] = range(to);
  return fromLow >= toLow && fromHigh <= toHigh;
}

/** Whether a value may be stored in a field of type `to` (nullability is checked separately). */
export function assignable(value: Typing, to: FieldType): boolean {
  const from = value.type;
  if (from === 'NULL') return true;
  // A constant is judged by its value, even when its type already matches (-1 is I64, and so is a
  // constant below the least I64); then a type that matches, then integers that widen.
  if (value.constant !== undefined && isIntegerType(to)) return fitsInteger(value.constant, to);
  if (from === to) return true;
  if (isInteger(from) && isIntegerType(to)) return widensTo(from, to);
  return isInteger(from) && to === 'F64';
}

/** The type two numeric operands meet at: F64 if either is, else the wider integer (I64 when neither contains the other). */
export function numericJoin(left: Typing, right: Typing): FieldType {
  if (left.type === 'F64' || right.type === 'F64') return 'F64';
  const a = left.type as FieldType;
  const b = right.type as FieldType;
  if (left.constant !== undefined && right.constant === undefined)
    return fitsInteger(left.constant, b) ? b : 'I64';
  if (right.constant !== undefined && left.constant === undefined)
    return fitsInteger(right.constant, a) ? a : 'I64';
  if (widensTo(a, b)) return b;
  if (widensTo(b, a)) return a;
  return 'I64';
}

/** The common type of values that may stand in for each other (coalesce arguments); undefined if none. */
export function commonType(values: readonly Typing[]): ExprType | undefined {
  const typed = values.filter((value) => value.type !== 'NULL');
  const [first, ...rest] = typed;
  if (first === undefined) return 'NULL';
  let joined: Typing = first;
  for (const value of rest) {
    if (value.type === joined.type) continue;
    if (!isNumeric(value.type) || !isNumeric(joined.type)) return undefined;
    joined = { type: numericJoin(joined, value), nullable: false };
  }
  return joined.type;
}

const ORDERED: ReadonlySet<ExprType> = new Set(['STRING', 'DATETIME']);

/** Why two operands cannot be compared with `op`, or undefined when they can. */
export function comparisonProblem(op: string, left: ExprType, right: ExprType): string | undefined {
  if (left === 'NULL' || right === 'NULL') {
    return `${op} with NULL is never true; write IS NULL or IS NOT NULL`;
  }
  const ordering = op !== '=' && op !== '!=';
  if (isNumeric(left) && isNumeric(right)) return undefined;
  if (left !== right) return `cannot compare ${left} with ${right}`;
  if (ordering && !ORDERED.has(left)) return `${left} values have no order; only = and != compare them`;
  return undefined;
}

export function describeType(typing: Typing): string {
  if (typing.type === 'NULL') return 'NULL';
  return typing.nullable ? `${typing.type} (possibly null)` : typing.type;
}

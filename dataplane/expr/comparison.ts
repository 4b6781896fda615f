// Comparisons: numbers with numbers across representations (a U8 number with an I64 bigint, an I64 with
// an F64 — JavaScript compares number and bigint exactly), STRING by Unicode code point (the order of
// their UTF-8 bytes), DATETIME by instant, BOOL and BYTES by equality only (the compiler allows no order
// there). A null operand gives null.
import type { ExprType } from '../graph/expression.js';
import { isIntegerType } from '../graph/field-types.js';
import type { Evaluate, Operand } from './scope.js';
import type { Instant, Value } from '../core/values.js';

export type ComparisonOperator = '=' | '!=' | '<' | '<=' | '>' | '>=';

/** -1, 0 or 1. */
type Order = (a: Value, b: Value) => number;

export function comparison(op: ComparisonOperator, left: Operand, right: Operand): Evaluate {
  const order = orderFor(left.type, right.type);
  const holds = outcome(op);
  const [a, b] = [left.evaluate, right.evaluate];
  return (s) => {
    const x = a(s);
    if (x === null) return null;
    const y = b(s);
    return y === null ? null : holds(order(x, y));
  };
}

function outcome(op: ComparisonOperator): (order: number) => boolean {
  switch (op) {
    case '=':
      return (order) => order === 0;
    case '!=':
      return (order) => order !== 0;
    case '<':
      return (order) => order < 0;
    case '<=':
      return (order) => order <= 0;
    case '>':
      return (order) => order > 0;
    case '>=':
      return (order) => order >= 0;
  }
}

function isNumeric(type: ExprType): boolean {
  return type === 'F64' || (type !== 'NULL' && isIntegerType(type));
}

function orderFor(left: ExprType, right: ExprType): Order {
  if (isNumeric(left) && isNumeric(right)) return compareNumbers as Order;
  switch (left === 'NULL' ? right : left) {
    case 'STRING':
      return compareText as Order;
    case 'DATETIME':
      return (a, b) => compareBig((a as Instant).epochNanos, (b as Instant).epochNanos);
    case 'BYTES':
      return (a, b) => (sameBytes(a as Uint8Array, b as Uint8Array) ? 0 : 1);
    default:
      return (a, b) => (a === b ? 0 : 1);
  }
}

/** Exact across number and bigint: the relational operators compare their mathematical values. */
export function compareNumbers(a: number | bigint, b: number | bigint): number {
  if (a < b) return -1;
  return a > b ? 1 : 0;
}

function compareBig(a: bigint, b: bigint): number {
  if (a < b) return -1;
  return a > b ? 1 : 0;
}

/** Code point order: UTF-16 units order the same except surrogates against U+E000–U+FFFF. */
export function compareText(a: string, b: string): number {
  if (a === b) return 0;
  const index = firstDifference(a, b);
  if (index === Math.min(a.length, b.length)) return a.length < b.length ? -1 : 1;
  return orderAt(a, b, index);
}

/** The order of two strings that first differ at UTF-16 index `index`. */
function orderAt(a: string, b: string, index: number): number {
  // A low surrogate here means both strings share the high one before it: compare whole code points.
  const shared = index > 0 && (isLowSurrogate(a.charCodeAt(index)) || isLowSurrogate(b.charCodeAt(index)));
  const at = shared ? index - 1 : index;
  const [x, y] = [a.codePointAt(at) ?? 0, b.codePointAt(at) ?? 0];
  if (x !== y) return x < y ? -1 : 1;
  return a.charCodeAt(index) < b.charCodeAt(index) ? -1 : 1; // lone surrogates
}

function firstDifference(a: string, b: string): number {
  const length = Math.min(a.length, b.length);
  let index = 0;
  while (index < length && a.charCodeAt(index) === b.charCodeAt(index)) index += 1;
  return index;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

export function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let index = 0; index < a.length; index += 1) if (a[index] !== b[index]) return false;
  return true;
}

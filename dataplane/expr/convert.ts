// Converting a value into the representation of a field type (values.ts), with the range checks that
// make a record conform to its schema: an integer into a narrower integer field is checked (U8 is 0–255),
// a U8 into an I64 field becomes a bigint, an integer into an F64 field a number. A value out of range is
// a RecordError (SR3006) naming the field, never the value.
import type { ExprType } from '../graph/expression.js';
import { INTEGER_RANGES, isIntegerType, type FieldType } from '../graph/field-types.js';
import { RecordError } from '../core/errors.js';
import { representationOf, type Value } from '../core/values.js';

/** Converts one value; throws RecordError when it does not fit. */
export type Convert = (value: Value) => Value;

export const identity: Convert = (value) => value;

function bounds(type: FieldType): readonly [bigint, bigint] {
  const range = INTEGER_RANGES[type];
  if (range === undefined) throw new Error(`${type} is not an integer type`);
  return range;
}

/** Whether every value of integer type `from` is a value of integer type `to`. */
export function widens(from: FieldType, to: FieldType): boolean {
  const [fromLow, fromHigh] = bounds(from);
  const [toLow, toHigh] = bounds(to);
  return fromLow >= toLow && fromHigh <= toHigh;
}

function outOfRange(type: FieldType, what: string): RecordError {
  const [low, high] = bounds(type);
  return new RecordError('SR3006', `${what}: the value is out of the range of ${type} (${low} to ${high})`);
}

/** A checked converter from integers (number or bigint) into integer field type `to`. */
export function integerInto(to: FieldType, what: string): (value: number | bigint) => number | bigint {
  const [low, high] = bounds(to);
  if (representationOf(to) === 'bigint') {
    return (value) => {
      const big = typeof value === 'bigint' ? value : BigInt(value);
      if (big < low || big > high) throw outOfRange(to, what);
      return big;
    };
  }
  const [lowNumber, highNumber] = [Number(low), Number(high)];
  return (value) => {
    const number = Number(value);
    if (!(number >= lowNumber && number <= highNumber)) throw outOfRange(to, what);
    return number;
  };
}

/**
 * How a value of static type `from` becomes a value of field type `to`, or undefined when it cannot (a
 * graph the compiler would not produce). Same types and NULL need nothing; integers widen or are checked;
 * integers become F64.
 */
export function fieldConverter(from: ExprType, to: FieldType, what: string): Convert | undefined {
  if (from === to || from === 'NULL') return identity;
  const fromInteger = isIntegerType(from);
  if (fromInteger && to === 'F64') return (value) => (value === null ? null : Number(value));
  if (!fromInteger || !isIntegerType(to)) return undefined;
  const sameRepresentation = representationOf(from) === representationOf(to);
  if (sameRepresentation && widens(from, to)) return identity;
  const into = integerInto(to, what);
  return (value) => (value === null ? null : into(value as number | bigint));
}

/**
 * A converter for values computed in type `from` (an expression) whose result must have type `to`'s
 * representation; for operands of arithmetic and comparisons, where the compiler already proved the
 * values fit.
 */
export function representAs(from: ExprType, to: FieldType): Convert {
  if (from === 'NULL' || from === to) return identity;
  const target = representationOf(to);
  const source = representationOf(from);
  if (source === target) return identity;
  if (target === 'bigint' && source === 'number') {
    return (value) => (value === null ? null : BigInt(value as number));
  }
  if (target === 'number' && source === 'bigint') {
    return (value) => (value === null ? null : Number(value));
  }
  return identity;
}

// jq 1.8's binary operators on values (src/builtin.c: f_plus, f_minus, f_multiply, f_divide, f_mod) and
// negation. A type jq refuses raises an error; its text is jq's in kind only (see JqError.exact).
import type { JsonObject, JsonValue } from '../../json-value.js';
import type { BinaryOperator } from './jq-ast.js';
import { splitText } from './jq-strings.js';
import {
  charge, compare, computed, copyObject, described, equal, failure, kindOf, NeedsEngine, setOwn, toDouble,
} from './jq-values.js'; // prettier-ignore

/** The longest string `*` builds here; a longer one is left to jq. */
const MAX_REPEATED_LENGTH = 1 << 24;

export type Operator = (left: JsonValue, right: JsonValue) => JsonValue;

export const OPERATORS: Record<BinaryOperator, Operator> = {
  '+': add,
  '-': subtract,
  '*': multiply,
  '/': divide,
  '%': remainder,
  '==': (left, right) => equal(left, right),
  '!=': (left, right) => !equal(left, right),
  '<': (left, right) => compare(left, right) < 0,
  '<=': (left, right) => compare(left, right) <= 0,
  '>': (left, right) => compare(left, right) > 0,
  '>=': (left, right) => compare(left, right) >= 0,
};

function isNumber(value: JsonValue): value is number | bigint {
  return typeof value === 'number' || typeof value === 'bigint';
}

function refused(left: JsonValue, right: JsonValue, what: string): never {
  throw failure(`${described(left)} and ${described(right)} cannot be ${what}`);
}

export function add(left: JsonValue, right: JsonValue): JsonValue {
  if (left === null) return right;
  if (right === null) return left;
  if (isNumber(left) && isNumber(right)) return computed(toDouble(left) + toDouble(right));
  if (typeof left === 'string' && typeof right === 'string') {
    charge((left.length + right.length) >> 6);
    return left + right;
  }
  const kind = kindOf(left);
  if (kind !== kindOf(right)) return refused(left, right, 'added');
  if (kind === 'array') {
    charge((left as JsonValue[]).length + (right as JsonValue[]).length);
    return [...(left as JsonValue[]), ...(right as JsonValue[])];
  }
  if (kind === 'object') {
    charge(Object.keys(left as JsonObject).length);
    const merged = copyObject(left as JsonObject);
    for (const key of Object.keys(right as JsonObject))
      setOwn(merged, key, (right as JsonObject)[key] as JsonValue);
    return merged;
  }
  return refused(left, right, 'added');
}

function subtract(left: JsonValue, right: JsonValue): JsonValue {
  if (isNumber(left) && isNumber(right)) return computed(toDouble(left) - toDouble(right));
  if (Array.isArray(left) && Array.isArray(right))
    return left.filter((item) => !right.some((other) => equal(item, other)));
  return refused(left, right, 'subtracted');
}

function multiply(left: JsonValue, right: JsonValue): JsonValue {
  if (isNumber(left) && isNumber(right)) return computed(toDouble(left) * toDouble(right));
  if (typeof left === 'string' && isNumber(right)) return repeat(left, toDouble(right));
  if (isNumber(left) && typeof right === 'string') return repeat(right, toDouble(left));
  if (kindOf(left) === 'object' && kindOf(right) === 'object')
    return deepMerge(left as JsonObject, right as JsonObject);
  return refused(left, right, 'multiplied');
}

/** `"ab" * n`: n times (its whole part); null for a negative count or NaN. */
function repeat(text: string, count: number): JsonValue {
  if (Number.isNaN(count) || count < 0) return null;
  const times = Math.trunc(count);
  if (text.length * times > MAX_REPEATED_LENGTH) throw new NeedsEngine('size');
  return text.repeat(times);
}

function deepMerge(left: JsonObject, right: JsonObject): JsonObject {
  const merged = copyObject(left);
  for (const key of Object.keys(right)) {
    const mine = Object.hasOwn(merged, key) ? merged[key] : undefined;
    const theirs = right[key] as JsonValue;
    const both = kindOf(mine ?? null) === 'object' && kindOf(theirs) === 'object';
    setOwn(merged, key, both ? deepMerge(mine as JsonObject, theirs as JsonObject) : theirs);
  }
  return merged;
}

function divide(left: JsonValue, right: JsonValue): JsonValue {
  if (isNumber(left) && isNumber(right)) {
    const divisor = toDouble(right);
    if (divisor === 0)
      throw failure(
        `${described(left)} and ${described(right)} cannot be divided because the divisor is zero`,
      );
    return computed(toDouble(left) / divisor);
  }
  if (typeof left === 'string' && typeof right === 'string') return splitText(left, right);
  return refused(left, right, 'divided');
}

/** C's `%` on the numbers cast to intmax_t, as jq does. */
function remainder(left: JsonValue, right: JsonValue): JsonValue {
  if (!isNumber(left) || !isNumber(right)) return refused(left, right, 'divided');
  const dividend = toDouble(left);
  const divisor = toDouble(right);
  if (!(Math.abs(dividend) < 2 ** 63) || !(Math.abs(divisor) < 2 ** 63))
    throw new NeedsEngine('number_precision');
  const whole = Math.trunc(divisor);
  if (whole === 0)
    throw failure(
      `${described(left)} and ${described(right)} cannot be divided (remainder) because the divisor is zero`,
    );
  return whole === -1 ? 0 : computed(Math.trunc(dividend) % whole);
}

export function negate(value: JsonValue): JsonValue {
  if (typeof value === 'bigint') return -value; // jq 1.8 negates a kept literal exactly
  if (typeof value === 'number') return computed(-value);
  throw failure(`${described(value)} cannot be negated`);
}

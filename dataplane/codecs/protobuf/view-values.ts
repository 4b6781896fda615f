// Reads one value of the JSON view back, strictly: each converter takes what the view writes for its type
// (and the proto3 JSON habits listed in docs/codecs-protobuf.md) and returns the value to put on the wire,
// or throws a PathError that names the expected type and the JSON kind it got, never the value.
import { jsonKind } from '../json-kind.js';
import type { JsonValue } from '../json-value.js';
import { isWellFormed } from '../well-formed-text.js';
import type { ValuePlan } from './message-plan.js';
import { PathError } from './path-error.js';

/** A value ready for the wire: integers within their type's range, floats, bools, strings, bytes. */
export type WireValue = number | bigint | boolean | string | Uint8Array;
export type Convert = (value: JsonValue, plan: ValuePlan) => WireValue;

interface IntRange {
  min: bigint;
  max: bigint;
  /** The bounds as doubles, for numbers (rounded outwards for 64-bit; the 2^53 check follows). */
  minNumber: number;
  maxNumber: number;
  /** Whether a decimal string is accepted (64-bit types, as in proto3 JSON). */
  text: boolean;
}

const range = (min: bigint, max: bigint, text = false): IntRange => ({
  min,
  max,
  minNumber: Number(min),
  maxNumber: Number(max),
  text,
});
const INT32 = range(-(2n ** 31n), 2n ** 31n - 1n);
const UINT32 = range(0n, 2n ** 32n - 1n);
const INT64 = range(-(2n ** 63n), 2n ** 63n - 1n, true);
const UINT64 = range(0n, 2n ** 64n - 1n, true);
const DECIMAL = /^-?\d+$/;
/** No integer of a 64-bit type has more digits; a longer string is out of range without parsing it. */
const MAX_DIGITS = 20;

const integer =
  (bounds: IntRange): Convert =>
  (value, plan) =>
    integerOf(value, plan, bounds);

/** Indexed by Kind. */
export const CONVERT: readonly Convert[] = [
  (value, plan) => floatingOf(value, plan, false),
  (value, plan) => floatingOf(value, plan, true),
  integer(INT32),
  integer(UINT32),
  integer(INT32),
  integer(UINT32),
  integer(INT32),
  integer(INT64),
  integer(UINT64),
  integer(INT64),
  integer(UINT64),
  integer(INT64),
  (value, plan) => (typeof value === 'boolean' ? value : mismatch(plan.typeName, value)),
  (value, plan) => stringOf(value, plan),
  (value, plan) => bytesOf(value, plan),
  (value, plan) => enumOf(value, plan),
  (_value, plan) => {
    throw new Error(`${plan.typeName} is not a scalar`);
  },
];

function integerOf(value: JsonValue, plan: ValuePlan, bounds: IntRange): number | bigint {
  if (typeof value === 'number') return numberOf(value, plan, bounds);
  if (typeof value === 'bigint') {
    if (value < bounds.min || value > bounds.max) throw outOfRange(plan);
    return value;
  }
  if (typeof value === 'string' && bounds.text) return decimalOf(value, plan, bounds);
  return mismatch(bounds.text ? `${plan.typeName} (an integer or a decimal string)` : plan.typeName, value);
}

function numberOf(value: number, plan: ValuePlan, bounds: IntRange): number {
  if (!Number.isInteger(value))
    throw new PathError(`expected ${plan.typeName}, got a number with a fraction`);
  if (value < bounds.minNumber || value > bounds.maxNumber) throw outOfRange(plan);
  // A double beyond 2^53 may already have lost digits; exact integers arrive as bigint or text.
  if (!Number.isSafeInteger(value)) {
    throw new PathError(`expected ${plan.typeName}, got a floating-point number beyond 2^53 (inexact)`);
  }
  return value;
}

function decimalOf(text: string, plan: ValuePlan, bounds: IntRange): number | bigint {
  if (!DECIMAL.test(text))
    throw new PathError(`expected ${plan.typeName}, got a string that is not a decimal integer`);
  if (text.length > MAX_DIGITS + 1) throw outOfRange(plan);
  const value = BigInt(text);
  if (value < bounds.min || value > bounds.max) throw outOfRange(plan);
  return Number.isSafeInteger(Number(value)) ? Number(value) : value;
}

/** An integer map key: JSON object keys are strings, so the key is decimal text for every integer type. */
export function integerKeyOf(key: string, plan: ValuePlan): number | bigint {
  if (!DECIMAL.test(key))
    throw new PathError(`expected a map key of type ${plan.typeName} (decimal text), got another string`);
  if (key.length > MAX_DIGITS + 1) throw outOfRange(plan);
  const value = BigInt(key);
  return Number.isSafeInteger(Number(value)) ? Number(value) : value;
}

const SPECIAL: Readonly<Record<string, number>> = { NaN: NaN, Infinity: Infinity, '-Infinity': -Infinity };

function floatingOf(value: JsonValue, plan: ValuePlan, float: boolean): number {
  let number: number;
  if (typeof value === 'number') number = value;
  else if (typeof value === 'bigint') number = Number(value);
  else if (typeof value === 'string' && Object.hasOwn(SPECIAL, value)) return SPECIAL[value] as number;
  else return mismatch(`${plan.typeName} (a number, "NaN", "Infinity" or "-Infinity")`, value);
  if (float && !Number.isFinite(Math.fround(number))) throw outOfRange(plan);
  return number;
}

function stringOf(value: JsonValue, plan: ValuePlan): string {
  if (typeof value !== 'string') return mismatch(plan.typeName, value);
  // UTF-8 has no lone surrogates; protoc refuses a string that is not UTF-8, so refuse it here.
  if (!isWellFormed(value)) {
    throw new PathError(`expected ${plan.typeName}, got a string with a lone surrogate (not Unicode)`);
  }
  return value;
}

/** Standard or URL-safe base64, padded or not (proto3 JSON accepts both). */
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}(?:==)?|[A-Za-z0-9+/]{3}=?)?$/;
const BASE64_URL = /^(?:[A-Za-z0-9\-_]{4})*(?:[A-Za-z0-9\-_]{2}(?:==)?|[A-Za-z0-9\-_]{3}=?)?$/;

function bytesOf(value: JsonValue, plan: ValuePlan): Uint8Array {
  if (typeof value !== 'string') return mismatch(`${plan.typeName} (base64 text)`, value);
  if (!BASE64.test(value) && !BASE64_URL.test(value)) {
    throw new PathError(`expected ${plan.typeName} (base64 text), got a string that is not base64`);
  }
  return Buffer.from(value, 'base64');
}

function enumOf(value: JsonValue, plan: ValuePlan): number {
  if (typeof value === 'string') {
    const number = plan.enumPlan?.numberByName.get(value);
    if (number === undefined)
      throw new PathError(`expected ${plan.typeName}, got a string that is not one of its names`);
    return number;
  }
  if (typeof value === 'number' || typeof value === 'bigint') {
    // Proto3 enums are open: any int32 number is a value (the view writes unknown numbers as numbers).
    return Number(integerOf(value, plan, INT32));
  }
  return mismatch(`${plan.typeName} (a name or an int32 number)`, value);
}

function outOfRange(plan: ValuePlan): PathError {
  return new PathError(`out of range for ${plan.typeName}`);
}

function mismatch(expected: string, value: JsonValue): never {
  throw new PathError(`expected ${expected}, got ${jsonKind(value)}`);
}

// jq 1.8's values, on the JSON view's JavaScript values (json-value.ts): kinds, truth, order, equality,
// and text. What JavaScript cannot decide the way jq does is not guessed: `NeedsEngine` sends the input to
// jq-wasm (a number whose text jq kept, an object whose key order JavaScript changed, a bigint that only
// jq's decimal comparison tells from a double).
import type { JsonObject, JsonValue } from '../../json-value.js';
import { JqError, NeedsEngine } from './jq-errors.js';
import { doubleText, numberText } from './jq-number-text.js';

export { JqError, NeedsEngine };

export type Kind = 'null' | 'boolean' | 'number' | 'string' | 'array' | 'object';

export function kindOf(value: JsonValue): Kind {
  switch (typeof value) {
    case 'number':
    case 'bigint':
      return 'number';
    case 'string':
      return 'string';
    case 'boolean':
      return 'boolean';
    default:
      return value === null ? 'null' : Array.isArray(value) ? 'array' : 'object';
  }
}

export function truthy(value: JsonValue): boolean {
  return value !== null && value !== false;
}

/** A builtin's failure, as jq words it: `<kind> (<value>) <what>`, the value cut short as jq does. */
export function failure(message: string): JqError {
  return new JqError(message, false);
}

/** `string ("abc")`: how jq's messages name a value. */
export function described(value: JsonValue): string {
  let text: string;
  try {
    text = dump(value);
  } catch {
    text = '…';
  }
  return `${kindOf(value)} (${text.length > 11 ? `${text.slice(0, 10)}...` : text})`;
}

// ---- numbers ---------------------------------------------------------------------------------------

/** Set when a run made a number JSON text cannot carry as JavaScript holds it (see `settledOutput`). */
export const made = { unusual: false };

/**
 * Work a run may do on the event loop, in steps (an element iterated or built, a loop's turn, 64
 * characters joined). An input that needs more goes to jq-wasm, whose threads have the time limit.
 */
export const STEP_LIMIT = 250_000;
export const budget = { steps: 0 };

export function charge(steps: number): void {
  budget.steps += steps;
  if (budget.steps > STEP_LIMIT) throw new NeedsEngine('work');
}

/** A number a computation produced, as jq holds it: a double (-0 included, which jq prints as `-0`). */
export function computed(value: number): number {
  if (!Number.isSafeInteger(value) && (Number.isInteger(value) || !Number.isFinite(value)))
    made.unusual = true;
  return value;
}

/** A number as a double (jq's arithmetic works on doubles; a bigint is a literal jq kept). */
export function toDouble(value: number | bigint): number {
  return typeof value === 'bigint' ? Number(value) : value;
}

// ---- text --------------------------------------------------------------------------------------------

/** jq's compact JSON text of a value (tojson, tostring): strings escape DEL too. */
export function dump(value: JsonValue): string {
  switch (typeof value) {
    case 'string':
      return stringText(value);
    case 'number':
    case 'bigint':
      return numberText(value);
    case 'boolean':
      return value ? 'true' : 'false';
    default:
      if (value === null) return 'null';
      if (Array.isArray(value)) return `[${value.map(dump).join(',')}]`;
      return `{${orderedKeys(value)
        .map((key) => `${stringText(key)}:${dump(value[key] as JsonValue)}`)
        .join(',')}}`;
  }
}

function stringText(value: string): string {
  const text = JSON.stringify(value);
  return text.includes('\u007f') ? text.replaceAll('\u007f', '\\u007f') : text;
}

/**
 * An object's keys in jq's order (the order they were added). JavaScript puts keys that look like array
 * indices first, so for an object holding one the order is not known here.
 */
export function orderedKeys(object: JsonObject): string[] {
  const keys = Object.keys(object);
  const first = keys[0];
  if (first !== undefined && first.length > 0) {
    const code = first.charCodeAt(0);
    if (code >= 0x30 && code <= 0x39 && /^(?:0|[1-9]\d*)$/.test(first) && Number(first) < 4294967295)
      throw new NeedsEngine('key_order');
  }
  return keys;
}

/** jq's tostring. */
export function toText(value: JsonValue): string {
  return typeof value === 'string' ? value : dump(value);
}

// ---- order -------------------------------------------------------------------------------------------

const KIND_ORDER: Record<Kind, number> = { null: 0, boolean: 1, number: 2, string: 3, array: 4, object: 5 };

/** jq's total order (src/jv.c, jv_cmp): null < false < true < numbers < strings < arrays < objects. */
export function compare(left: JsonValue, right: JsonValue): number {
  const leftKind = kindOf(left);
  const rightKind = kindOf(right);
  if (leftKind !== rightKind) return KIND_ORDER[leftKind] - KIND_ORDER[rightKind];
  switch (leftKind) {
    case 'null':
      return 0;
    case 'boolean':
      return Number(left) - Number(right);
    case 'number':
      return compareNumbers(left as number | bigint, right as number | bigint);
    case 'string':
      return compareStrings(left as string, right as string);
    case 'array':
      return compareArrays(left as JsonValue[], right as JsonValue[]);
    default:
      return compareObjects(left as JsonObject, right as JsonObject);
  }
}

export function equal(left: JsonValue, right: JsonValue): boolean {
  if (left === right && typeof left !== 'number') return true;
  return compare(left, right) === 0;
}

function compareNumbers(left: number | bigint, right: number | bigint): number {
  if (typeof left === 'bigint' && typeof right === 'bigint') return left < right ? -1 : left > right ? 1 : 0;
  const a = toDouble(left);
  const b = toDouble(right);
  if (Number.isNaN(a) || Number.isNaN(b)) throw new NeedsEngine('number_precision');
  // a bigint rounds to the double it is compared with: jq's answer depends on whether that double is a
  // literal (compared as decimals) or computed (compared as doubles)
  if (a === b && typeof left !== typeof right) throw new NeedsEngine('number_precision');
  return a < b ? -1 : a > b ? 1 : 0;
}

/** By code point, as jq compares UTF-8 bytes; JavaScript's `<` compares UTF-16 units. */
export function compareStrings(left: string, right: string): number {
  if (left === right) return 0;
  const length = Math.min(left.length, right.length);
  for (let index = 0; index < length; index += 1) {
    const a = left.charCodeAt(index);
    const b = right.charCodeAt(index);
    if (a === b) continue;
    const aSurrogate = a >= 0xd800 && a <= 0xdfff;
    const bSurrogate = b >= 0xd800 && b <= 0xdfff;
    if (aSurrogate !== bSurrogate && Math.max(a, b) >= 0xe000) return aSurrogate ? 1 : -1;
    return a - b;
  }
  return left.length - right.length;
}

function compareArrays(left: JsonValue[], right: JsonValue[]): number {
  const length = Math.min(left.length, right.length);
  for (let index = 0; index < length; index += 1) {
    const order = compare(left[index] as JsonValue, right[index] as JsonValue);
    if (order !== 0) return order;
  }
  return left.length - right.length;
}

function compareObjects(left: JsonObject, right: JsonObject): number {
  const leftKeys = sortedKeys(left);
  const rightKeys = sortedKeys(right);
  const order = compareArrays(leftKeys, rightKeys);
  if (order !== 0) return order;
  for (const key of leftKeys) {
    const valueOrder = compare(left[key] as JsonValue, right[key] as JsonValue);
    if (valueOrder !== 0) return valueOrder;
  }
  return 0;
}

/** An object's keys sorted as jq's `keys`. */
export function sortedKeys(object: JsonObject): string[] {
  return Object.keys(object).sort(compareStrings);
}

// ---- objects ------------------------------------------------------------------------------------------

/** A new object's key: `__proto__` an own key like any other. */
export function setOwn(object: JsonObject, key: string, value: JsonValue): void {
  if (key === '__proto__')
    Object.defineProperty(object, key, { value, writable: true, enumerable: true, configurable: true });
  else object[key] = value;
}

export function getOwn(object: JsonObject, key: string): JsonValue {
  return Object.hasOwn(object, key) ? (object[key] as JsonValue) : null;
}

/** A copy of an object, own keys only. */
export function copyObject(object: JsonObject): JsonObject {
  const copy: JsonObject = {};
  for (const key of Object.keys(object)) setOwn(copy, key, object[key] as JsonValue);
  return copy;
}

// ---- outputs -------------------------------------------------------------------------------------------

/**
 * An output as the engine's path gives it: jq prints a double, and the codecs read the text back (an
 * integer beyond 2^53 as a bigint of the printed digits, NaN as null, an infinity as the largest double).
 */
export function settledOutput(value: JsonValue): JsonValue {
  switch (typeof value) {
    case 'number': {
      if (Number.isSafeInteger(value)) return value;
      const text = doubleText(value);
      if (text === 'null') return null;
      return /^-?\d+$/.test(text) ? BigInt(text) : Number(text);
    }
    case 'object': {
      if (value === null) return value;
      if (Array.isArray(value)) return value.map(settledOutput);
      const settled: JsonObject = {};
      for (const key of Object.keys(value)) setOwn(settled, key, settledOutput(value[key] as JsonValue));
      return settled;
    }
    default:
      return value;
  }
}

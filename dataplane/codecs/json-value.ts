// The JSON view every JAQ-style codec works on: the value a format decodes to before the ingestion program
// reads it, and the value the emitting program yields before a format writes it. Integers are exact: a
// safe integer is a number, anything larger is a bigint (JSON text carries every digit both ways), so a
// U64 survives decode → jq → encode. A number with a fraction or an exponent stays a double.
import { exactInteger, parseExact, NumberText } from './json-numbers.js';

export type JsonValue = null | boolean | number | bigint | string | JsonValue[] | JsonObject;
export interface JsonObject {
  [key: string]: JsonValue;
}

/** JSON text of a value; bigints with every digit. Throws RangeError for NaN or an infinity. */
export function toJsonText(value: JsonValue): string {
  switch (typeof value) {
    case 'bigint':
      return value.toString();
    case 'number':
      if (!Number.isFinite(value)) throw new RangeError('JSON has no NaN or infinity');
      return JSON.stringify(value);
    case 'string':
    case 'boolean':
      return JSON.stringify(value);
    default:
      if (value === null) return 'null';
      if (Array.isArray(value)) return `[${value.map(toJsonText).join(',')}]`;
      return objectText(value);
  }
}

function objectText(value: JsonObject): string {
  let text = '{';
  let first = true;
  for (const key of Object.keys(value)) {
    const entry = value[key] as JsonValue;
    text += `${first ? '' : ','}${JSON.stringify(key)}:${toJsonText(entry)}`;
    first = false;
  }
  return `${text}}`;
}

/**
 * Parses JSON text exactly: JSON.parse first (fast); only when it holds a number JSON.parse may have
 * rounded is the text parsed again keeping digits. Throws SyntaxError for text that is not JSON.
 */
export function parseJsonValue(text: string): JsonValue {
  const fast = JSON.parse(text) as JsonValue;
  return hasUnsafeNumber(fast) ? exactValue(parseExact(text)) : fast;
}

function hasUnsafeNumber(value: JsonValue): boolean {
  if (typeof value === 'number')
    return Number.isInteger(value) ? !Number.isSafeInteger(value) : !Number.isFinite(value);
  if (value === null || typeof value !== 'object') return false;
  if (Array.isArray(value)) return value.some(hasUnsafeNumber);
  for (const key of Object.keys(value)) if (hasUnsafeNumber(value[key] as JsonValue)) return true;
  return false;
}

/** lossless-json's tree (numbers as NumberText) as a JsonValue. */
function exactValue(value: unknown): JsonValue {
  if (value instanceof NumberText) return numberOf(value.text);
  if (value === null || typeof value !== 'object') return value as JsonValue;
  if (Array.isArray(value)) return value.map(exactValue);
  const out: JsonObject = {};
  for (const [key, entry] of Object.entries(value)) setKey(out, key, exactValue(entry));
  return out;
}

/** `object[key] = value`, except that `__proto__` becomes an own key (as JSON.parse makes it), not the prototype. */
export function setKey(object: JsonObject, key: string, value: JsonValue): void {
  if (key === '__proto__') {
    Object.defineProperty(object, key, { value, writable: true, enumerable: true, configurable: true });
  } else object[key] = value;
}

/**
 * An integral number beyond 2^53 becomes a bigint with every digit, however it is written
 * (`18446744073709551615`, `18446744073709551615.0`, `1.8446744073709551615e19`); every other number a
 * double. jq 1.8 passes such literals through unchanged, so they must not be rounded here.
 */
function numberOf(text: string): number | bigint {
  const integer = exactInteger(text);
  if (typeof integer !== 'bigint') return Number(text);
  return integer >= -MAX_SAFE && integer <= MAX_SAFE ? Number(integer) : integer;
}

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

// The JSON view every JAQ-style codec works on: the value a format decodes to before the ingestion program
// reads it, and the value the emitting program yields before a format writes it. Integers are exact: a
// safe integer is a number, anything larger is a bigint (JSON text carries every digit both ways), so a
// U64 survives decode → jq → encode. A number with a fraction or an exponent stays a double.
import { parseExact, NumberText } from './json-numbers.js';

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
  return exactJsonValue(text, JSON.parse(text) as JsonValue);
}

/** `parsed`, what JSON.parse made of `text`, made exact: `text` is parsed again only when it must be. */
export function exactJsonValue(text: string, parsed: JsonValue): JsonValue {
  return hasUnsafeNumber(parsed) ? exactValue(parseExact(text)) : parsed;
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
  if (value instanceof NumberText) return numberValue(value.text);
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

/** An integer literal, possibly with a zero fraction (`18446744073709551615`, `12345678901234567891.0`). */
const INTEGER_LITERAL = /^-?\d+(?:\.0+)?$/;
const EXPONENT_LITERAL = /^(-?)(\d+)(?:\.(\d+))?[eE]([+-]?\d+)$/;

/**
 * The value of a JSON number literal. An integer literal beyond 2^53 becomes a bigint with every digit —
 * jq 1.8 passes literals through as written, `.0` included, so they must not be rounded here. So does one
 * written with an exponent that jq prints as plain digits (its decimal form has no exponent left:
 * `9.007199254740993e+15` is printed `9007199254740993`). Every other number is a double: jq prints it with
 * an exponent or a fraction, and its digits are not an exact integer.
 */
export function numberValue(text: string): number | bigint {
  const value = Number(text);
  if (Number.isSafeInteger(value)) return value;
  if (INTEGER_LITERAL.test(text)) return BigInt(text.replace(/\.0+$/, ''));
  return exponentInteger(text) ?? value;
}

/** The integer jq prints for `d.ddde±n` when its decimal exponent comes to 0 or below with a zero fraction. */
function exponentInteger(text: string): bigint | undefined {
  const match = EXPONENT_LITERAL.exec(text);
  if (match === null) return undefined;
  const [, sign = '', whole = '', fraction = '', exponent = '0'] = match;
  const scale = Number(exponent) - fraction.length; // the decimal exponent of the coefficient
  if (scale > 0) return undefined; // printed as 1E+16 and the like
  const digits = whole + fraction;
  const integer = digits.slice(0, digits.length + scale);
  if (integer === '' || !/^0*$/.test(digits.slice(digits.length + scale))) return undefined;
  return BigInt(`${sign}${integer}`);
}

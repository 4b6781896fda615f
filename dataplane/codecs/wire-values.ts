// One wire value of the JSON wire-schema codec, read into its schema field or written from it.
//
//   wire `integer` ↔ any integer field (range-checked: U8 is 0–255) or F64; 64-bit values are written with
//                    every digit, a F64 with a fraction cannot be written (SR3008)
//   wire `string`  ↔ STRING, or DATETIME as RFC 3339 text (written in UTC with up to nine digits)
//   null           ↔ an OPTIONAL field, or a wire field the schema drops; a mistyped value is SR3005
import { isIntegerType } from '../graph/field-types.js';
import type { GraphField, WireType } from '../graph/types.js';
import { integerInto } from '../expr/convert.js';
import { RecordError } from '../core/errors.js';
import { parseRfc3339 } from '../core/rfc3339.js';
import type { Instant, Value } from '../core/values.js';
import { exactInteger, NumberText } from './json-numbers.js';

/** Reads a parsed JSON value (NumberText from the exact parse); throws RecordError. */
export type WireRead = (json: unknown) => Value;
/** Writes a field value as JSON text; throws RecordError. */
export type WireWrite = (value: Value) => string;

/** The reader of a wire key feeding `field`, or why the pair cannot work. */
export function wireReader(wire: WireType, field: GraphField | undefined, what: string): WireRead | string {
  const nullable = field === undefined || field.optional;
  const typed = wire === 'integer' ? integerReader(field, what) : stringReader(field, what);
  if (typeof typed === 'string') return typed;
  return (json) => {
    if (json === null) {
      if (nullable) return null;
      throw new RecordError('SR3005', `${what}: expected ${article(wire)}, found null`);
    }
    return typed(json);
  };
}

function article(wire: WireType): string {
  return wire === 'integer' ? 'an integer' : 'a string';
}

function mistyped(what: string, wire: WireType, json: unknown): RecordError {
  const found = json instanceof NumberText ? 'number' : Array.isArray(json) ? 'array' : typeof json;
  return new RecordError('SR3005', `${what}: expected ${article(wire)}, found ${withArticle(found)}`);
}

function withArticle(kind: string): string {
  return /^[aeiou]/.test(kind) ? `an ${kind}` : `a ${kind}`;
}

function integerReader(field: GraphField | undefined, what: string): WireRead | string {
  let into: (value: number | bigint) => Value = (value) => value;
  if (field !== undefined && field.type === 'F64') into = (value) => Number(value);
  else if (field !== undefined && isIntegerType(field.type)) into = integerInto(field.type, what);
  else if (field !== undefined)
    return `wire integer ${what} cannot feed field ${field.name} of type ${field.type}`;
  return (json) => {
    if (typeof json === 'number') {
      if (!Number.isInteger(json)) throw notInteger(what);
      return into(json);
    }
    if (!(json instanceof NumberText)) throw mistyped(what, 'integer', json);
    const exact = exactInteger(json.text);
    if (exact === 'fraction') throw notInteger(what);
    if (exact === 'too-large') {
      throw new RecordError(
        'SR3006',
        `${what}: the value is out of the range of ${field?.type ?? 'any integer'}`,
      );
    }
    return into(exact);
  };
}

function notInteger(what: string): RecordError {
  return new RecordError('SR3005', `${what}: expected an integer, found a number with a fraction`);
}

function stringReader(field: GraphField | undefined, what: string): WireRead | string {
  if (field !== undefined && field.type === 'DATETIME') {
    return (json) => {
      if (typeof json !== 'string') throw mistyped(what, 'string', json);
      const instant = parseRfc3339(json);
      if (instant === undefined) throw new RecordError('SR3007', `${what}: expected an RFC 3339 timestamp`);
      return instant;
    };
  }
  if (field !== undefined && field.type !== 'STRING') {
    return `wire string ${what} cannot feed field ${field.name} of type ${field.type}`;
  }
  return (json) => {
    if (typeof json !== 'string') throw mistyped(what, 'string', json);
    return json;
  };
}

export function wireWriter(wire: WireType, field: GraphField | undefined): WireWrite {
  const what = `field ${field?.name ?? '(none)'}`;
  if (wire === 'string') {
    const isInstant = field?.type === 'DATETIME';
    return (value) => {
      if (value === null) return 'null';
      return JSON.stringify(isInstant ? (value as Instant).toRfc3339() : (value as string));
    };
  }
  return (value) => {
    if (value === null) return 'null';
    if (typeof value === 'bigint') return value.toString();
    const number = value as number;
    if (!Number.isInteger(number)) {
      throw new RecordError(
        'SR3008',
        `${what}: a number with a fraction cannot be written as a wire integer`,
      );
    }
    return Number.isSafeInteger(number) ? String(number) : BigInt(number).toString();
  };
}

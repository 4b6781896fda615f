// Records and the JSON view, for the codecs whose programs are jq (JAQ formats, protobuf): an output
// object of the ON INGESTION program becomes a record of the schema, and a record becomes the object the
// ON EMITTING program reads (docs/codecs.md, "JAQ codecs"): each output must be an object; keys the schema
// does not declare are dropped; a key that is missing or null is null, which only an OPTIONAL field may be.
//
//   field type        from the program's output              to the emitting program
//   STRING            string                                 string
//   BOOL              true / false                           true / false
//   integer types     integer number (exact; range-checked)  number with every digit
//   F64               number                                 number (NaN and infinities: null)
//   DATETIME          RFC 3339 text, or seconds since the    RFC 3339 text, UTC, up to nine digits
//                     epoch as a number (jq's `now`, `mktime`)
//   BYTES             standard base64 text                   standard base64 text
import { isIntegerType } from '../../graph/field-types.js';
import type { GraphField, GraphSchema } from '../../graph/types.js';
import { integerInto } from '../../expr/convert.js';
import { RecordError, messageError, quoteGraphName, type MessageError } from '../../core/errors.js';
import { readingLiteral } from '../../core/record-literal.js';
import { parseRfc3339 } from '../../core/rfc3339.js';
import { Instant, type RecordValues, type Value } from '../../core/values.js';
import { jsonKind } from '../json-kind.js';
import type { JsonObject, JsonValue } from '../json-value.js';

type Read = (json: JsonValue) => Value;

/** Turns program outputs into records; built once per codec. */
export class ViewReader {
  /** One object literal per schema (core/record-literal.ts): every record of the codec has one shape. */
  readonly #record: (output: JsonObject, unused: undefined) => RecordValues;

  constructor(schema: GraphSchema) {
    this.#record = readingLiteral(
      schema.fields.map((field) => field.name),
      schema.fields.map((field) => fieldReader({ ...field, read: readerOf(field) })),
    );
  }

  /**
   * The records of every output, or the message error of the first that does not fit (docs/codecs.md,
   * "JAQ codecs").
   */
  records(outputs: readonly JsonValue[]): { records: RecordValues[] } | { error: MessageError } {
    const records: RecordValues[] = [];
    for (let index = 0; index < outputs.length; index += 1) {
      const output = outputs[index] as JsonValue;
      if (output === null || typeof output !== 'object' || Array.isArray(output)) {
        return {
          error: messageError('SR3014', `output ${index + 1} is ${kindOf(output)}, not a JSON object`),
        };
      }
      try {
        records.push(this.#record(output, undefined));
      } catch (error: unknown) {
        if (!(error instanceof RecordError)) throw error;
        const reason = outputs.length > 1 ? `output ${index + 1}: ${error.reason}` : error.reason;
        return { error: messageError(error.code, reason, error.detail) };
      }
    }
    return { records };
  }
}

/** A field's value from an output: its key's value, null for an OPTIONAL field without one, else SR3005. */
function fieldReader(field: { name: string; optional: boolean; read: Read }): (output: JsonObject) => Value {
  return (output) => {
    const json = Object.hasOwn(output, field.name) ? (output[field.name] ?? null) : null;
    if (json !== null) return readField(field, json);
    if (field.optional) return null;
    throw new RecordError(
      'SR3005',
      `key ${quoteGraphName(field.name)} is missing or null, and field ${field.name} is not OPTIONAL`,
      { field: field.name },
    );
  };
}

/** A field's value; a RecordError names the field (a schema name) in its detail. */
function readField(field: { name: string; read: Read }, json: JsonValue): Value {
  try {
    return field.read(json);
  } catch (error: unknown) {
    if (error instanceof RecordError && error.detail === undefined)
      throw new RecordError(error.code, error.reason, { field: field.name });
    throw error;
  }
}

function readerOf(field: GraphField): Read {
  const what = `key ${quoteGraphName(field.name)}`;
  if (isIntegerType(field.type)) {
    const into = integerInto(field.type, what);
    return (json) => {
      if (typeof json === 'bigint') return into(json);
      if (typeof json === 'number' && Number.isInteger(json))
        return into(Number.isSafeInteger(json) ? json : BigInt(json));
      throw mistyped(what, 'an integer', json);
    };
  }
  switch (field.type) {
    case 'F64':
      return (json) =>
        typeof json === 'number' || typeof json === 'bigint' ? Number(json) : fail(what, 'a number', json);
    case 'BOOL':
      return (json) => (typeof json === 'boolean' ? json : fail(what, 'true or false', json));
    case 'DATETIME':
      return (json) => instantOf(json, what);
    case 'BYTES':
      return (json) => bytesOf(json, what);
    default:
      return (json) => (typeof json === 'string' ? json : fail(what, 'a string', json));
  }
}

/** Seconds since the epoch of 0000-01-01T00:00:00Z and of 10000-01-01T00:00:00Z: RFC 3339's years. */
const FIRST_SECOND = -62_167_219_200;
const END_SECOND = 253_402_300_800;

function instantOf(json: JsonValue, what: string): Instant {
  if (typeof json === 'number' && Number.isFinite(json)) {
    if (!(json >= FIRST_SECOND && json < END_SECOND)) {
      throw new RecordError('SR3007', `${what}: seconds since the epoch outside the years 0000–9999`);
    }
    const seconds = Math.floor(json);
    const nanos = Math.round((json - seconds) * 1e9);
    return new Instant(BigInt(seconds) * 1_000_000_000n + BigInt(nanos));
  }
  if (typeof json !== 'string') return fail(what, 'RFC 3339 text or seconds since the epoch', json);
  const instant = parseRfc3339(json);
  if (instant === undefined) throw new RecordError('SR3007', `${what}: expected an RFC 3339 timestamp`);
  return instant;
}

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

function bytesOf(json: JsonValue, what: string): Uint8Array {
  if (typeof json !== 'string') return fail(what, 'base64 text', json);
  if (!BASE64.test(json)) throw new RecordError('SR3005', `${what}: expected standard base64 text`);
  return new Uint8Array(Buffer.from(json, 'base64'));
}

function fail(what: string, expected: string, json: JsonValue): never {
  throw mistyped(what, expected, json);
}

function mistyped(what: string, expected: string, json: JsonValue): RecordError {
  return new RecordError('SR3005', `${what}: expected ${expected}, found ${kindOf(json)}`);
}

/** What a value is, for a reason: `an integer` told apart from `a number` (a fraction), never the value. */
function kindOf(json: JsonValue): string {
  const integral = (typeof json === 'number' && Number.isInteger(json)) || typeof json === 'bigint';
  return integral ? 'an integer' : jsonKind(json);
}

/** The object the ON EMITTING program reads for a record: every field of the schema, by name. */
export function recordView(record: Readonly<RecordValues>, schema: GraphSchema): JsonObject {
  const view: JsonObject = {};
  for (const { name } of schema.fields) view[name] = viewOf(record[name] ?? null);
  return view;
}

function viewOf(value: Value): JsonValue {
  if (value instanceof Instant) return value.toRfc3339();
  if (value instanceof Uint8Array)
    return Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('base64');
  if (typeof value === 'number' && !Number.isFinite(value)) return null;
  return value;
}

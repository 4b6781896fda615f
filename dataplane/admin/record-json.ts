// One record as one JSON object, the line format of a subscription stream (docs/admin-api.md, "Format"):
// the record's fields in record order, keyed by field name, no envelope.
//
//   STRING        JSON string: quotes, backslashes, control characters and lone surrogates escaped as
//                 JSON.stringify does; every other character as is (UTF-8 on the wire)
//   BOOL          true / false
//   U8 … I32, F64 JSON number in JavaScript's shortest round-trip form (1.5, 1e+21); -0 is written 0;
//                 NaN, Infinity and -Infinity (JSON has none) are written null
//   I64, U64      JSON number with every digit, from the bigint's own decimal text (never a JS number)
//   DATETIME      JSON string, RFC 3339 UTC with up to nine fractional digits (Instant.toRfc3339)
//   BYTES         JSON string, standard base64 with padding
//   null          null
//
// Hot path: one string built by concatenation, no closure or intermediate object per record; field names
// are quoted once and kept; a string that needs no escape is quoted without JSON.stringify (half the
// cost); DATETIME is formatted without a Date (rfc3339-text.ts, a tenth of the cost). It never
// throws: a value of no record type (a defect upstream) and an instant JavaScript dates cannot hold are
// written null, so one bad value cannot stop a stream.
import { Instant, type RecordValues, type Value } from '../core/values.js';
import { rfc3339Text } from './rfc3339-text.js';

/** A character JSON.stringify escapes (surrogate pairs too: they are rare, and then it decides). */
const NEEDS_ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/;
/** Quoted field names with their colon; bounded, since names come from schemas, but a bug should not leak. */
const NAMES = new Map<string, string>();
const MAX_NAMES = 4_096;

/** The record as JSON object text, without a line terminator. */
export function recordToJson(record: Readonly<RecordValues>): string {
  let text = '{';
  let separator = '';
  for (const name in record) {
    text += separator + nameToJson(name) + valueToJson(record[name]);
    separator = ',';
  }
  return text + '}';
}

/** One value as JSON text. */
export function valueToJson(value: Value | undefined): string {
  switch (typeof value) {
    case 'string':
      return stringToJson(value);
    case 'number':
      return Number.isFinite(value) ? String(value) : 'null';
    case 'bigint':
      return value.toString();
    case 'boolean':
      return value ? 'true' : 'false';
    case 'object':
      return objectToJson(value);
    default:
      return 'null';
  }
}

function stringToJson(value: string): string {
  return NEEDS_ESCAPE.test(value) ? JSON.stringify(value) : `"${value}"`;
}

function nameToJson(name: string): string {
  let text = NAMES.get(name);
  if (text === undefined) {
    text = `${stringToJson(name)}:`;
    if (NAMES.size < MAX_NAMES) NAMES.set(name, text);
  }
  return text;
}

function objectToJson(value: Instant | Uint8Array | null): string {
  if (value instanceof Instant) return instantToJson(value);
  if (value instanceof Uint8Array) return `"${bytesToBase64(value)}"`;
  return 'null';
}

/** RFC 3339 text has no character JSON escapes, so it is quoted as is. */
function instantToJson(value: Instant): string {
  try {
    return `"${rfc3339Text(value)}"`;
  } catch {
    // Beyond ±275,000 years Date cannot format it (RangeError); no codec produces such an instant.
    return 'null';
  }
}

/** Base64 of the bytes the view covers (a view into a larger buffer is not copied). */
function bytesToBase64(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
}

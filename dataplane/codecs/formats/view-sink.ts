// Where a view walker (yaml-view.ts, toml-view.ts, xml-view.ts, cbor-reader.ts, the protobuf view) puts
// what it reads: JSON view text for jq-wasm (TEXT_SINK), or the JsonValue a compiled jq program reads
// (VALUE_SINK). One walker serves both, so every rule (limits, keys, dates, tags) is checked by the same
// code whichever is built. The values are what parseJsonValue makes of the text, except that a lone
// surrogate becomes U+FFFD as jq makes it (WELL_FORMED_VALUE_SINK, for formats whose strings may hold one).
// An object or array being built is a V too: its text so far, or the object or array itself.
import { numberValue, setKey, type JsonObject, type JsonValue } from '../json-value.js';

export interface ViewSink<V> {
  readonly null: V;
  boolean(value: boolean): V;
  /** An exact integer (a number only when it is a safe integer or a result of exact arithmetic). */
  integer(value: number | bigint): V;
  /** A double as view text writes it: JSON.stringify's digits; NaN and ±Infinity as strings. */
  float(value: number): V;
  /** A number already written as view text: a JSON number literal, or a special as a quoted string. */
  numberText(text: string): V;
  string(value: string): V;
  /** A string of printable ASCII without `"` or `\`: its JSON text is itself in quotes. */
  plainString(value: string): V;
  /** A scalar known ahead (a default, an enum name): its view text and its value, both. */
  constant(text: string, value: JsonValue): V;
  /** Bytes as standard base64 text with padding. */
  bytes(value: Uint8Array): V;
  object(): V;
  /**
   * Adds an entry to an object from `object()`; returns the object to go on with. `keyText`, when the
   * walker has it ready, is the key's JSON text and a colon (`"name":`).
   */
  entry(object: V, key: string, value: V, keyText?: string): V;
  /** Adds an entry whose key the walker has only as JSON text (`"key"`). */
  entryText(object: V, keyText: string, value: V): V;
  endObject(object: V): V;
  array(): V;
  item(array: V, value: V): V;
  endArray(array: V): V;
  /** The length of a value's view text when the sink holds it (text); undefined otherwise. */
  textLength(value: V): number | undefined;
}

/** A float as view text. JSON has no NaN or infinity: those are the strings "NaN", "Infinity", "-Infinity". */
export function floatText(value: number): string {
  if (Number.isFinite(value)) return JSON.stringify(value);
  return Number.isNaN(value) ? '"NaN"' : value > 0 ? '"Infinity"' : '"-Infinity"';
}

function base64(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
}

export const TEXT_SINK: ViewSink<string> = {
  null: 'null',
  boolean: (value) => (value ? 'true' : 'false'),
  integer: (value) => value.toString(),
  float: floatText,
  numberText: (text) => text,
  string: (value) => JSON.stringify(value),
  plainString: (value) => `"${value}"`,
  constant: (text) => text,
  bytes: (value) => `"${base64(value)}"`,
  object: () => '',
  entry: (object, key, value, keyText = `${JSON.stringify(key)}:`) =>
    `${object}${object === '' ? '' : ','}${keyText}${value}`,
  entryText: (object, keyText, value) => `${object}${object === '' ? '' : ','}${keyText}:${value}`,
  endObject: (object) => `{${object}}`,
  array: () => '',
  item: (array, value) => (array === '' ? value : `${array},${value}`),
  endArray: (array) => `[${array}]`,
  textLength: (value) => value.length,
};

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/** The value of a number, exactly as parseJsonValue reads the text floatText writes for it. */
function floatValue(value: number): JsonValue {
  if (!Number.isFinite(value)) return Number.isNaN(value) ? 'NaN' : value > 0 ? 'Infinity' : '-Infinity';
  // -0 is written `0`; a double beyond 2^53 is written as digits that may read back as a bigint.
  if (Number.isSafeInteger(value)) return value === 0 ? 0 : value;
  return Number.isInteger(value) ? numberValue(JSON.stringify(value)) : value;
}

function valueSink(string: (value: string) => string): ViewSink<JsonValue> {
  return {
    null: null,
    boolean: (value) => value,
    integer: (value) =>
      typeof value === 'number'
        ? Number.isSafeInteger(value)
          ? value
          : BigInt(value)
        : value >= -MAX_SAFE && value <= MAX_SAFE
          ? Number(value)
          : value,
    float: floatValue,
    numberText: (text) => (text.startsWith('"') ? (JSON.parse(text) as string) : numberValue(text)),
    string,
    plainString: (value) => value,
    constant: (_text, value) => value,
    bytes: base64,
    object: () => ({}),
    entry: (object, key, value) => {
      setKey(object as JsonObject, string(key), value);
      return object;
    },
    entryText: (object, keyText, value) => {
      setKey(object as JsonObject, string(JSON.parse(keyText) as string), value);
      return object;
    },
    endObject: (object) => object,
    array: () => [],
    item: (array, value) => {
      (array as JsonValue[]).push(value);
      return array;
    },
    endArray: (array) => array,
    textLength: () => undefined,
  };
}

/** Values of formats whose strings are always well-formed (strict UTF-8 decoding, XML's Char rule). */
export const VALUE_SINK = valueSink((value) => value);

/** Values of formats whose escapes can write a lone surrogate (YAML): jq reads one as U+FFFD. */
export const WELL_FORMED_VALUE_SINK = valueSink(toWellFormed);

export function toWellFormed(text: string): string {
  // The project's TypeScript lib is ES2023, which does not declare the method yet (Node 20 has it).
  return (text as string & { toWellFormed(): string }).toWellFormed();
}

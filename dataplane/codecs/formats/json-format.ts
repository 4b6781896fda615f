// JSON payloads (RFC 8259): one JSON text per payload, given to the program as it was sent — the text is
// already JSON view text, so numbers keep every digit without being parsed again. `JSON.parse` decides
// validity (V8's native parser is the fastest check we have); when it refuses, json-syntax.ts says where
// and what was expected. Read as values, its result is the value (parsed again exactly only when it holds
// a number beyond 2^53). Decisions: docs/codec-formats.md ("JSON").
import { messageError } from '../../core/errors.js';
import { exactJsonValue, setKey, toJsonText, type JsonObject, type JsonValue } from '../json-value.js';
import { fail, guarded, lineColumn } from './format-failure.js';
import { MAX_DEPTH } from './format-limits.js';
import { jsonProblem, tooDeepOffset } from './json-syntax.js';
import type { PayloadFormat, ReadResult, ValuesResult, WriteResult } from './payload-format.js';
import { payloadText } from './utf8-text.js';
import { checkWritable } from './view-text.js';
import { toWellFormed } from './view-sink.js';

const FORMAT = 'JSON';
const encoder = new TextEncoder();

/** Valid JSON shorter than this cannot nest MAX_DEPTH + 1 deep (each level takes two brackets). */
const SHORTEST_TOO_DEEP = 2 * (MAX_DEPTH + 1);
/** A `\u` escape of a surrogate: only a text with one can hold a lone surrogate (UTF-8 has none). */
const SURROGATE_ESCAPE = /\\u[dD][89a-fA-F]/;
const READ_FAILED = messageError('SR3002', `${FORMAT}: the payload could not be read`);
const WRITE_FAILED = messageError('SR3008', `${FORMAT}: the value could not be written`);

export const jsonFormat: PayloadFormat = {
  read(payload: Uint8Array): ReadResult {
    return guarded(FORMAT, () => ({ inputs: [checkedText(payload).text] }), READ_FAILED);
  },

  readValues(payload: Uint8Array): ValuesResult {
    return guarded(
      FORMAT,
      () => {
        const { text, parsed } = checkedText(payload);
        const value = exactJsonValue(text, parsed);
        return { values: [hasSurrogateEscape(text) ? wellFormed(value) : value], texts: [text] };
      },
      READ_FAILED,
    );
  },

  write(value: JsonValue): WriteResult {
    return guarded(
      FORMAT,
      () => {
        checkWritable(FORMAT, value);
        return { bytes: encoder.encode(toJsonText(value)) };
      },
      WRITE_FAILED,
    );
  },
};

/** The payload's text once it is known to be one JSON text nested at most MAX_DEPTH deep, and its parse. */
function checkedText(payload: Uint8Array): { text: string; parsed: JsonValue } {
  const text = payloadText(FORMAT, payload);
  let parsed: JsonValue = null;
  try {
    parsed = JSON.parse(text) as JsonValue;
  } catch {
    const { offset, expected } = jsonProblem(text);
    const at = lineColumn(text, offset);
    fail('SR3002', `${FORMAT}: expected ${expected} at ${at}`, at);
  }
  if (text.length >= SHORTEST_TOO_DEEP) {
    const offset = tooDeepOffset(text, MAX_DEPTH);
    if (offset !== -1) {
      const at = lineColumn(text, offset);
      fail('SR3011', `${FORMAT}: nesting deeper than ${MAX_DEPTH} at ${at}`, at);
    }
  }
  return { text, parsed };
}

/** `includes` first: it costs a few ns where the regular expression costs about a µs on 300 characters. */
function hasSurrogateEscape(text: string): boolean {
  return text.includes('\\u') && SURROGATE_ESCAPE.test(text);
}

/** The value with every lone surrogate in its strings and keys turned into U+FFFD, as jq reads it. */
function wellFormed(value: JsonValue): JsonValue {
  if (typeof value === 'string') return toWellFormed(value);
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map(wellFormed);
  const out: JsonObject = {};
  for (const key of Object.keys(value)) setKey(out, toWellFormed(key), wellFormed(value[key] as JsonValue));
  return out;
}

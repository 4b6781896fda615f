// TOML payloads (TOML 1.0, with smol-toml — docs/decisions/0002): one document is one input, a JSON
// object. Reading is toml-view.ts. Writing needs an object at the top (a TOML document is a table) and
// no null anywhere (TOML has none); integers must fit I64 ∪ U64. Strings are written as strings, even
// when they hold a date. Decisions: docs/codec-formats.md ("TOML").
import { tomlLibrary } from './format-libraries.js';
import { messageError } from '../../core/errors.js';
import { jsonKind } from '../json-kind.js';
import type { JsonValue } from '../json-value.js';
import { isWellFormed } from '../well-formed-text.js';
import { fail, guarded } from './format-failure.js';
import { MAX_DEPTH } from './format-limits.js';
import type { PayloadFormat, ReadResult, ValuesResult, WriteResult } from './payload-format.js';
import { HIGHEST, LOWEST, TomlView } from './toml-view.js';
import { payloadText } from './utf8-text.js';
import { checkWritable, type WriteRule } from './view-text.js';
import { TEXT_SINK, VALUE_SINK, type ViewSink } from './view-sink.js';

const FORMAT = 'TOML';
const encoder = new TextEncoder();
const READ_FAILED = messageError('SR3010', `${FORMAT}: the payload does not parse`);
const WRITE_FAILED = messageError('SR3008', `${FORMAT}: the value could not be written`);

/** smol-toml's message when nesting passes maxDepth (it has no error codes). */
const TOO_DEEP = 'excessively nested';
/**
 * smol-toml's own fixed phrases (smol-toml 1.x, dist/*.js), shown as they are. Any other text — one
 * passed through from an inner error — might quote the payload and becomes `invalid TOML`: the reason
 * holds a phrase from this list or none.
 */
const PHRASES: ReadonlySet<string> = new Set([
  'control characters are not allowed in comments',
  'control characters are not allowed in strings',
  'document contains an unsafe property',
  'each key-value declaration must be followed by an end-of-line',
  'expected comma or end of structure',
  'expected end of table array declaration',
  'illegal character in key',
  'illegal character in numeric literal',
  'illegal empty bare key',
  'illegal leading zero',
  'illegal quoted key: multiline strings are not allowed',
  'illegal underscore',
  'incomplete key-value: cannot find end of key',
  'integer value cannot be represented losslessly',
  'invalid date',
  'invalid date-time: date part is malformed',
  'invalid date-time: time part is malformed',
  'invalid escape: only line-ending whitespace may be escaped',
  'invalid non-hex character in unicode escape',
  'invalid unicode escape',
  'invalid value',
  'trying to redefine an already defined table or value',
  'trying to redefine an already defined value',
  'unexpected end of key',
  'unfinished array',
  'unfinished numeric value',
  'unfinished string',
  'unfinished table',
  'unrecognised escape sequence',
]);

export const tomlFormat: PayloadFormat = {
  read(payload: Uint8Array): ReadResult {
    return guarded(FORMAT, () => ({ inputs: [readDocument(payload, TEXT_SINK)] }), READ_FAILED);
  },

  readValues(payload: Uint8Array): ValuesResult {
    // Strings are well-formed: the payload is strict UTF-8 and TOML has no escape for a surrogate.
    return guarded(FORMAT, () => ({ values: [readDocument(payload, VALUE_SINK)] }), READ_FAILED);
  },

  write(value: JsonValue): WriteResult {
    return guarded(
      FORMAT,
      () => {
        if (value === null || typeof value !== 'object' || Array.isArray(value)) {
          fail(
            'SR3008',
            `${FORMAT}: cannot write ${jsonKind(value)} at .: a TOML document is a table (an object)`,
          );
        }
        checkWritable(FORMAT, value, tomlRule);
        return { bytes: encoder.encode(tomlLibrary().stringify(value, { maxDepth: MAX_DEPTH + 1 })) };
      },
      WRITE_FAILED,
    );
  },
};

function readDocument<V>(payload: Uint8Array, sink: ViewSink<V>): V {
  const text = payloadText(FORMAT, payload);
  return new TomlView(text, sink).value(parseToml(text));
}

function parseToml(text: string): unknown {
  try {
    return tomlLibrary().parse(text, { integersAsBigInt: 'asNeeded', maxDepth: MAX_DEPTH });
  } catch (error: unknown) {
    if (!(error instanceof tomlLibrary().TomlError)) throw error;
    const phrase = /^Invalid TOML document: ([^\n]*)/.exec(error.message)?.[1] ?? '';
    const code = phrase.includes(TOO_DEEP) ? 'SR3011' : 'SR3010';
    const what =
      code === 'SR3011' ? `nesting deeper than ${MAX_DEPTH}` : PHRASES.has(phrase) ? phrase : 'invalid TOML';
    const at = `line ${error.line}, column ${error.column}`;
    return fail(code, `${FORMAT}: ${what} at ${at}`, at);
  }
}

const tomlRule: WriteRule = (value) => {
  if (value === null) return 'null (TOML has no null)';
  if (typeof value === 'bigint' && (value < LOWEST || value > HIGHEST)) return 'an integer beyond 64 bits';
  if (typeof value === 'string' && !isWellFormed(value))
    return 'a string with a lone surrogate (no UTF-8 form)';
  return undefined;
};

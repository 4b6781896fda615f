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
import type { PayloadFormat, ReadResult, WriteResult } from './payload-format.js';
import { HIGHEST, LOWEST, TomlView } from './toml-view.js';
import { payloadText } from './utf8-text.js';
import { checkWritable, type WriteRule } from './view-text.js';

const FORMAT = 'TOML';
const encoder = new TextEncoder();
const READ_FAILED = messageError('SR3010', `${FORMAT}: the payload does not parse`);
const WRITE_FAILED = messageError('SR3008', `${FORMAT}: the value could not be written`);

/** smol-toml's message when nesting passes maxDepth (it has no error codes). */
const TOO_DEEP = 'excessively nested';
/** smol-toml's messages are fixed phrases; one with anything else might quote the payload. */
const PLAIN_PHRASE = /^[a-z][a-z ,.:'()-]{0,99}$/i;

export const tomlFormat: PayloadFormat = {
  read(payload: Uint8Array): ReadResult {
    return guarded(
      FORMAT,
      () => {
        const text = payloadText(FORMAT, payload);
        return { inputs: [new TomlView(text).value(parseToml(text))] };
      },
      READ_FAILED,
    );
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

function parseToml(text: string): unknown {
  try {
    return tomlLibrary().parse(text, { integersAsBigInt: 'asNeeded', maxDepth: MAX_DEPTH });
  } catch (error: unknown) {
    if (!(error instanceof tomlLibrary().TomlError)) throw error;
    const phrase = /^Invalid TOML document: ([^\n]*)/.exec(error.message)?.[1] ?? '';
    const code = phrase.includes(TOO_DEEP) ? 'SR3011' : 'SR3010';
    const what =
      code === 'SR3011'
        ? `nesting deeper than ${MAX_DEPTH}`
        : PLAIN_PHRASE.test(phrase)
          ? phrase
          : 'invalid TOML';
    return fail(code, `${FORMAT}: ${what} at line ${error.line}, column ${error.column}`);
  }
}

const tomlRule: WriteRule = (value) => {
  if (value === null) return 'null (TOML has no null)';
  if (typeof value === 'bigint' && (value < LOWEST || value > HIGHEST)) return 'an integer beyond 64 bits';
  if (typeof value === 'string' && !isWellFormed(value))
    return 'a string with a lone surrogate (no UTF-8 form)';
  return undefined;
};

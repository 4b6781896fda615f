// JSON payloads (RFC 8259): one JSON text per payload, given to the program as it was sent — the text is
// already JSON view text, so numbers keep every digit without being parsed again. `JSON.parse` only
// decides validity (V8's native parser is the fastest check we have); when it refuses, json-syntax.ts
// says where and what was expected. Decisions: docs/codec-formats.md ("JSON").
import { messageError } from '../../core/errors.js';
import { toJsonText, type JsonValue } from '../json-value.js';
import { fail, guarded, lineColumn } from './format-failure.js';
import { MAX_DEPTH } from './format-limits.js';
import { jsonProblem, tooDeepOffset } from './json-syntax.js';
import type { PayloadFormat, ReadResult, WriteResult } from './payload-format.js';
import { payloadText } from './utf8-text.js';
import { checkWritable } from './view-text.js';

const FORMAT = 'JSON';
const encoder = new TextEncoder();

/** Valid JSON shorter than this cannot nest MAX_DEPTH + 1 deep (each level takes two brackets). */
const SHORTEST_TOO_DEEP = 2 * (MAX_DEPTH + 1);
const READ_FAILED = messageError('SR3002', `${FORMAT}: the payload could not be read`);
const WRITE_FAILED = messageError('SR3008', `${FORMAT}: the value could not be written`);

export const jsonFormat: PayloadFormat = {
  read(payload: Uint8Array): ReadResult {
    return guarded(FORMAT, () => ({ inputs: [checkedText(payload)] }), READ_FAILED);
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

/** The payload's text once it is known to be one JSON text nested at most MAX_DEPTH deep. */
function checkedText(payload: Uint8Array): string {
  const text = payloadText(FORMAT, payload);
  try {
    JSON.parse(text);
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
  return text;
}

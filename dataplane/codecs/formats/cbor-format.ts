// CBOR payloads (RFC 8949): one data item per payload, read by cbor-reader.ts and written by
// cbor-writer.ts (maps with text keys, integers as CBOR integers, beyond 64 bits as tag 2/3 bignums, other
// numbers as doubles). Decisions: docs/codec-formats.md ("CBOR").
import { messageError } from '../../core/errors.js';
import type { JsonValue } from '../json-value.js';
import { isWellFormed } from '../well-formed-text.js';
import { cborView } from './cbor-reader.js';
import { cborBytes } from './cbor-writer.js';
import { guarded } from './format-failure.js';
import type { PayloadFormat, ReadResult, ValuesResult, WriteResult } from './payload-format.js';
import { checkWritable, type WriteRule } from './view-text.js';
import { TEXT_SINK, VALUE_SINK } from './view-sink.js';

const FORMAT = 'CBOR';
const READ_FAILED = messageError('SR3010', `${FORMAT}: the payload does not parse`);
const WRITE_FAILED = messageError('SR3008', `${FORMAT}: the value could not be written`);
export const cborFormat: PayloadFormat = {
  read(payload: Uint8Array): ReadResult {
    return guarded(FORMAT, () => ({ inputs: [cborView(payload, TEXT_SINK)] }), READ_FAILED);
  },

  readValues(payload: Uint8Array): ValuesResult {
    // Text strings are strict UTF-8, so always well-formed.
    return guarded(FORMAT, () => ({ values: [cborView(payload, VALUE_SINK)] }), READ_FAILED);
  },

  write(value: JsonValue): WriteResult {
    return guarded(
      FORMAT,
      () => {
        checkWritable(FORMAT, value, cborRule);
        return { bytes: cborBytes(value) };
      },
      WRITE_FAILED,
    );
  },
};

const cborRule: WriteRule = (value) =>
  typeof value === 'string' && !isWellFormed(value)
    ? 'a string with a lone surrogate (no UTF-8 form)'
    : undefined;

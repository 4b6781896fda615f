// CBOR payloads (RFC 8949): one data item per payload, read by cbor-reader.ts (why not cbor-x's decoder:
// see there). Writing uses cbor-x's Encoder with its extensions off: maps with text keys, integers as
// CBOR integers (beyond 64 bits as tag 2/3 bignums), other numbers as doubles. Decisions:
// docs/codec-formats.md ("CBOR").
import { Encoder } from 'cbor-x';
import { messageError } from '../../runtime/errors.js';
import type { JsonValue } from '../json-value.js';
import { isWellFormed } from '../well-formed-text.js';
import { cborViewText } from './cbor-reader.js';
import { guarded } from './format-failure.js';
import type { PayloadFormat, ReadResult, WriteResult } from './payload-format.js';
import { checkWritable, type WriteRule } from './view-text.js';

const FORMAT = 'CBOR';
const READ_FAILED = messageError('SR3010', `${FORMAT}: the payload does not parse`);
const WRITE_FAILED = messageError('SR3008', `${FORMAT}: the value could not be written`);
/**
 * cbor-x writes an integral number beyond 32 bits as a double; as a bigint it writes an integer. (A
 * number beyond 2^53 is a double in a JsonValue — exact integers there are bigints — and stays one.)
 */
const LARGEST_SMALL = 2 ** 32;

const encoder = new Encoder({
  useRecords: false,
  mapsAsObjects: true,
  variableMapSize: true, // the shortest map header, as RFC 8949 prefers
  pack: false,
  bundleStrings: false,
  structuredClone: false,
  tagUint8Array: false,
});

export const cborFormat: PayloadFormat = {
  read(payload: Uint8Array): ReadResult {
    return guarded(FORMAT, () => ({ inputs: [cborViewText(payload)] }), READ_FAILED);
  },

  write(value: JsonValue): WriteResult {
    return guarded(
      FORMAT,
      () => {
        checkWritable(FORMAT, value, cborRule);
        // A copy: the encoder's result is a view of a buffer it reuses.
        return { bytes: new Uint8Array(encoder.encode(encodable(value))) };
      },
      WRITE_FAILED,
    );
  },
};

const cborRule: WriteRule = (value) =>
  typeof value === 'string' && !isWellFormed(value)
    ? 'a string with a lone surrogate (no UTF-8 form)'
    : undefined;

/**
 * The value as cbor-x should see it: large integral numbers as bigints, objects without a prototype (a
 * `__proto__` key stays a key).
 */
function encodable(value: JsonValue): unknown {
  if (typeof value === 'number') {
    return Number.isSafeInteger(value) && Math.abs(value) >= LARGEST_SMALL ? BigInt(value) : value;
  }
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map(encodable);
  const copy = Object.create(null) as Record<string, unknown>;
  for (const key of Object.keys(value)) copy[key] = encodable(value[key] as JsonValue);
  return copy;
}

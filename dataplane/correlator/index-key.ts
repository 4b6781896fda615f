// Hash-index keys of a correlator: the values of the equality conjuncts `left.a = right.b` turned into one
// JavaScript Map key, so that two records whose conjuncts are all true land in the same bucket.
//
// The rule is that equal values under `=` give the same key; the full WHERE still runs on every candidate,
// so a coarser key would only cost time, a finer one would lose matches. Hence:
//   - integers compare by value whatever their representation: U8 `5` (number) and I64 `5n` (bigint) are
//     one key (safe integers become numbers, larger ones bigints);
//   - a string and a number are never equal (the Map keeps them apart; no text is parsed);
//   - DATETIME compares by nanoseconds, BYTES by content;
//   - null never matches (`x = NULL` is not true), nor does a NaN float; such a record gets no key.
import type { RecordValues, Value } from '../core/values.js';
import { Instant } from '../core/values.js';

/** A normalised key; tagged strings (starting with NUL) carry what is not a plain primitive. */
export type IndexKey = string | number | bigint | boolean;

/** How a correlator reads one side of an equality conjunct: a field name or an accessor. */
export type KeyAccessor = string | ((record: RecordValues) => Value);

export interface KeyPair {
  left: KeyAccessor;
  right: KeyAccessor;
}

/** Computes a record's key, or undefined when the record can match nothing (a null or NaN part). */
export type KeyFunction = (record: RecordValues) => IndexKey | undefined;

const TAG = '\u0000';
/** The one key of a correlator without equality conjuncts: every pending record is a candidate. */
const ALL: IndexKey = `${TAG}all`;
const SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/** One value as a Map key, or undefined when `=` with it can never be true. */
export function normaliseKey(value: Value): IndexKey | undefined {
  switch (typeof value) {
    case 'string':
      // Plain strings are their own key; only the rare one that starts like a tag is escaped.
      return value.charCodeAt(0) === 0 ? `${TAG}s${value}` : value;
    case 'number':
      return numberKey(value);
    case 'bigint':
      return value >= -SAFE && value <= SAFE ? Number(value) : value;
    case 'boolean':
      return value;
    default:
      return objectKey(value);
  }
}

function numberKey(value: number): IndexKey | undefined {
  if (Number.isNaN(value)) return undefined;
  if (value === 0) return 0; // -0 = 0
  return Number.isInteger(value) && !Number.isSafeInteger(value) ? BigInt(value) : value;
}

function objectKey(value: Instant | Uint8Array | null): IndexKey | undefined {
  if (value === null) return undefined;
  if (value instanceof Instant) return `${TAG}t${value.epochNanos}`;
  return `${TAG}x${Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('latin1')}`;
}

/** Several normalised parts as one unambiguous string (strings are length-prefixed, numbers terminated). */
function joinKeys(parts: readonly IndexKey[]): string {
  let key = `${TAG}c`;
  for (const part of parts) {
    if (typeof part === 'string') key += `s${part.length}:${part}`;
    else if (typeof part === 'boolean') key += part ? 'T' : 'F';
    else key += `n${part};`;
  }
  return key;
}

function accessor(read: KeyAccessor): (record: RecordValues) => Value {
  return typeof read === 'string' ? (record) => record[read] ?? null : read;
}

/** The key function of one side, specialised for no, one or several conjuncts. */
export function keyFunction(pairs: readonly KeyPair[], side: 'left' | 'right'): KeyFunction {
  const reads = pairs.map((pair) => accessor(pair[side]));
  const [only] = reads;
  if (only === undefined) return () => ALL;
  if (reads.length === 1) return (record) => normaliseKey(only(record));
  return (record) => {
    const parts: IndexKey[] = [];
    for (const read of reads) {
      const part = normaliseKey(read(record));
      if (part === undefined) return undefined;
      parts.push(part);
    }
    return joinKeys(parts);
  };
}

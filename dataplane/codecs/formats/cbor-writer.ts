// A JSON value as one CBOR data item (RFC 8949), by the preferred serialisation of §4.1: every head in its
// shortest form, definite lengths. Objects are maps with text keys in their order, integers are CBOR
// integers (also beyond 2^32: a safe integer or a bigint up to 64 bits), beyond 64 bits tag 2/3 bignums,
// other numbers doubles, strings text strings. Our own writer, like our own reader: cbor-x's encoder pulls
// in an optional native addon that the registry here does not serve, which breaks `npm ci`.
import type { JsonValue } from '../json-value.js';

const UNSIGNED = 0;
const NEGATIVE = 1;
const BYTES = 2;
const TEXT = 3;
const ARRAY = 4;
const MAP = 5;
const TAG = 6;
const TWO_TO_64 = 1n << 64n;
const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);
const text = new TextEncoder();

/** The CBOR bytes of `value`, which checkWritable has already accepted (no NaN, infinity or lone surrogate). */
export function cborBytes(value: JsonValue): Uint8Array {
  const writer = new Writer();
  writer.value(value);
  return writer.bytes();
}

class Writer {
  #buffer = new Uint8Array(256);
  #view = new DataView(this.#buffer.buffer);
  #length = 0;

  bytes(): Uint8Array {
    return this.#buffer.slice(0, this.#length);
  }

  value(value: JsonValue): void {
    if (value === null) this.#byte(0xf6);
    else if (typeof value === 'boolean') this.#byte(value ? 0xf5 : 0xf4);
    else if (typeof value === 'string') this.#text(value);
    else if (typeof value === 'number') this.#number(value);
    else if (typeof value === 'bigint') this.#bigint(value);
    else if (Array.isArray(value)) {
      this.#head(ARRAY, value.length);
      for (const item of value) this.value(item);
    } else {
      const keys = Object.keys(value);
      this.#head(MAP, keys.length);
      for (const key of keys) {
        this.#text(key);
        this.value(value[key] as JsonValue);
      }
    }
  }

  #number(value: number): void {
    if (Number.isSafeInteger(value) && !Object.is(value, -0)) {
      return value < 0 ? this.#head(NEGATIVE, -1 - value) : this.#head(UNSIGNED, value);
    }
    this.#reserve(9);
    this.#buffer[this.#length] = 0xfb;
    this.#view.setFloat64(this.#length + 1, value);
    this.#length += 9;
  }

  /** An integer beyond 2^53: major type 0 or 1 within 64 bits, a bignum (tag 2 or 3) beyond. */
  #bigint(value: bigint): void {
    const negative = value < 0n;
    const magnitude = negative ? -1n - value : value;
    const major = negative ? NEGATIVE : UNSIGNED;
    if (magnitude <= MAX_SAFE) return this.#head(major, Number(magnitude));
    if (magnitude < TWO_TO_64) {
      this.#reserve(9);
      this.#buffer[this.#length] = (major << 5) | 27;
      this.#view.setBigUint64(this.#length + 1, magnitude);
      this.#length += 9;
      return;
    }
    this.#head(TAG, negative ? 3 : 2);
    const hex = magnitude.toString(16);
    const bytes = Buffer.from(hex.length % 2 === 0 ? hex : `0${hex}`, 'hex');
    this.#head(BYTES, bytes.length);
    this.#reserve(bytes.length);
    this.#buffer.set(bytes, this.#length);
    this.#length += bytes.length;
  }

  /** A text string, encoded straight into the buffer. */
  #text(value: string): void {
    const size = Buffer.byteLength(value, 'utf8');
    this.#head(TEXT, size);
    this.#reserve(size);
    text.encodeInto(value, this.#buffer.subarray(this.#length, this.#length + size));
    this.#length += size;
  }

  /** A head in its shortest form: the argument (at most 2^53) in the initial byte, or in 1, 2, 4 or 8 after. */
  #head(major: number, argument: number): void {
    const type = major << 5;
    this.#reserve(9);
    const at = this.#length;
    if (argument < 24) {
      this.#buffer[at] = type | argument;
      this.#length += 1;
    } else if (argument < 0x100) {
      this.#buffer[at] = type | 24;
      this.#buffer[at + 1] = argument;
      this.#length += 2;
    } else if (argument < 0x10000) {
      this.#buffer[at] = type | 25;
      this.#view.setUint16(at + 1, argument);
      this.#length += 3;
    } else if (argument < 0x100000000) {
      this.#buffer[at] = type | 26;
      this.#view.setUint32(at + 1, argument);
      this.#length += 5;
    } else {
      this.#buffer[at] = type | 27;
      this.#view.setBigUint64(at + 1, BigInt(argument));
      this.#length += 9;
    }
  }

  #byte(byte: number): void {
    this.#reserve(1);
    this.#buffer[this.#length] = byte;
    this.#length += 1;
  }

  #reserve(count: number): void {
    if (this.#length + count <= this.#buffer.length) return;
    const grown = new Uint8Array(Math.max(this.#buffer.length * 2, this.#length + count));
    grown.set(this.#buffer.subarray(0, this.#length));
    this.#buffer = grown;
    this.#view = new DataView(grown.buffer);
  }
}

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
    else if (typeof value === 'string') this.#bytes(TEXT, text.encode(value));
    else if (typeof value === 'number') this.#number(value);
    else if (typeof value === 'bigint') this.#integer(value);
    else if (Array.isArray(value)) {
      this.#head(ARRAY, BigInt(value.length));
      for (const item of value) this.value(item);
    } else {
      const keys = Object.keys(value);
      this.#head(MAP, BigInt(keys.length));
      for (const key of keys) {
        this.#bytes(TEXT, text.encode(key));
        this.value(value[key] as JsonValue);
      }
    }
  }

  #number(value: number): void {
    if (Number.isSafeInteger(value) && !Object.is(value, -0)) return this.#integer(BigInt(value));
    this.#reserve(9);
    this.#buffer[this.#length] = 0xfb;
    this.#view.setFloat64(this.#length + 1, value);
    this.#length += 9;
  }

  /** An integer: major type 0 or 1 within 64 bits, a bignum (tag 2 or 3) beyond. */
  #integer(value: bigint): void {
    const negative = value < 0n;
    const magnitude = negative ? -1n - value : value;
    if (magnitude < TWO_TO_64) return this.#head(negative ? NEGATIVE : UNSIGNED, magnitude);
    this.#head(TAG, negative ? 3n : 2n);
    const hex = magnitude.toString(16);
    this.#bytes(BYTES, Uint8Array.from(Buffer.from(hex.length % 2 === 0 ? hex : `0${hex}`, 'hex')));
  }

  #bytes(major: number, bytes: Uint8Array): void {
    this.#head(major, BigInt(bytes.length));
    this.#reserve(bytes.length);
    this.#buffer.set(bytes, this.#length);
    this.#length += bytes.length;
  }

  /** A head in its shortest form: the argument in the initial byte, or in 1, 2, 4 or 8 bytes after it. */
  #head(major: number, argument: bigint): void {
    const type = major << 5;
    this.#reserve(9);
    if (argument < 24n) return this.#byte(type | Number(argument));
    const at = this.#length + 1;
    if (argument < 0x100n) this.#buffer[at] = Number(argument);
    else if (argument < 0x10000n) this.#view.setUint16(at, Number(argument));
    else if (argument < 0x100000000n) this.#view.setUint32(at, Number(argument));
    else this.#view.setBigUint64(at, argument);
    const size = argument < 0x100n ? 1 : argument < 0x10000n ? 2 : argument < 0x100000000n ? 4 : 8;
    this.#buffer[this.#length] = type | (23 + Math.log2(size) + 1);
    this.#length += 1 + size;
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

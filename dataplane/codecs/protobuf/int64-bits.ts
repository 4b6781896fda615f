// 64-bit integers as two unsigned 32-bit halves (how the wire carries them) and their exact values.
// Values within ±2^53 take the fast path through a double; only larger ones go through BigInt, so the
// view never rounds a 64-bit integer and the common small values cost no BigInt allocation.

const TWO_32 = 4294967296;
/** hi at or below this: the unsigned value is below 2^53 and exact as a double. */
const SAFE_HI = 0x1fffff;

/** The unsigned 64-bit value hi:lo: a number below 2^53, a bigint from there. */
export function uint64Value(lo: number, hi: number): number | bigint {
  if (hi <= SAFE_HI) return hi * TWO_32 + lo;
  return (BigInt(hi) << 32n) | BigInt(lo);
}

/** The two's-complement 64-bit value hi:lo: a number within ±2^53 (−2^53 included, exact), else a bigint. */
export function int64Value(lo: number, hi: number): number | bigint {
  if (hi <= SAFE_HI) return hi * TWO_32 + lo;
  // Negative with magnitude at most 2^53: (hi | 0) is −2^21 … −1, so the double is exact.
  if (hi >= 0xffe00000) return (hi | 0) * TWO_32 + lo;
  return BigInt.asIntN(64, (BigInt(hi) << 32n) | BigInt(lo));
}

/** The zig-zag encoded (sint64) value hi:lo. */
export function sint64Value(lo: number, hi: number): number | bigint {
  const mask = -(lo & 1);
  const plainLo = (((lo >>> 1) | (hi << 31)) ^ mask) >>> 0;
  const plainHi = ((hi >>> 1) ^ mask) >>> 0;
  return int64Value(plainLo, plainHi);
}

/** The halves of an integer already checked to be within 64 bits (signed or unsigned). */
export interface Halves {
  lo: number;
  hi: number;
}

/** Splits an integer into halves, two's complement for negatives; writes into `out` to avoid allocation. */
export function split64(value: number | bigint, out: Halves): Halves {
  if (typeof value === 'number') {
    // ToUint32 is reduction modulo 2^32, so this is two's complement for negatives too.
    out.lo = value >>> 0;
    out.hi = Math.floor(value / TWO_32) >>> 0;
  } else {
    out.lo = Number(value & 0xffffffffn);
    out.hi = Number((value >> 32n) & 0xffffffffn);
  }
  return out;
}

/** Zig-zag encodes the halves of a signed value in place (sint64). */
export function zigzag64(halves: Halves): Halves {
  const sign = halves.hi >> 31;
  const hi = ((halves.hi << 1) | (halves.lo >>> 31)) ^ sign;
  halves.lo = ((halves.lo << 1) ^ sign) >>> 0;
  halves.hi = hi >>> 0;
  return halves;
}

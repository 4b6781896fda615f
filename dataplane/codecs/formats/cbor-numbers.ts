// Numbers in CBOR's own encodings, as the JSON view needs them (cbor-reader.ts).

/** 0000-01-01T00:00:00Z and 9999-12-31T23:59:59.999Z: the instants RFC 3339 can write. */
const FIRST_MS = -62_167_219_200_000;
const LAST_MS = 253_402_300_799_999;

/** Major type 1: the integer −1 − argument, exactly (−2^53 is a number; sinks take it as exact). */
export function negative(argument: number | bigint): number | bigint {
  return typeof argument === 'number' ? -1 - argument : -1n - argument;
}

/** IEEE 754 binary16 (RFC 8949 appendix D). */
export function halfFloat(half: number): number {
  const exponent = (half >> 10) & 0x1f;
  const mantissa = half & 0x3ff;
  let magnitude: number;
  if (exponent === 0) magnitude = mantissa * 2 ** -24;
  else if (exponent === 31) magnitude = mantissa === 0 ? Infinity : NaN;
  else magnitude = (mantissa + 1024) * 2 ** (exponent - 25);
  return half & 0x8000 ? -magnitude : magnitude;
}

/**
 * Tag 1's epoch seconds as a string: RFC 3339 UTC with milliseconds (`2013-03-21T20:04:00.000Z`, rounded
 * to the millisecond); undefined when not a number or outside years 0000–9999.
 */
export function epochText(seconds: number): string | undefined {
  const ms = Math.round(seconds * 1000);
  return ms >= FIRST_MS && ms <= LAST_MS ? new Date(ms).toISOString() : undefined;
}

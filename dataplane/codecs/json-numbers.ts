// Exact JSON numbers. `JSON.parse` is the fast path; it rounds every number to a double, which is exact
// for safe integers only. When a number that may be an integer is not a safe integer (2^53 and beyond,
// 1e400), the body is parsed again with lossless-json, which keeps each number's text, and that text is
// read exactly: `12345678901234567890`, `1.2e19` and `100.0` are integers, `1.5` is not.
//
// Known limit of the fast path: a decimal that JSON.parse rounds to a safe integer (1.0000000000000001,
// seventeen significant digits) is taken as that integer.
import { parse, splitNumber } from 'lossless-json';

/** A number as written in the payload (from the lossless parse). */
export class NumberText {
  constructor(readonly text: string) {}
}

/** Whether JSON.parse may have rounded this number away from the integer it was written as. */
export function needsExactParse(value: number): boolean {
  return !Number.isSafeInteger(value) && (Number.isInteger(value) || !Number.isFinite(value));
}

/** Parses JSON keeping every number as its text; the last of duplicate keys wins, as with JSON.parse. */
export function parseExact(text: string): unknown {
  return parse(text, null, {
    parseNumber: (number: string) => new NumberText(number),
    onDuplicateKey: ({ newValue }) => newValue,
  });
}

/** Powers of ten beyond this cannot be an integer of any field type (U64 has 20 digits). */
const MAX_EXPONENT = 25;

export type ExactInteger = bigint | 'fraction' | 'too-large';

/** The integer a JSON number text is, `fraction` when it has a fractional part, or `too-large`. */
export function exactInteger(text: string): ExactInteger {
  const { sign, digits, exponent } = splitNumber(text);
  if (digits === '0') return 0n;
  // value = digits × 10^(exponent − (digits.length − 1))
  const shift = exponent - (digits.length - 1);
  if (shift < 0) return 'fraction';
  if (exponent > MAX_EXPONENT) return 'too-large';
  const magnitude = BigInt(digits) * 10n ** BigInt(shift);
  return sign === '-' ? -magnitude : magnitude;
}

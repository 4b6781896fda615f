// to_string() and to_i64() (also how concat() renders its arguments), chosen per static type once.
//
//   to_string: STRING as is; BOOL `true`/`false`; integers in decimal with every digit; F64 as
//              JavaScript's shortest round-trip form (1.5, 1e+21); DATETIME RFC 3339 UTC; BYTES base64.
//   to_i64:    BOOL 1/0; integers as they are, null for a U64 beyond I64; F64 when it is a whole number
//              within I64, else null; STRING when it is `[+-]digits` (blanks around allowed) within I64,
//              else null.
import type { ExprType } from '../graph/expression.js';
import { INTEGER_RANGES } from '../graph/field-types.js';
import type { Instant, Value } from '../core/values.js';

const [I64_MIN, I64_MAX] = INTEGER_RANGES.I64 ?? [0n, 0n];
/** The longest decimal text worth parsing: 19 digits, a sign and a few leading zeros. */
const MAX_INTEGER_TEXT = 40;

export function toText(type: ExprType): (value: Value) => Value {
  switch (type) {
    case 'STRING':
      return (value) => value;
    case 'BOOL':
      return (value) => (value === true ? 'true' : 'false');
    case 'DATETIME':
      return (value) => (value as Instant).toRfc3339();
    case 'BYTES':
      return (value) => Buffer.from(value as Uint8Array).toString('base64');
    default:
      return (value) => (value as number | bigint).toString();
  }
}

export function toI64(type: ExprType): (value: Value) => Value {
  switch (type) {
    case 'BOOL':
      return (value) => (value === true ? 1n : 0n);
    case 'I64':
      return (value) => value;
    case 'U64':
      return (value) => ((value as bigint) > I64_MAX ? null : value);
    case 'F64':
      return (value) => floatToI64(value as number);
    case 'STRING':
      return (value) => textToI64(value as string);
    default:
      return (value) => BigInt(value as number);
  }
}

function floatToI64(value: number): bigint | null {
  // -2^63 and 2^63 are exact doubles; the range is [-2^63, 2^63).
  if (!Number.isInteger(value) || value < -9223372036854775808 || value >= 9223372036854775808) return null;
  return BigInt(value);
}

const INTEGER_TEXT = /^[+-]?\d+$/;

export function textToI64(text: string): bigint | null {
  const trimmed = text.trim();
  if (trimmed.length > MAX_INTEGER_TEXT || !INTEGER_TEXT.test(trimmed)) return null;
  const value = BigInt(trimmed);
  return value < I64_MIN || value > I64_MAX ? null : value;
}

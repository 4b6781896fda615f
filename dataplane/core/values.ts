// How records look at run time. One JavaScript representation per field type, chosen so that nothing
// is rounded: 64-bit integers are bigint (a JS number holds only 53 bits), DATETIME keeps nanoseconds.
//
//   STRING → string      BOOL → boolean       U8 U16 U32 I32 F64 → number
//   U64 I64 → bigint     DATETIME → Instant   BYTES → Uint8Array         null when OPTIONAL and absent
import type { FieldType } from '../graph/field-types.js';

/** A point in time with nanosecond precision (UTC). */
export class Instant {
  constructor(readonly epochNanos: bigint) {}

  static fromMillis(millis: number): Instant {
    return new Instant(BigInt(Math.trunc(millis)) * 1_000_000n);
  }

  /** RFC 3339 in UTC with as many fractional digits as needed (at most nine), e.g. 2026-11-22T03:08:00.5Z. */
  toRfc3339(): string {
    const nanos = ((this.epochNanos % 1_000_000_000n) + 1_000_000_000n) % 1_000_000_000n;
    const seconds = (this.epochNanos - nanos) / 1_000_000_000n;
    const whole = new Date(Number(seconds) * 1000).toISOString().slice(0, 19);
    const fraction = nanos === 0n ? '' : `.${nanos.toString().padStart(9, '0').replace(/0+$/, '')}`;
    return `${whole}${fraction}Z`;
  }

  equals(other: Instant): boolean {
    return this.epochNanos === other.epochNanos;
  }
}

/** The wall clock `now()` reads unless a node injects another: `Date.now()`, millisecond precision. */
export function systemNow(): Instant {
  return Instant.fromMillis(Date.now());
}

/** Milliseconds since the epoch (fractional) as an Instant, to the nanosecond (a ManualClock's time). */
export function instantOf(millis: number): Instant {
  const whole = Math.floor(millis);
  const nanos = Math.round((millis - whole) * 1_000_000);
  return new Instant(BigInt(whole) * 1_000_000n + BigInt(nanos));
}

export type Value = string | number | bigint | boolean | Instant | Uint8Array | null;

/** A record: every field of its schema is present, null where an OPTIONAL field has no value. */
export type RecordValues = Record<string, Value>;

/** Which JavaScript representation a field type uses. */
export function representationOf(
  type: FieldType,
): 'string' | 'number' | 'bigint' | 'boolean' | 'instant' | 'bytes' {
  switch (type) {
    case 'STRING':
      return 'string';
    case 'BOOL':
      return 'boolean';
    case 'U64':
    case 'I64':
      return 'bigint';
    case 'DATETIME':
      return 'instant';
    case 'BYTES':
      return 'bytes';
    default:
      return 'number';
  }
}

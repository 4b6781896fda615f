// DATETIME as RFC 3339 UTC text on the subscription hot path: the same text as Instant#toRfc3339
// (`2026-11-22T03:08:00.123456789Z`, fraction trimmed of trailing zeros, none when whole) computed with
// number arithmetic (H. Hinnant's `civil_from_days`) instead of a Date and toISOString, which cost about
// ten times as much here. Years 0000–9999 (RFC 3339's range); outside it, Instant#toRfc3339 decides.
import type { Instant } from '../core/values.js';

const NANOS_PER_SECOND = 1_000_000_000n;
const NANOS_PER_SECOND_NUMBER = 1_000_000_000;
/** 0000-01-01T00:00:00Z and 10000-01-01T00:00:00Z in epoch seconds. */
const FIRST_SECOND = -62_167_219_200;
const END_SECOND = 253_402_300_800;

const PAD2 = Array.from({ length: 100 }, (_, n) => String(n).padStart(2, '0'));

export function rfc3339Text(instant: Instant): string {
  const epochNanos = instant.epochNanos;
  let nanosBig = epochNanos % NANOS_PER_SECOND;
  if (nanosBig < 0n) nanosBig += NANOS_PER_SECOND;
  // Exact: the division has no remainder once the fraction is taken off.
  const seconds = Number((epochNanos - nanosBig) / NANOS_PER_SECOND);
  if (seconds < FIRST_SECOND || seconds >= END_SECOND) return instant.toRfc3339();
  const days = Math.floor(seconds / 86_400);
  const ofDay = seconds - days * 86_400;
  const hour = Math.floor(ofDay / 3600);
  const minute = Math.floor((ofDay % 3600) / 60);
  const second = ofDay % 60;
  return `${civilDate(days)}T${PAD2[hour]}:${PAD2[minute]}:${PAD2[second]}${fraction(Number(nanosBig))}Z`;
}

/** `YYYY-MM-DD` of days since 1970-01-01 (proleptic Gregorian). */
function civilDate(daysSinceEpoch: number): string {
  const z = daysSinceEpoch + 719_468;
  const era = Math.floor(z / 146_097);
  const dayOfEra = z - era * 146_097;
  const yearOfEra = Math.floor(
    (dayOfEra -
      Math.floor(dayOfEra / 1460) +
      Math.floor(dayOfEra / 36_524) -
      Math.floor(dayOfEra / 146_096)) /
      365,
  );
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const shifted = Math.floor((5 * dayOfYear + 2) / 153);
  const day = dayOfYear - Math.floor((153 * shifted + 2) / 5) + 1;
  const month = shifted < 10 ? shifted + 3 : shifted - 9;
  const year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0);
  return `${String(year).padStart(4, '0')}-${PAD2[month]}-${PAD2[day]}`;
}

/** `.nnn…` without trailing zeros, or nothing for a whole second. */
function fraction(nanos: number): string {
  if (nanos === 0) return '';
  const digits = String(nanos + NANOS_PER_SECOND_NUMBER).slice(1);
  let end = 9;
  while (digits.charCodeAt(end - 1) === 48) end--;
  return `.${digits.slice(0, end)}`;
}

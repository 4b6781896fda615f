// RFC 3339 timestamps (section 5.6, `date-time`) into an Instant with nanosecond precision.
//
//   2026-11-22T03:08:00Z   2026-11-22t03:08:00.123456789+01:00   1985-04-12T23:20:50.52-04:00
//
// Decisions: the separator is `T` or `t` and the zone `Z`, `z` or `±hh:mm` (RFC 3339 has no other
// forms); fractions beyond nine digits are truncated to nanoseconds; a leap second (`:60`) is refused,
// since no record representation keeps it; years are 0000–9999 as the grammar says.
import { Instant } from './values.js';

const DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,64}))?(?:[Zz]|([+-])(\d{2}):(\d{2}))$/;

const NANOS_PER_SECOND = 1_000_000_000n;

/** The instant the text names, or undefined when it is not an RFC 3339 date-time. */
export function parseRfc3339(text: string): Instant | undefined {
  const match = DATE_TIME.exec(text);
  if (match === null) return undefined;
  const [, y, mo, d, h, mi, s, fraction, sign, oh, om] = match;
  const [year, month, day] = [Number(y), Number(mo), Number(d)];
  const [hour, minute, second] = [Number(h), Number(mi), Number(s)];
  const offsetMinutes = offsetOf(sign, Number(oh), Number(om));
  if (!validDate(year, month, day) || !validTime(hour, minute, second) || offsetMinutes === undefined) {
    return undefined;
  }
  const seconds =
    daysFromCivil(year, month, day) * 86_400 + hour * 3600 + minute * 60 + second - offsetMinutes * 60;
  const nanos = fraction === undefined ? 0n : BigInt(fraction.slice(0, 9).padEnd(9, '0'));
  return new Instant(BigInt(seconds) * NANOS_PER_SECOND + nanos);
}

function validDate(year: number, month: number, day: number): boolean {
  return month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(year, month);
}

function validTime(hour: number, minute: number, second: number): boolean {
  return hour <= 23 && minute <= 59 && second <= 59;
}

/** The zone's offset in minutes (0 for Z), or undefined when it is out of range. */
function offsetOf(sign: string | undefined, hours: number, minutes: number): number | undefined {
  if (sign === undefined) return 0;
  if (hours > 23 || minutes > 59) return undefined;
  return (sign === '-' ? -1 : 1) * (hours * 60 + minutes);
}

function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function daysInMonth(year: number, month: number): number {
  return month === 2 && isLeapYear(year) ? 29 : (DAYS_IN_MONTH[month - 1] ?? 0);
}

/** Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's `days_from_civil`). */
export function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yearOfEra = y - era * 400;
  const dayOfYear = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1;
  const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear;
  return era * 146_097 + dayOfEra - 719_468;
}

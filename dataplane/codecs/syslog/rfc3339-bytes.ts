// An RFC 3339 date-time read straight from the payload's bytes (the RFC 5424 TIMESTAMP, and the
// high-precision timestamps rsyslog and others put into RFC 3164 messages):
//
//   2003-10-11T22:14:15.003Z   2003-08-24T05:14:15.000003-07:00   2026-06-03t12:00:00.123456789z
//
// Decisions (docs/codecs-syslog.md): `t` and `z` in lower case are accepted (RFC 3339 §5.6 allows them;
// RFC 5424 asks senders for upper case); a fraction may have any number of digits, and digits past the
// ninth are truncated (RFC 5424 allows six; senders send nine and more); a leap second (`:60`, which
// RFC 5424 forbids) is not a timestamp. The text ends at SP or at the end of the payload.
import { daysFromCivil } from '../../core/rfc3339.js';
import { COLON, DASH, DOT, SP, digitRun, digits, fractionNanos, type SyslogScan } from './syslog-scan.js';

const T_UPPER = 0x54;
const T_LOWER = 0x74;
const Z_UPPER = 0x5a;
const Z_LOWER = 0x7a;
const PLUS = 0x2b;
/** `YYYY-MM-DDThh:mm:ssZ`, the shortest date-time. */
const SHORTEST = 20;
/** `YYYY-MM-DDThh:mm:ss`, the part before the fraction and the zone. */
const DATE_TIME = 19;

/**
 * The last valid `YYYY-MM-DDThh:mm:ss` read and its seconds: the messages of a stream mostly carry the
 * second of the one before, and comparing 19 bytes is cheaper than reading them (NaN: nothing kept yet,
 * and the zero bytes it is compared with never make a valid date-time).
 */
const lastDateTime = new Uint8Array(DATE_TIME);
let lastSeconds = Number.NaN;

/**
 * Reads a date-time at `at` that ends at SP or `end`; sets the scan's timestamp and returns the index
 * after it, or returns -1 when the text there is not a valid RFC 3339 date-time.
 */
export function readRfc3339(bytes: Uint8Array, at: number, end: number, scan: SyslogScan): number {
  if (at + SHORTEST > end) return -1;
  const seconds = cachedDateTimeSeconds(bytes, at);
  let i = at + DATE_TIME;
  let nanos = 0;
  if (bytes[i] === DOT) {
    const stop = digitRun(bytes, i + 1, end);
    nanos = stop === i + 1 ? Number.NaN : fractionNanos(bytes, i + 1, stop);
    i = stop;
  }
  const offsetMinutes = zoneOffset(bytes, i, end);
  const next = bytes[i] === Z_UPPER || bytes[i] === Z_LOWER ? i + 1 : i + 6;
  if (Number.isNaN(seconds + nanos + offsetMinutes) || (next < end && bytes[next] !== SP)) return -1;
  scan.setTimestamp(seconds - offsetMinutes * 60, nanos);
  return next;
}

/** dateTimeSeconds, through the last one read; compared from the end, where the seconds change. */
function cachedDateTimeSeconds(bytes: Uint8Array, at: number): number {
  let i = DATE_TIME - 1;
  while (i >= 0 && lastDateTime[i] === bytes[at + i]) i--;
  if (i < 0) return lastSeconds;
  const seconds = dateTimeSeconds(bytes, at);
  if (!Number.isNaN(seconds)) {
    for (let k = 0; k < DATE_TIME; k++) lastDateTime[k] = bytes[at + k] ?? 0;
    lastSeconds = seconds;
  }
  return seconds;
}

/** Epoch seconds of `YYYY-MM-DDThh:mm:ss` at `at` with the zone not applied, or NaN. */
function dateTimeSeconds(bytes: Uint8Array, at: number): number {
  const t = bytes[at + 10];
  if (bytes[at + 4] !== DASH || bytes[at + 7] !== DASH || (t !== T_UPPER && t !== T_LOWER)) return Number.NaN;
  if (bytes[at + 13] !== COLON || bytes[at + 16] !== COLON) return Number.NaN;
  const date = dateSeconds(digits(bytes, at, 4), digits(bytes, at + 5, 2), digits(bytes, at + 8, 2));
  return date + timeSeconds(digits(bytes, at + 11, 2), digits(bytes, at + 14, 2), digits(bytes, at + 17, 2));
}

/** Epoch seconds at the start of a day of the proleptic Gregorian calendar, or NaN for no such day. */
export function dateSeconds(year: number, month: number, day: number): number {
  if (year < 0 || month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return Number.NaN;
  return daysFromCivil(year, month, day) * 86_400;
}

/** Seconds into the day (digits read as -1 when missing), or NaN; a leap second is refused. */
export function timeSeconds(hour: number, minute: number, second: number): number {
  const valid = hour >= 0 && hour <= 23 && minute >= 0 && minute <= 59 && second >= 0 && second <= 59;
  return valid ? hour * 3600 + minute * 60 + second : Number.NaN;
}

/** The offset in minutes of `Z`, `z` (one byte) or `±hh:mm` (six bytes) at `at`, or NaN. */
function zoneOffset(bytes: Uint8Array, at: number, end: number): number {
  const sign = bytes[at];
  if (sign === Z_UPPER || sign === Z_LOWER) return 0;
  if ((sign !== PLUS && sign !== DASH) || at + 6 > end || bytes[at + 3] !== COLON) return Number.NaN;
  const minutes = timeSeconds(digits(bytes, at + 1, 2), digits(bytes, at + 4, 2), 0) / 60;
  return sign === DASH ? -minutes : minutes;
}

/** Days in a month of the proleptic Gregorian calendar. */
function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

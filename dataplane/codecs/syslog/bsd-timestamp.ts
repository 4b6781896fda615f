// The RFC 3164 TIMESTAMP, `Mmm dd hh:mm:ss` (§4.1.2), as real senders write it:
//
//   Jun  3 12:00:00             the RFC's form: the day padded with a space
//   Jun 03 12:00:00             the day padded with a zero, or `Jun 3` not padded
//   Mar  1 18:48:50.483 UTC:    Cisco IOS (`service timestamps log datetime msec show-timezone`)
//   Jun 03 2024 12:00:00:       Cisco ASA and IOS with the year before the time
//
// The year (docs/codecs-syslog.md, "RFC 3164"): the year is the receiving node's current year (UTC, from an
// injected clock) unless the sender wrote one, and the time is read as UTC. A zone name is skipped and never
// applied (names such as CST are ambiguous, and the time is read as UTC). A date that does not exist that
// year (Feb 29) is no timestamp.
import { dateSeconds, timeSeconds } from './rfc3339-bytes.js';
import { COLON, DOT, SP, digitRun, digits, fractionNanos, isDigit, type SyslogScan } from './syslog-scan.js';

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'].map(
  (name) => (name.charCodeAt(0) << 16) | (name.charCodeAt(1) << 8) | name.charCodeAt(2),
);
const PERCENT = 0x25;
const A_UPPER = 0x41;
const Z_UPPER = 0x5a;

/**
 * Reads a timestamp at `at`; sets the scan's timestamp and returns the index after it and its separator
 * (SP, or Cisco's `:`/` ZONE:` and SP), or returns -1. After a Cisco separator the byte at index - 2 (or,
 * at the end of the payload, index - 1) is `:`, and the caller expects no HOSTNAME.
 */
export function readBsdTimestamp(bytes: Uint8Array, at: number, end: number, scan: SyslogScan): number {
  const month = monthAt(bytes, at);
  if (month === 0) return -1;
  const dayAt = bytes[at + 4] === SP ? at + 5 : at + 4; // `Jun  3`: the day padded with a space
  const dayDigits = isDigit(bytes[dayAt + 1]) ? 2 : 1;
  let i = dayAt + dayDigits;
  const written = bytes[i + 5] === SP && bytes[i + 3] !== COLON; // `Mar  1 2024 18:48:50`
  const year = written ? digits(bytes, i + 1, 4) : scan.year.current();
  if (written) i += 5;
  const seconds = dateSeconds(year, month, digits(bytes, dayAt, dayDigits)) + timeOfDay(bytes, i);
  const fractionAt = i + 9;
  const fractionEnd = bytes[fractionAt] === DOT ? digitRun(bytes, fractionAt + 1, end) : fractionAt;
  const next = separator(bytes, fractionEnd, end);
  if (Number.isNaN(seconds) || next < 0) return -1;
  scan.setTimestamp(seconds, fractionNanos(bytes, fractionAt + 1, fractionEnd));
  return next;
}

/** Month 1–12 of `Mmm ` at `at`, or 0. */
function monthAt(bytes: Uint8Array, at: number): number {
  if (bytes[at + 3] !== SP) return 0;
  const key = ((bytes[at] ?? 0) << 16) | ((bytes[at + 1] ?? 0) << 8) | (bytes[at + 2] ?? 0);
  return MONTHS.indexOf(key) + 1;
}

/** Seconds into the day of ` hh:mm:ss` at `at` (its leading SP included), or NaN. */
function timeOfDay(bytes: Uint8Array, at: number): number {
  if (bytes[at] !== SP || bytes[at + 3] !== COLON || bytes[at + 6] !== COLON) return Number.NaN;
  return timeSeconds(digits(bytes, at + 1, 2), digits(bytes, at + 4, 2), digits(bytes, at + 7, 2));
}

/** What ends the timestamp at `at`: SP, `:` + SP, or Cisco's SP ZONE `:` SP before a `%` mnemonic. */
function separator(bytes: Uint8Array, at: number, end: number): number {
  if (at >= end) return end;
  if (bytes[at] === COLON) return at + 1 === end ? end : bytes[at + 1] === SP ? at + 2 : -1;
  if (bytes[at] !== SP) return -1;
  const zoneEnd = ciscoZoneEnd(bytes, at + 1, end);
  return zoneEnd < 0 ? at + 1 : zoneEnd;
}

/** The index after `ZONE: ` at `at` when a `%` mnemonic follows (3–5 capitals: UTC, CEST), or -1. */
function ciscoZoneEnd(bytes: Uint8Array, at: number, end: number): number {
  const zoneEnd = capitalRun(bytes, at, Math.min(end, at + 6));
  const length = zoneEnd - at;
  if (length < 3 || length > 5 || bytes[zoneEnd] !== COLON || bytes[zoneEnd + 1] !== SP) return -1;
  return bytes[zoneEnd + 2] === PERCENT ? zoneEnd + 2 : -1;
}

function capitalRun(bytes: Uint8Array, at: number, end: number): number {
  let i = at;
  while (i < end && (bytes[i] ?? 0) >= A_UPPER && (bytes[i] ?? 0) <= Z_UPPER) i++;
  return i;
}

// The RFC 3164 part of a frame, after its PRI (or from the first byte when there is none). RFC 3164
// describes what BSD senders did rather than a grammar, so every part is optional and whatever does not
// fit becomes MSG; an RFC 3164 frame never fails to decode (docs/codecs-syslog.md lists each rule):
//
//   [SEQ ": "] ["*" | "."] [TIMESTAMP SP] [HOSTNAME SP] [TAG ["[" PID "]"] ":" SP] MSG
//
//   SEQ        Cisco's sequence number, taken only before a timestamp, and dropped
//   "*" "."    Cisco's clock marks (not synchronised / synchronisation lost), dropped
//   TIMESTAMP  `Mmm dd hh:mm:ss` (bsd-timestamp.ts) or RFC 3339 (rsyslog's high-precision format)
//   HOSTNAME   only after a timestamp that ends with SP: one token of printable US-ASCII that has no
//              "[" or "]", does not end with ":" and is followed by SP
//   TAG        app_name: 1–48 printable US-ASCII characters other than ":", "[", "]", ending at "[" or ":"
//   PID        proc_id: 1–128 printable US-ASCII characters other than "]"; the ":" after it is optional
import { readBsdTimestamp } from './bsd-timestamp.js';
import { readRfc3339 } from './rfc3339-bytes.js';
import { skipBom } from './rfc5424.js';
import {
  APP_NAME,
  COLON,
  DOT,
  HOSTNAME,
  LBRACKET,
  PROC_ID,
  RBRACKET,
  SP,
  digitRun,
  isDigit,
  nextSpace,
  type SyslogScan,
} from './syslog-scan.js';

const STAR = 0x2a;
const MAX_HOSTNAME = 255;
const MAX_TAG = 48;
const MAX_PID = 128;

/** Scans from `at` to `end` and fills `scan`. */
export function scanRfc3164(bytes: Uint8Array, at: number, end: number, scan: SyslogScan): void {
  let i = timestamp(bytes, at, end, scan);
  if (i < 0) i = at;
  else if (bytes[i - 1] === SP && bytes[i - 2] !== COLON) i = hostname(bytes, i, end, scan);
  i = tag(bytes, i, end, scan);
  scan.msgStart = skipBom(bytes, i, end);
  scan.msgEnd = end;
}

/** A timestamp at `at`, after an optional Cisco sequence number and clock mark: the index after it, or -1. */
function timestamp(bytes: Uint8Array, at: number, end: number, scan: SyslogScan): number {
  let i = afterSequence(bytes, at, end);
  if (bytes[i] === STAR || bytes[i] === DOT) i++;
  if (!isDigit(bytes[i])) return readBsdTimestamp(bytes, i, end, scan);
  const next = readRfc3339(bytes, i, end, scan);
  return next < 0 || next === end ? next : next + 1;
}

/** The index after Cisco's `123: ` at `at`, or `at` (`2024-…` starts an RFC 3339 timestamp instead). */
function afterSequence(bytes: Uint8Array, at: number, end: number): number {
  const stop = digitRun(bytes, at, end);
  return stop > at && bytes[stop] === COLON && bytes[stop + 1] === SP ? stop + 2 : at;
}

/** HOSTNAME at `at` when the token there is one: the index after it and its SP, else `at`. */
function hostname(bytes: Uint8Array, at: number, end: number, scan: SyslogScan): number {
  const stop = nextSpace(bytes, at, end);
  if (stop === end || stop === at || stop - at > MAX_HOSTNAME || bytes[stop - 1] === COLON) return at;
  for (let i = at; i < stop; i++) {
    const byte = bytes[i] ?? 0;
    if (byte === LBRACKET || byte === RBRACKET || !isPrintable(byte)) return at;
  }
  scan.setText(HOSTNAME, at, stop);
  return stop + 1;
}

const NO_PID = -1;
const BAD_PID = -2;

/** TAG (and PID) at `at` when they are there: the index where MSG starts, else `at`. */
function tag(bytes: Uint8Array, at: number, end: number, scan: SyslogScan): number {
  const tagEnd = tagRun(bytes, at, end);
  if (tagEnd < 0) return at;
  const pidEnd = bytes[tagEnd] === LBRACKET ? pidClose(bytes, tagEnd + 1, end) : NO_PID;
  if (pidEnd === BAD_PID) return at;
  const msgAt =
    pidEnd === NO_PID ? tagClose(bytes, tagEnd, end, false) : tagClose(bytes, pidEnd + 1, end, true);
  if (msgAt < 0) return at;
  scan.setText(APP_NAME, at, tagEnd);
  if (pidEnd !== NO_PID) scan.setText(PROC_ID, tagEnd + 1, pidEnd);
  return msgAt;
}

/** What closes a TAG or its `[PID]` at `at`: `:` (optional after a PID), then SP or the end. MSG's start, or -1. */
function tagClose(bytes: Uint8Array, at: number, end: number, afterPid: boolean): number {
  let i = at;
  if (bytes[i] === COLON) i++;
  else if (!afterPid) return -1; // a TAG alone ends at ":"
  if (i >= end) return end;
  return bytes[i] === SP ? i + 1 : -1;
}

/** The index after a TAG's characters at `at`, or -1 when there are none or too many. */
function tagRun(bytes: Uint8Array, at: number, end: number): number {
  let i = at;
  while (i < end && i - at <= MAX_TAG && isTagByte(bytes[i] ?? 0)) i++;
  return i === at || i - at > MAX_TAG ? -1 : i;
}

/** The index of the "]" that closes a PID starting at `at`, or BAD_PID. */
function pidClose(bytes: Uint8Array, at: number, end: number): number {
  let i = at;
  while (i < end && i - at <= MAX_PID && bytes[i] !== RBRACKET) {
    if (!isPrintable(bytes[i] ?? 0)) return BAD_PID;
    i++;
  }
  return i === at || i >= end || i - at > MAX_PID ? BAD_PID : i;
}

/** Printable US-ASCII (33–126), the characters of RFC 5424 header fields. */
function isPrintable(byte: number): boolean {
  return byte > SP && byte < 0x7f;
}

/** Printable US-ASCII other than ":", "[" and "]". */
function isTagByte(byte: number): boolean {
  return isPrintable(byte) && byte !== COLON && byte !== LBRACKET && byte !== RBRACKET;
}

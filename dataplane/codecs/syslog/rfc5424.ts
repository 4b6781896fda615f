// The RFC 5424 part of a frame, after `<PRI>1 ` (§6):
//
//   TIMESTAMP SP HOSTNAME SP APP-NAME SP PROCID SP MSGID SP STRUCTURED-DATA [SP MSG]
//
// A frame that announces version 1 is held to the grammar: a bad TIMESTAMP, a header field with a byte
// outside printable US-ASCII or over its length, a header cut short, or malformed structured data is a
// message error (SR3021–SR3024). Two sender habits are accepted (docs/codecs-syslog.md): no
// STRUCTURED-DATA at all (MSG follows MSGID's SP directly), and a UTF-8 BOM before MSG (dropped).
import type { SyslogField } from '../../graph/types.js';
import { messageError, type MessageError } from '../../core/errors.js';
import { readRfc3339 } from './rfc3339-bytes.js';
import type { StructuredDataScanner } from './structured-data.js';
import {
  APP_NAME,
  DASH,
  HOSTNAME,
  LBRACKET,
  MSG_ID,
  PROC_ID,
  SP,
  STRUCTURED_DATA,
  type SyslogScan,
} from './syslog-scan.js';

/**
 * RFC 5424's length limits of the header fields after TIMESTAMP (§6.2.4–§6.2.7), by syslog field name in
 * header order; the decoder and the encoder (encode-rfc5424.ts) both hold fields to them.
 */
export const RFC5424_HEADER_MAX = {
  hostname: 255,
  app_name: 48,
  proc_id: 128,
  msg_id: 32,
} as const satisfies Partial<Record<SyslogField, number>>;

/** The header fields after TIMESTAMP, as the grammar names them. */
const HEADER_FIELDS = [
  { field: HOSTNAME, key: 'hostname', name: 'HOSTNAME', max: RFC5424_HEADER_MAX.hostname },
  { field: APP_NAME, key: 'app_name', name: 'APP-NAME', max: RFC5424_HEADER_MAX.app_name },
  { field: PROC_ID, key: 'proc_id', name: 'PROCID', max: RFC5424_HEADER_MAX.proc_id },
  { field: MSG_ID, key: 'msg_id', name: 'MSGID', max: RFC5424_HEADER_MAX.msg_id },
] as const;

const BOM = [0xef, 0xbb, 0xbf] as const;

type Parts = { scan: SyslogScan; sd: StructuredDataScanner };

/** Scans from `at` (after `<PRI>1 `) to `end`; fills `scan`, or returns the message error. */
export function scanRfc5424(
  bytes: Uint8Array,
  at: number,
  end: number,
  parts: Parts,
): MessageError | undefined {
  const { scan } = parts;
  scan.rfc5424 = true;
  const afterTimestamp = isNil(bytes, at, end) ? at + 1 : readRfc3339(bytes, at, end, scan);
  if (afterTimestamp < 0) {
    return messageError('SR3022', `RFC 5424 TIMESTAMP at byte ${at} is neither - nor an RFC 3339 date-time`, {
      field: 'timestamp',
      at: `byte ${at}`,
    });
  }
  const afterHeader = headerFields(bytes, afterTimestamp, end, scan);
  if (typeof afterHeader !== 'number') return afterHeader;
  let i = afterHeader;
  if (i >= end) return undefined; // no STRUCTURED-DATA and no MSG: null and empty
  const sdAt = i + 1;
  if (bytes[sdAt] === LBRACKET || isNil(bytes, sdAt, end)) {
    i = structuredData(bytes, sdAt, end, parts);
    if (i < 0) return sdError(parts.sd);
    if (i < end) i++; // the SP before MSG
  } else {
    i = sdAt; // STRUCTURED-DATA missing: MSG follows MSGID's SP
  }
  scan.msgStart = skipBom(bytes, i, end);
  scan.msgEnd = end;
  return undefined;
}

/** HOSTNAME to MSGID, each after an SP at `at`: the index after MSGID, or the message error. */
function headerFields(bytes: Uint8Array, at: number, end: number, scan: SyslogScan): number | MessageError {
  let i = at;
  for (const header of HEADER_FIELDS) {
    if (i >= end) return messageError('SR3021', `the RFC 5424 header ends before ${header.name}`);
    const start = i + 1;
    i = fieldEnd(bytes, start, end, header.max);
    if (i < 0) return fieldError(header, -i - 1);
    if (i - start !== 1 || bytes[start] !== DASH) scan.setText(header.field, start, i);
  }
  return i;
}

/**
 * The end (SP or `end`) of a header field at `at`, or -(offset + 1) of the first byte that breaks the
 * rule (the offset of the field when it is empty or too long).
 */
function fieldEnd(bytes: Uint8Array, at: number, end: number, max: number): number {
  let i = at;
  for (; i < end; i++) {
    const byte = bytes[i] ?? 0;
    if (byte === SP) break;
    if (byte < 33 || byte > 126) return -i - 1;
  }
  return i === at || i - at > max ? -at - 1 : i;
}

function fieldError(header: (typeof HEADER_FIELDS)[number], offset: number): MessageError {
  return messageError(
    'SR3023',
    `RFC 5424 ${header.name} at byte ${offset} must be - or 1–${header.max} printable US-ASCII characters (33–126)`,
    { field: header.key, at: `byte ${offset}` },
  );
}

function sdError(sd: StructuredDataScanner): MessageError {
  return messageError('SR3024', `RFC 5424 STRUCTURED-DATA is malformed at byte ${sd.at}: ${sd.problem}`, {
    field: 'structured_data',
    at: `byte ${sd.at}`,
  });
}

/** STRUCTURED-DATA at `at`, `-` or elements: returns the index after it (SP or the end), or -1. */
function structuredData(bytes: Uint8Array, at: number, end: number, parts: Parts): number {
  if (isNil(bytes, at, end)) return at + 1;
  const next = parts.sd.scan(bytes, at, end);
  if (next < 0) return -1;
  if (next < end && bytes[next] !== SP) {
    parts.sd.problem = 'an SD-ELEMENT must be followed by SP, "[" or the end of the message';
    parts.sd.at = next;
    return -1;
  }
  parts.scan.setText(STRUCTURED_DATA, at, next);
  return next;
}

/** Whether a lone `-` (NILVALUE) stands at `at`. */
function isNil(bytes: Uint8Array, at: number, end: number): boolean {
  return bytes[at] === DASH && (at + 1 === end || bytes[at + 1] === SP);
}

/** The index after a UTF-8 byte-order mark at `at`, or `at`. */
export function skipBom(bytes: Uint8Array, at: number, end: number): number {
  return at + 2 < end && bytes[at] === BOM[0] && bytes[at + 1] === BOM[1] && bytes[at + 2] === BOM[2]
    ? at + 3
    : at;
}

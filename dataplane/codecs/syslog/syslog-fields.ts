// How each field of the predefined SYSLOG wire schema (docs/codecs-syslog.md, "Fields") is read from a
// scanned frame. The shapes (SYSLOG_FIELD_SHAPES, in the Graph contract) are checked by the operator when
// CREATE CODEC runs (operator/compiler/check-syslog-schema.ts, SR2011) and again by the data plane on load,
// because it refuses a graph it cannot run.
//
// Text comes out of the payload without a copy or a view: the codec has checked the whole payload as
// UTF-8 already (isUtf8), so MSG and STRUCTURED-DATA are read with Buffer's own non-validating UTF-8 slice
// rather than a fatal TextDecoder (which would check the bytes a second time, at about twice the cost),
// and the printable US-ASCII header fields through a small cache of the values last seen (ascii-cache.ts).
import type { SyslogField } from '../../graph/types.js';
import { Instant, type Value } from '../../core/values.js';
import { AsciiCache } from './ascii-cache.js';
import {
  APP_NAME,
  HOSTNAME,
  MSG_ID,
  NO_TEXT,
  PROC_ID,
  STRUCTURED_DATA,
  type SyslogScan,
} from './syslog-scan.js';

export type FieldReader = (bytes: Uint8Array, scan: SyslogScan) => Value;

const NANOS_PER_SECOND = 1_000_000_000n;

/** Buffer's UTF-8 slice (Node's own, untyped in @types/node); it takes any Uint8Array as `this`. */
const { utf8Slice } = Buffer.prototype as unknown as {
  utf8Slice: (this: Uint8Array, start: number, end: number) => string;
};

export const FIELD_READERS: Record<SyslogField, FieldReader> = {
  facility: (_, scan) => scan.priority >> 3,
  severity: (_, scan) => scan.priority & 7,
  timestamp: (_, scan) => (scan.hasTimestamp ? new Instant(instantNanos(scan.seconds, scan.nanos)) : null),
  hostname: asciiField(HOSTNAME),
  app_name: asciiField(APP_NAME),
  proc_id: asciiField(PROC_ID),
  msg_id: asciiField(MSG_ID),
  structured_data: (bytes, scan) => {
    const start = scan.starts[STRUCTURED_DATA] ?? NO_TEXT;
    return start === NO_TEXT ? null : utf8Slice.call(bytes, start, scan.ends[STRUCTURED_DATA] ?? start);
  },
  message: (bytes, scan) =>
    scan.msgStart === scan.msgEnd ? '' : utf8Slice.call(bytes, scan.msgStart, scan.msgEnd),
};

/** Epoch nanoseconds of a timestamp (one bigint operation fewer for a whole second). */
function instantNanos(seconds: number, nanos: number): bigint {
  const base = secondNanos(seconds);
  return nanos === 0 ? base : base + BigInt(nanos);
}

/** The second converted last: frames in a stream mostly share their second with the one before. */
let cachedSecond = 0;
let cachedNanos = 0n;

/** Epoch nanoseconds at the start of an epoch second. */
function secondNanos(seconds: number): bigint {
  if (seconds !== cachedSecond) {
    cachedNanos = BigInt(seconds) * NANOS_PER_SECOND;
    cachedSecond = seconds;
  }
  return cachedNanos;
}

/** A header field: printable US-ASCII by the time the parsers set it (RFC 5424 and our RFC 3164 rules). */
function asciiField(field: number): FieldReader {
  const cache = new AsciiCache();
  return (bytes, scan) => {
    const start = scan.starts[field] ?? NO_TEXT;
    return start === NO_TEXT ? null : cache.text(bytes, start, scan.ends[field] ?? start);
  };
}

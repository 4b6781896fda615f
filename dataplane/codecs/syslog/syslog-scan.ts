// What one pass over a syslog frame found, as byte offsets into the payload: the parsers fill it, the
// codec then turns into text only the pieces its schema keeps (docs/codecs-syslog.md, "Fields": undeclared
// fields are parsed and discarded). One instance per codec is reused for every frame, so a frame allocates
// nothing until its record is built.

/** Bytes the parsers compare against. */
export const SP = 0x20;
export const LT = 0x3c;
export const GT = 0x3e;
export const COLON = 0x3a;
export const DASH = 0x2d;
export const LBRACKET = 0x5b;
export const RBRACKET = 0x5d;
export const DOT = 0x2e;
export const DIGIT_0 = 0x30;
export const DIGIT_9 = 0x39;

/**
 * Priority when the PRI is absent or unparseable (docs/codecs-syslog.md, "Decoding"): facility 1 (user),
 * severity 5.
 */
export const DEFAULT_PRIORITY = 13;

/** The optional text fields, as indexes into SyslogScan's `starts` and `ends`. */
export const HOSTNAME = 0;
export const APP_NAME = 1;
export const PROC_ID = 2;
export const MSG_ID = 3;
export const STRUCTURED_DATA = 4;
const TEXT_FIELDS = 5;

/** `starts[field]` of a field that is null (RFC 5424 NILVALUE, or absent from an RFC 3164 message). */
export const NO_TEXT = -1;

/** The receiving node's current year, for RFC 3164 timestamps (docs/codecs-syslog.md, "RFC 3164"). */
export interface CurrentYear {
  current(): number;
}

export class SyslogScan {
  priority = DEFAULT_PRIORITY;
  /** Whether the frame was RFC 5424. */
  rfc5424 = false;
  /** The timestamp as epoch seconds plus nanoseconds; meaningful only when `hasTimestamp`. */
  hasTimestamp = false;
  seconds = 0;
  nanos = 0;
  /** `[starts[f], ends[f])` in the payload holds text field f, or `starts[f]` is NO_TEXT. */
  readonly starts = new Int32Array(TEXT_FIELDS);
  readonly ends = new Int32Array(TEXT_FIELDS);
  /**
   * MSG is never null: at least the empty range at the end of the payload (docs/codecs-syslog.md,
   * "Fields").
   */
  msgStart = 0;
  msgEnd = 0;

  constructor(readonly year: CurrentYear) {}

  reset(end: number): void {
    this.priority = DEFAULT_PRIORITY;
    this.rfc5424 = false;
    this.hasTimestamp = false;
    this.starts.fill(NO_TEXT);
    this.msgStart = end;
    this.msgEnd = end;
  }

  setText(field: number, start: number, end: number): void {
    this.starts[field] = start;
    this.ends[field] = end;
  }

  setTimestamp(seconds: number, nanos: number): void {
    this.hasTimestamp = true;
    this.seconds = seconds;
    this.nanos = nanos;
  }
}

export function isDigit(byte: number | undefined): boolean {
  return byte !== undefined && byte >= DIGIT_0 && byte <= DIGIT_9;
}

/** The value of `count` ASCII digits at `at`, or -1 when one of them is not a digit. */
export function digits(bytes: Uint8Array, at: number, count: number): number {
  let value = 0;
  for (let i = at; i < at + count; i++) {
    const byte = bytes[i];
    if (byte === undefined || byte < DIGIT_0 || byte > DIGIT_9) return -1;
    value = value * 10 + byte - DIGIT_0;
  }
  return value;
}

/** The index after the run of digits that starts at `at` (`at` when there is none). */
export function digitRun(bytes: Uint8Array, at: number, end: number): number {
  let i = at;
  while (i < end && isDigit(bytes[i])) i++;
  return i;
}

const SCALE = [1, 1e8, 1e7, 1e6, 1e5, 1e4, 1e3, 100, 10, 1];

/** Nanoseconds of the fraction digits `[start, stop)`: the first nine, padded with zeros (none is 0). */
export function fractionNanos(bytes: Uint8Array, start: number, stop: number): number {
  const count = Math.min(stop - start, 9);
  return count <= 0 ? 0 : digits(bytes, start, count) * (SCALE[count] ?? 1);
}

/** Index of the first SP at or after `from`, or `end`. */
export function nextSpace(bytes: Uint8Array, from: number, end: number): number {
  let i = from;
  while (i < end && bytes[i] !== SP) i++;
  return i;
}

// A record as an RFC 5424 version 1 message without a byte-order mark (docs/codecs-syslog.md, "Encoding"):
//
//   <PRI>1 TIMESTAMP HOSTNAME APP-NAME PROCID MSGID STRUCTURED-DATA[ MSG]
//
// A null or undeclared optional field is `-`; MSG and the SP before it are left out when the message is
// empty (RFC 5424 makes MSG optional, and the decoder reads both as ""). Everything RFC 5424 would not
// carry is a message error SR3008 whose reason names the field and the rule, never the value: facility
// above 23, severity above 7, a header field empty, over its length or outside printable US-ASCII,
// structured data that is neither `-` nor well-formed elements, text with a lone UTF-16 surrogate, a
// timestamp outside the years 0000–9999, and a message that starts with U+FEFF (it would be read as the
// BOM that our output never has, and dropped on decoding).
import type { SyslogField } from '../../graph/types.js';
import { messageError } from '../../core/errors.js';
import { Instant, type RecordValues, type Value } from '../../core/values.js';
import type { EncodeResult } from '../codec.js';
import { isWellFormed } from '../well-formed-text.js';
import { RFC5424_HEADER_MAX } from './rfc5424.js';
import { StructuredDataScanner } from './structured-data.js';
import { timestampText } from './timestamp-text.js';

const LBRACKET = 0x5b;

/** Why a record does not encode: names the field and the rule, never the value. */
class Refusal {
  constructor(readonly reason: string) {}
}

export class Rfc5424Encoder {
  private readonly sd = new StructuredDataScanner();
  private readonly headerFields: { name: string; max: number; declared: boolean }[];
  private readonly hasTimestamp: boolean;
  private readonly hasStructuredData: boolean;

  constructor(declared: ReadonlySet<SyslogField>) {
    // The header fields after TIMESTAMP, in order, with RFC 5424's length limits.
    this.headerFields = Object.entries(RFC5424_HEADER_MAX).map(([name, max]) => ({
      name,
      max,
      declared: declared.has(name as SyslogField),
    }));
    this.hasTimestamp = declared.has('timestamp');
    this.hasStructuredData = declared.has('structured_data');
  }

  encode(record: Readonly<RecordValues>): EncodeResult {
    const header = this.header(record);
    if (header instanceof Refusal) return failure(header.reason);
    const message = messageText(record.message ?? null);
    if (message instanceof Refusal) return failure(message.reason);
    const sd = this.hasStructuredData ? (record.structured_data ?? null) : null;
    if (sd === null || sd === '-') return { bytes: Buffer.from(withMessage(`${header} -`, message), 'utf8') };
    if (typeof sd !== 'string') return failure('structured_data must be text');
    const bytes = Buffer.from(withMessage(`${header} ${sd}`, message), 'utf8');
    const problem = this.sdProblem(sd, bytes, header.length + 1);
    return problem === undefined ? { bytes } : failure(`structured_data ${problem}`);
  }

  /** `<PRI>1 TIMESTAMP HOSTNAME APP-NAME PROCID MSGID`, all printable US-ASCII. */
  private header(record: Readonly<RecordValues>): string | Refusal {
    const pri = priority(record.facility ?? null, record.severity ?? null);
    if (pri instanceof Refusal) return pri;
    const timestamp = this.timestamp(record);
    if (timestamp === undefined) return new Refusal('timestamp is outside the years 0000–9999 of RFC 3339');
    let header = `<${pri}>1 ${timestamp}`;
    for (const { name, max, declared } of this.headerFields) {
      const text = declared ? (record[name] ?? null) : null;
      const problem = headerProblem(text, max);
      if (problem !== undefined) return new Refusal(`${name} ${problem}`);
      header += text === null ? ' -' : ` ${text as string}`;
    }
    return header;
  }

  /** TIMESTAMP: `-` for null or undeclared, the text, or undefined when the year has none. */
  private timestamp(record: Readonly<RecordValues>): string | undefined {
    const value = this.hasTimestamp ? (record.timestamp ?? null) : null;
    return value instanceof Instant ? timestampText(value) : '-';
  }

  /** Checks the structured data where it was written, at `at` in the output bytes. */
  private sdProblem(sd: string, bytes: Uint8Array, at: number): string | undefined {
    if (!isWellFormed(sd)) return 'must be text without lone UTF-16 surrogates';
    const end = at + Buffer.byteLength(sd, 'utf8');
    if (bytes[at] !== LBRACKET) return 'must be - or RFC 5424 SD-ELEMENTs, each starting with "["';
    const stop = this.sd.scan(bytes, at, end);
    if (stop < 0) return `is malformed at byte ${this.sd.at - at}: ${this.sd.problem}`;
    return stop === end ? undefined : 'has text after its last SD-ELEMENT';
  }
}

/** The message after SD and an SP; nothing for an empty message (MSG is optional in RFC 5424). */
function withMessage(text: string, message: string): string {
  return message === '' ? text : `${text} ${message}`;
}

/** MSG's text, or why it cannot be written. */
function messageText(message: Value): string | Refusal {
  if (typeof message !== 'string' || !isWellFormed(message)) {
    return new Refusal('message must be text without lone UTF-16 surrogates');
  }
  if (message.charCodeAt(0) === 0xfeff) {
    return new Refusal('message must not start with U+FEFF, which reads as a byte-order mark');
  }
  return message;
}

/** PRI of facility and severity, or what is wrong with them. */
function priority(facility: Value, severity: Value): number | Refusal {
  if (!isIntegerIn(facility, 23))
    return new Refusal('facility must be an integer of 0–23 (RFC 5424 facilities)');
  if (!isIntegerIn(severity, 7))
    return new Refusal('severity must be an integer of 0–7 (RFC 5424 severities)');
  return facility * 8 + severity;
}

function isIntegerIn(value: Value, max: number): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= max;
}

/** What keeps a header value from RFC 5424 (1 to `max` printable US-ASCII characters), if anything. */
function headerProblem(value: Value, max: number): string | undefined {
  if (value === null) return undefined;
  if (typeof value !== 'string') return 'must be text';
  if (value.length === 0 || value.length > max) return `must have 1–${max} characters (RFC 5424)`;
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if (code < 33 || code > 126) return 'must be printable US-ASCII (33–126), as RFC 5424 requires';
  }
  return undefined;
}

function failure(reason: string): EncodeResult {
  return { error: messageError('SR3008', reason) };
}

// The SYSLOG codec (docs/codecs-syslog.md): `CREATE CODEC c FROM SYSLOG TO SCHEMA s`. One frame is one record
// of the schema, which declares any subset of the syslog fields; RFC 5424 or RFC 3164 is detected per frame,
// and records encode as RFC 5424 version 1. Every rule and decision: docs/codecs-syslog.md.
//
// This is the data plane's hottest decoder, so it reads bytes, not text: one walk over the payload fills
// a reused SyslogScan with offsets, UTF-8 is validated once for the whole payload, only the pieces the
// schema keeps become strings (sliced by offsets, no views), and the record is one object literal made for
// the schema (runtime/record-literal.ts), so every record of a codec has the same hidden class.
import { isUtf8 } from 'node:buffer';
import {
  SYSLOG_FIELD_SHAPES,
  type GraphCodec,
  type GraphSchema,
  type SyslogField,
} from '../../graph/types.js';
import { messageError } from '../../core/errors.js';
import { readingLiteral } from '../../core/record-literal.js';
import type { RecordValues } from '../../core/values.js';
import type { Codec, CodecFactory, DecodeResult, EncodeResult } from '../codec.js';
import { Rfc5424Encoder } from './encode-rfc5424.js';
import { FIELD_READERS } from './syslog-fields.js';
import { FrameScanner, UtcYear } from './syslog-frame.js';
import type { SyslogScan } from './syslog-scan.js';

type SyslogGraphCodec = Extract<GraphCodec, { kind: 'syslog' }>;

export interface SyslogCodecOptions {
  /** Wall-clock epoch milliseconds; RFC 3164 timestamps take its UTC year. Default `Date.now`. */
  now?: () => number;
}

export const createSyslogCodec: CodecFactory<'syslog'> = (codec, schema) =>
  createSyslogCodecWith(codec, schema, {});

/** The factory with its options (tests inject the clock). */
export function createSyslogCodecWith(
  codec: SyslogGraphCodec,
  schema: GraphSchema,
  options: SyslogCodecOptions,
): Codec | { unsupported: string } {
  const declared = new Set<SyslogField>(codec.fields);
  for (const field of schema.fields) {
    const shape = (SYSLOG_FIELD_SHAPES as Partial<Record<string, (typeof SYSLOG_FIELD_SHAPES)[SyslogField]>>)[
      field.name
    ];
    if (shape === undefined || !declared.has(field.name as SyslogField)) {
      return { unsupported: `SYSLOG codec: schema field ${field.name} is not a syslog field of the codec` };
    }
    if (shape.type !== field.type || shape.optional !== field.optional) {
      return {
        unsupported: `SYSLOG codec: schema field ${field.name} does not have its SYSLOG shape (docs/codecs-syslog.md)`,
      };
    }
  }
  const missing = (['facility', 'severity', 'message'] as const).filter((name) => !declared.has(name));
  if (codec.canEncode && missing.length > 0) {
    return { unsupported: `SYSLOG codec cannot encode without ${missing.join(', ')}` };
  }
  return new SyslogCodec(schema, codec.canEncode, options);
}

/** Bytes removed from the end of a frame before anything else (docs/codecs-syslog.md, "Decoding", step 1). */
const CR = 0x0d;
const LF = 0x0a;
const NUL = 0x00;

class SyslogCodec implements Codec {
  readonly kind = 'syslog' as const;
  readonly encode?: (record: Readonly<RecordValues>) => EncodeResult;
  private readonly frame: FrameScanner;
  private readonly record: (bytes: Uint8Array, scan: SyslogScan) => RecordValues;

  constructor(
    readonly schema: GraphSchema,
    canEncode: boolean,
    options: SyslogCodecOptions,
  ) {
    this.frame = new FrameScanner(new UtcYear(options.now ?? Date.now));
    const names = schema.fields.map((field) => field.name as SyslogField);
    this.record = readingLiteral(
      names,
      names.map((name) => FIELD_READERS[name]),
    );
    if (canEncode) {
      const encoder = new Rfc5424Encoder(new Set(names));
      this.encode = (record) => encoder.encode(record);
    }
  }

  decode(payload: Uint8Array): DecodeResult {
    let end = payload.length;
    while (end > 0 && isTrailing(payload[end - 1] ?? 0)) end--;
    if (end === 0) {
      return {
        error: messageError('SR3020', 'the syslog payload is empty once trailing CR, LF and NUL are removed'),
      };
    }
    // The trailing bytes are ASCII, so the payload is valid UTF-8 exactly when `[0, end)` is: no view needed.
    if (!isUtf8(payload)) return { error: messageError('SR3001', 'the syslog payload is not valid UTF-8') };
    const error = this.frame.read(payload, end);
    if (error !== undefined) return { error };
    return { records: [this.record(payload, this.frame.scan)] };
  }
}

function isTrailing(byte: number): boolean {
  return byte === LF || byte === CR || byte === NUL;
}

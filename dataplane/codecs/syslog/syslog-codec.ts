// The SYSLOG codec (spec §2.9): `CREATE CODEC c FROM SYSLOG TO SCHEMA s`. One frame is one record of the
// schema, which declares any subset of the syslog fields; RFC 5424 or RFC 3164 is detected per frame, and
// records encode as RFC 5424 version 1. Every rule and decision: docs/codecs-syslog.md.
//
// This is the data plane's hottest decoder, so it reads bytes, not text: one walk over the payload fills
// a reused SyslogScan with offsets, UTF-8 is validated once for the whole payload, and only the pieces
// the schema keeps become strings.
import { isUtf8 } from 'node:buffer';
import {
  SYSLOG_FIELD_SHAPES,
  type GraphCodec,
  type GraphSchema,
  type SyslogField,
} from '../../graph/types.js';
import { messageError } from '../../runtime/errors.js';
import type { RecordValues } from '../../runtime/values.js';
import type { Codec, CodecFactory, DecodeResult, EncodeResult } from '../codec.js';
import { Rfc5424Encoder } from './encode-rfc5424.js';
import { FIELD_READERS, type FieldReader } from './syslog-fields.js';
import { FrameScanner, UtcYear } from './syslog-frame.js';

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
      return { unsupported: `SYSLOG codec: schema field ${field.name} does not have the shape of spec §2.9` };
    }
  }
  const missing = (['facility', 'severity', 'message'] as const).filter((name) => !declared.has(name));
  if (codec.canEncode && missing.length > 0) {
    return { unsupported: `SYSLOG codec cannot encode without ${missing.join(', ')}` };
  }
  return new SyslogCodec(schema, codec.canEncode, options);
}

/** Bytes removed from the end of a frame before anything else (spec §2.9 rule 2). */
const CR = 0x0d;
const LF = 0x0a;
const NUL = 0x00;

class SyslogCodec implements Codec {
  readonly kind = 'syslog' as const;
  readonly encode?: (record: Readonly<RecordValues>) => EncodeResult;
  private readonly frame: FrameScanner;
  private readonly names: string[];
  private readonly readers: FieldReader[];

  constructor(
    readonly schema: GraphSchema,
    canEncode: boolean,
    options: SyslogCodecOptions,
  ) {
    this.frame = new FrameScanner(new UtcYear(options.now ?? Date.now));
    this.names = schema.fields.map((field) => field.name);
    this.readers = schema.fields.map((field) => FIELD_READERS[field.name as SyslogField]);
    if (canEncode) {
      const encoder = new Rfc5424Encoder(new Set(this.names as SyslogField[]));
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
    const bytes = end === payload.length ? payload : payload.subarray(0, end);
    if (!isUtf8(bytes)) return { error: messageError('SR3001', 'the syslog payload is not valid UTF-8') };
    const error = this.frame.read(bytes, end);
    if (error !== undefined) return { error };
    const scan = this.frame.scan;
    const record: RecordValues = {};
    for (let i = 0; i < this.names.length; i++) {
      record[this.names[i] ?? ''] = (this.readers[i] as FieldReader)(bytes, scan);
    }
    return { records: [record] };
  }
}

function isTrailing(byte: number): boolean {
  return byte === LF || byte === CR || byte === NUL;
}

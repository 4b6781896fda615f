// The codec contract every codec implements: the JSON wire-schema codec, the JAQ codecs (JSON, YAML, TOML,
// XML, CBOR), protobuf and SYSLOG (docs/codecs.md). A codec kind runs once its factory is in
// CODEC_FACTORIES.
//
// A codec turns one payload (one POST body, one syslog frame) into records of its schema, or into ONE
// message error for the whole payload (docs/codecs.md, "JAQ codecs": a body is accepted or rejected as a
// whole). A codec may answer synchronously or with a promise (a JAQ program in WebAssembly, say); it never
// throws for bad input. Records it returns conform to its schema: every field present, null only where
// OPTIONAL, values in the representation of values.ts. Reasons name the graph's keys and fields, types and
// positions, never payload values or keys (core/errors.ts).
import type { GraphCodec, GraphSchema } from '../graph/types.js';
import type { MessageError } from '../core/errors.js';
import type { RecordValues } from '../core/values.js';
import { createJaqCodec } from './jaq/jaq-codec.js';
import { createProtobufCodec } from './protobuf/protobuf-codec.js';
import { createSyslogCodec } from './syslog/syslog-codec.js';
import { createWireJsonCodec } from './wire-json.js';

export type DecodeResult = { records: RecordValues[] } | { error: MessageError };
export type EncodeResult = { bytes: Uint8Array } | { error: MessageError };

export interface Codec {
  readonly kind: GraphCodec['kind'];
  /** Schema of the records the codec produces and encodes. */
  readonly schema: GraphSchema;
  decode(payload: Uint8Array): DecodeResult | Promise<DecodeResult>;
  /** Present only when the codec can encode (`canEncode` in the Graph). */
  encode?(record: Readonly<RecordValues>): EncodeResult | Promise<EncodeResult>;
}

/** Builds a codec from its Graph entry, or says why it cannot (a graph with it is refused). */
export type CodecFactory<K extends GraphCodec['kind']> = (
  codec: Extract<GraphCodec, { kind: K }>,
  schema: GraphSchema,
) => Codec | { unsupported: string };

type Factories = { [K in GraphCodec['kind']]?: CodecFactory<K> };

/** The codecs this data plane can run; a kind missing here is refused with a clear message. */
export const CODEC_FACTORIES: Factories = {
  'wire-json': createWireJsonCodec,
  jaq: createJaqCodec,
  protobuf: createProtobufCodec,
  syslog: createSyslogCodec,
};

export type CreateCodecResult = { ok: true; codec: Codec } | { ok: false; error: string };

export function createCodec(codec: GraphCodec, schema: GraphSchema): CreateCodecResult {
  const factory = CODEC_FACTORIES[codec.kind] as CodecFactory<typeof codec.kind> | undefined;
  if (factory === undefined) {
    return { ok: false, error: `codec kind ${codec.kind} is not supported by this data plane yet` };
  }
  const made = factory(codec, schema);
  return 'unsupported' in made ? { ok: false, error: made.unsupported } : { ok: true, codec: made };
}

/** Whether a decode result is a message error (for callers that branch on it). */
export function isDecodeError(result: DecodeResult): result is { error: MessageError } {
  return 'error' in result;
}

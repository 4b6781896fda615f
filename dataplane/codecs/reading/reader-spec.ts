// What a codec reads off the event loop (docs/codec-formats.md, "Large payloads are read off the event
// loop"): a payload format's JSON view, a protobuf message's JSON view, or the records of the JSON wire
// schema. A view read here is JSON text, for jq-wasm: a compiled JAQ program reads values only from
// payloads read on the event loop (decision 0028). A spec is plain data, so a worker thread can build the same reader from it.
import type { GraphCodec, GraphSchema, JaqFormat, ProtobufDescriptor } from '../../graph/types.js';
import type { MessageError } from '../../core/errors.js';
import type { RecordValues } from '../../core/values.js';

export type ReaderSpec =
  | { kind: 'format'; format: JaqFormat }
  | { kind: 'protobuf'; descriptor: ProtobufDescriptor; message: string }
  | { kind: 'wire-json'; codec: Extract<GraphCodec, { kind: 'wire-json' }>; schema: GraphSchema };

/** A JSON view's inputs for the ON INGESTION program, or the records of the JSON wire schema. */
export type ViewRead = { inputs: string[] } | { error: MessageError };
export type RecordsRead = { records: RecordValues[] } | { error: MessageError };
export type ReadReply = ViewRead | RecordsRead;

/** One codec's reader: its spec, an id the worker threads cache the built reader under, its inline size. */
export interface Reader {
  readonly id: number;
  readonly spec: ReaderSpec;
  /** Payloads up to this many bytes are read on the event loop (see INLINE_BYTES). */
  readonly inlineBytes: number;
  /** How the reader is named in a reason: `YAML`, `protobuf`, `JSON wire schema`. */
  readonly label: string;
}

/**
 * The largest payload each reader reads on the event loop: what its worst case, measured on 1 MiB bodies
 * built to be slow (docs/benchmarks.md, "Reading payloads"), reads in about 10 ms. Anything larger goes to
 * a worker thread, so no payload holds the event loop longer than that.
 */
export const INLINE_BYTES: Record<JaqFormat | 'protobuf' | 'wire-json', number> = {
  JSON: 256 << 10,
  CBOR: 128 << 10,
  'wire-json': 128 << 10,
  TOML: 32 << 10,
  protobuf: 32 << 10,
  XML: 16 << 10,
  YAML: 4 << 10,
};

let nextId = 1;

export function readerFor(spec: ReaderSpec): Reader {
  const key = spec.kind === 'format' ? spec.format : spec.kind;
  const label =
    spec.kind === 'format' ? spec.format : spec.kind === 'protobuf' ? 'protobuf' : 'JSON wire schema';
  return { id: nextId++, spec, inlineBytes: INLINE_BYTES[key], label };
}

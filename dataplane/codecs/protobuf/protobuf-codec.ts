// The protobuf codec (docs/codecs-protobuf.md, "The codec"): `FROM PROTOBUF USING RESOURCE r VERSION n CONFIG
// {file, include} MESSAGE 'pkg.Msg' TO SCHEMA s WITH JAQ TRANSFORMATIONS ON INGESTION <p> [ON EMITTING <p>]`.
// A payload is one message in wire bytes; its JSON view (json-view.ts) is the ingestion program's input. With
// an emitting program, the value it yields is written back as the message (from-json-view.ts). The compiler
// resolved the files into the Graph's descriptor, so nothing here reads a resource.
import type { GraphCodec, GraphSchema } from '../../graph/types.js';
import type { RecordValues } from '../../core/values.js';
import type { Codec, CodecFactory, DecodeResult, EncodeResult } from '../codec.js';
import { sharedJaqPool, type JaqPool } from '../jaq/jaq-pool.js';
import { EmittingProgram, IngestionProgram } from '../jaq/jaq-transform.js';
import { fromJsonView } from './from-json-view.js';
import { jsonValueView, jsonView } from './json-view.js';
import { loadMessage } from './load-message.js';
import { OrderedReads } from '../reading/ordered-reads.js';
import type { ViewRead } from '../reading/reader-spec.js';
import type { ValuesResult } from '../formats/payload-format.js';
import { ResultsInOrder } from '../reading/results-in-order.js';
import type protobuf from 'protobufjs';

type ProtobufGraphCodec = Extract<GraphCodec, { kind: 'protobuf' }>;

export const createProtobufCodec: CodecFactory<'protobuf'> = (codec, schema) =>
  protobufCodec(codec, schema, sharedJaqPool());

/** A protobuf codec on a given pool (tests and benchmarks bring their own). */
export function protobufCodec(
  codec: ProtobufGraphCodec,
  schema: GraphSchema,
  pool: JaqPool,
): Codec | { unsupported: string } {
  const loaded = loadMessage(codec.descriptor, codec.message);
  if ('error' in loaded) return { unsupported: loaded.error };
  return new ProtobufCodec(loaded.type, { codec, schema, pool });
}

class ProtobufCodec implements Codec {
  readonly kind = 'protobuf' as const;
  readonly schema: GraphSchema;
  readonly #type: protobuf.Type;
  readonly #ingestion: IngestionProgram;
  /** Large payloads are read by the payload readers, off the event loop (docs/codecs-protobuf.md). */
  readonly #texts: OrderedReads<ViewRead>;
  readonly #order = new ResultsInOrder();
  readonly #emitting: EmittingProgram | undefined;
  readonly encode?: (record: Readonly<RecordValues>) => Promise<EncodeResult>;

  constructor(
    type: protobuf.Type,
    { codec, schema, pool }: { codec: ProtobufGraphCodec; schema: GraphSchema; pool: JaqPool },
  ) {
    this.#type = type;
    this.schema = schema;
    this.#ingestion = new IngestionProgram(codec.ingestion, schema, pool);
    const spec = { kind: 'protobuf', descriptor: codec.descriptor, message: codec.message } as const;
    this.#texts = new OrderedReads(spec);
    if (codec.emitting !== undefined) {
      this.#emitting = new EmittingProgram(codec.emitting, schema, pool);
      this.encode = (record) => this.#encode(record);
    }
  }

  decode(payload: Uint8Array): DecodeResult | Promise<DecodeResult> {
    return this.#order.add(this.#decode(payload));
  }

  /** As the JAQ codec: values for a compiled program when read on the event loop, else text for jq-wasm. */
  #decode(payload: Uint8Array): DecodeResult | Promise<DecodeResult> {
    if (this.#ingestion.compiled && this.#texts.readsInline(payload)) {
      const read = this.#valueView(payload);
      return 'error' in read ? read : this.#ingestion.recordsOfValues(read, payload, this.#reread);
    }
    return this.#texts.read(
      payload,
      () => this.#view(payload),
      (read) => ('error' in read ? read : this.#ingestion.records(read.inputs)),
    );
  }

  #valueView(payload: Uint8Array): ValuesResult {
    const view = jsonValueView(this.#type, payload);
    return 'error' in view ? view : { values: [view.value] };
  }

  /** The view as text, for an input a compiled program leaves to jq-wasm. */
  async #reread(payload: Uint8Array): Promise<readonly string[]> {
    const read = await this.#texts.read(
      payload,
      () => this.#view(payload),
      (text) => text,
    );
    return 'error' in read ? [] : read.inputs;
  }

  #view(payload: Uint8Array): ViewRead {
    const view = jsonView(this.#type, payload);
    return 'error' in view ? view : { inputs: [view.text] };
  }

  async #encode(record: Readonly<RecordValues>): Promise<EncodeResult> {
    const emitted = await (this.#emitting as EmittingProgram).value(record);
    return 'error' in emitted ? emitted : fromJsonView(this.#type, emitted.value);
  }
}

// The JAQ codecs (docs/codecs.md, "JAQ codecs"): `FROM JSON|YAML|TOML|XML|CBOR … WITH JAQ TRANSFORMATIONS ON
// INGESTION <p> [ON EMITTING <p>]`. The format reads a payload into one input (one per YAML document), the
// ingestion program turns the inputs into records; with an emitting program a record becomes one value the
// format writes. Format and program are independent, so the same codec serves HTTP bodies and syslog frames.
import type { GraphCodec, GraphSchema } from '../../graph/types.js';
import type { RecordValues } from '../../core/values.js';
import type { Codec, CodecFactory, DecodeResult, EncodeResult } from '../codec.js';
import { PAYLOAD_FORMATS } from '../formats/index.js';
import type { PayloadFormat } from '../formats/payload-format.js';
import { OrderedReads } from '../reading/ordered-reads.js';
import type { ViewRead } from '../reading/reader-spec.js';
import { sharedJaqPool, type JaqPool } from './jaq-pool.js';
import { EmittingProgram, IngestionProgram } from './jaq-transform.js';

type JaqGraphCodec = Extract<GraphCodec, { kind: 'jaq' }>;

export const createJaqCodec: CodecFactory<'jaq'> = (codec, schema) =>
  jaqCodec(codec, schema, sharedJaqPool());

/** A JAQ codec on a given pool (tests and benchmarks bring their own). */
export function jaqCodec(codec: JaqGraphCodec, schema: GraphSchema, pool: JaqPool): Codec {
  return new JaqCodec(codec, schema, pool);
}

class JaqCodec implements Codec {
  readonly kind = 'jaq' as const;
  readonly #format: PayloadFormat;
  /** Large payloads are read by the payload readers, off the event loop (docs/codec-formats.md). */
  readonly #reads: OrderedReads<ViewRead>;
  readonly #ingestion: IngestionProgram;
  readonly #emitting: EmittingProgram | undefined;
  readonly encode?: (record: Readonly<RecordValues>) => Promise<EncodeResult>;

  constructor(
    codec: JaqGraphCodec,
    readonly schema: GraphSchema,
    pool: JaqPool,
  ) {
    this.#format = PAYLOAD_FORMATS[codec.format];
    this.#reads = new OrderedReads({ kind: 'format', format: codec.format });
    this.#ingestion = new IngestionProgram(codec.ingestion, schema, pool);
    if (codec.emitting !== undefined) {
      this.#emitting = new EmittingProgram(codec.emitting, schema, pool);
      this.encode = (record) => this.#encode(record);
    }
  }

  decode(payload: Uint8Array): DecodeResult | Promise<DecodeResult> {
    return this.#reads.read(
      payload,
      () => this.#format.read(payload),
      (read) => ('error' in read ? read : this.#ingestion.records(read.inputs)),
    );
  }

  async #encode(record: Readonly<RecordValues>): Promise<EncodeResult> {
    const emitted = await (this.#emitting as EmittingProgram).value(record);
    return 'error' in emitted ? emitted : this.#format.write(emitted.value);
  }
}

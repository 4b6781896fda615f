// The JAQ codecs (docs/codecs.md, "JAQ codecs"): `FROM JSON|YAML|TOML|XML|CBOR … WITH JAQ TRANSFORMATIONS ON
// INGESTION <p> [ON EMITTING <p>]`. The format reads a payload into one input (one per YAML document), the
// ingestion program turns the inputs into records; with an emitting program a record becomes one value the
// format writes. Format and program are independent, so the same codec serves HTTP bodies and syslog frames.
import type { GraphCodec, GraphSchema, JaqFormat } from '../../graph/types.js';
import type { RecordValues } from '../../core/values.js';
import type { Codec, CodecFactory, DecodeResult, EncodeResult } from '../codec.js';
import { PAYLOAD_FORMATS } from '../formats/index.js';
import type { PayloadFormat, ValuesResult } from '../formats/payload-format.js';
import { OrderedReads } from '../reading/ordered-reads.js';
import type { ViewRead } from '../reading/reader-spec.js';
import { ResultsInOrder } from '../reading/results-in-order.js';
import { sharedJaqPool, type JaqPool } from './jaq-pool.js';
import { EmittingProgram, IngestionProgram, type EngineChoice } from './jaq-transform.js';

type JaqGraphCodec = Extract<GraphCodec, { kind: 'jaq' }>;

export const createJaqCodec: CodecFactory<'jaq'> = (codec, schema) =>
  jaqCodec(codec, schema, sharedJaqPool());

/** A JAQ codec on a given pool (tests and benchmarks bring their own, and may keep it on jq-wasm). */
export function jaqCodec(
  codec: JaqGraphCodec,
  schema: GraphSchema,
  pool: JaqPool,
  engine: EngineChoice = 'auto',
): Codec {
  return new JaqCodec(codec, schema, pool, engine);
}

class JaqCodec implements Codec {
  readonly kind = 'jaq' as const;
  readonly #format: PayloadFormat;
  readonly #formatName: JaqFormat;
  /** Large payloads are read by the payload readers, off the event loop (docs/codec-formats.md). */
  readonly #texts: OrderedReads<ViewRead>;
  readonly #order = new ResultsInOrder();
  readonly #ingestion: IngestionProgram;
  readonly #emitting: EmittingProgram | undefined;
  readonly encode?: (record: Readonly<RecordValues>) => Promise<EncodeResult>;

  constructor(
    codec: JaqGraphCodec,
    readonly schema: GraphSchema,
    pool: JaqPool,
    engine: EngineChoice,
  ) {
    this.#format = PAYLOAD_FORMATS[codec.format];
    this.#formatName = codec.format;
    this.#texts = new OrderedReads({ kind: 'format', format: codec.format });
    this.#ingestion = new IngestionProgram(codec.ingestion, schema, pool, engine);
    if (codec.emitting !== undefined) {
      this.#emitting = new EmittingProgram(codec.emitting, schema, pool, engine);
      this.encode = (record) => this.#encode(record);
    }
  }

  decode(payload: Uint8Array): DecodeResult | Promise<DecodeResult> {
    return this.#order.add(this.#decode(payload));
  }

  /**
   * A payload read on the event loop (docs/codec-formats.md, "Large payloads are read off the event loop")
   * goes to a compiled program as values; a larger one is read as text on a payload reader and runs on
   * jq-wasm, so its values are never built on the event loop (issue 15: no payload may stall the node or
   * grow its heap by more than a few times its size).
   */
  #decode(payload: Uint8Array): DecodeResult | Promise<DecodeResult> {
    const compiled =
      this.#ingestion.compiled &&
      this.#texts.readsInline(payload) &&
      !(this.#formatName === 'YAML' && escapesHighSurrogate(payload));
    if (compiled) return this.#ofValues(this.#format.readValues(payload), payload);
    return this.#texts.read(
      payload,
      () => this.#format.read(payload),
      (read) => ('error' in read ? read : this.#ingestion.records(read.inputs)),
    );
  }

  #ofValues(read: ValuesResult, payload: Uint8Array): DecodeResult | Promise<DecodeResult> {
    if ('error' in read) return read;
    if (read.texts?.some(escapesHighSurrogateText) === true) return this.#ingestion.records(read.texts);
    return this.#ingestion.recordsOfValues(read, payload, this.#reread);
  }

  /** The payload's inputs as text, for those a compiled program leaves to jq-wasm. */
  readonly #reread = async (payload: Uint8Array): Promise<readonly string[]> => {
    const read = await this.#texts.read(
      payload,
      () => this.#format.read(payload),
      (text) => text,
    );
    return 'error' in read ? [] : read.inputs;
  };

  async #encode(record: Readonly<RecordValues>): Promise<EncodeResult> {
    const emitted = await (this.#emitting as EmittingProgram).value(record);
    return 'error' in emitted ? emitted : this.#format.write(emitted.value);
  }
}

/**
 * A payload that escapes a high UTF-16 surrogate (`\ud800`–`\udbff`): jq refuses a lone one (the values read
 * would hold U+FFFD), so such payloads go to jq-wasm as text, whatever their program. A lone low surrogate
 * is U+FFFD both ways. JSON's text is at hand after the read; YAML's bytes are looked at before it.
 */
const HIGH_SURROGATE_ESCAPE = /\\u[dD][89abAB]/;

export function escapesHighSurrogateText(text: string): boolean {
  return text.includes('\\u') && HIGH_SURROGATE_ESCAPE.test(text);
}

function escapesHighSurrogate(payload: Uint8Array): boolean {
  const bytes = Buffer.from(payload.buffer, payload.byteOffset, payload.byteLength);
  return bytes.includes('\\u') && HIGH_SURROGATE_ESCAPE.test(bytes.toString('latin1'));
}

// A codec that decodes on the calling thread (the JSON wire schema) made safe for large payloads: those
// are decoded by the payload readers (ordered-reads.ts), in order with the small ones decoded here.
import type { GraphSchema } from '../../graph/types.js';
import { Instant, type RecordValues } from '../../core/values.js';
import type { Codec, DecodeResult, EncodeResult } from '../codec.js';
import { OrderedReads } from './ordered-reads.js';
import type { RecordsRead, ReaderSpec } from './reader-spec.js';

type SyncDecoding = Omit<Codec, 'decode'> & { decode(payload: Uint8Array): DecodeResult };

export function readingRecordsInOrder(inner: SyncDecoding, spec: ReaderSpec): Codec {
  return new RecordsInOrder(inner, spec);
}

class RecordsInOrder implements Codec {
  readonly kind: Codec['kind'];
  readonly schema: GraphSchema;
  readonly encode?: (record: Readonly<RecordValues>) => EncodeResult | Promise<EncodeResult>;
  readonly #inner: SyncDecoding;
  readonly #reads: OrderedReads<RecordsRead>;
  readonly #datetimes: string[];

  constructor(inner: SyncDecoding, spec: ReaderSpec) {
    this.#inner = inner;
    this.kind = inner.kind;
    this.schema = inner.schema;
    if (inner.encode !== undefined) this.encode = inner.encode.bind(inner);
    this.#reads = new OrderedReads(spec);
    this.#datetimes = inner.schema.fields
      .filter((field) => field.type === 'DATETIME')
      .map((field) => field.name);
  }

  decode(payload: Uint8Array): DecodeResult | Promise<DecodeResult> {
    return this.#reads.read(
      payload,
      () => this.#inner.decode(payload),
      (read) => ('error' in read ? read : { records: this.#revived(read.records) }),
    );
  }

  /**
   * Records that crossed from a worker thread keep bigint and Uint8Array values, but an Instant arrives as
   * a plain object: DATETIME fields are made Instants again (a no-op for records read here).
   */
  #revived(records: RecordValues[]): RecordValues[] {
    for (const record of records) {
      for (const name of this.#datetimes) {
        const value = record[name] as { epochNanos: bigint } | null | undefined;
        if (value != null && !(value instanceof Instant)) record[name] = new Instant(value.epochNanos);
      }
    }
    return records;
  }
}

// The entry of one ingestor (HTTP, syslog or topic): `ingest(payload, metadata)` decodes the payload with the
// ingestor's codec (synchronously or not) and runs every record through every route, in route order.
// A payload that does not decode is one message error for each route's ON MESSAGE ERROR policy, whose
// `input.` then has every field null. Fire-and-forget: `ingest` never throws and the promise it returns
// for an asynchronous codec never rejects; callers may ignore it (tests await it).
import type { Codec, DecodeResult } from '../codecs/codec.js';
import { messageError } from '../core/errors.js';
import type { Route } from '../flow/route.js';
import type { ComponentTelemetry } from '../core/telemetry.js';
import type { IngestFn, IngestMetadata } from '../core/ingest.js';
import type { RecordValues } from '../core/values.js';

export type IngestorKind = 'http-ingestor' | 'syslog-ingestor' | 'topic-ingestor';

/** What a source calls for every payload it receives. */
export interface IngestorEntry {
  readonly name: string;
  readonly kind: IngestorKind;
  /**
   * Resolves (never rejects) when an asynchronous codec is done; undefined when all ran synchronously.
   * A bound function: sources keep it on its own (hot reload retargets a source to another entry's).
   */
  readonly ingest: IngestFn;
}

export class Ingestor implements IngestorEntry {
  readonly #codec: Codec;
  readonly #routes: readonly Route[];
  readonly #telemetry: ComponentTelemetry;
  /** `input.` of an error handler when nothing decoded. */
  readonly #nothing: Readonly<RecordValues>;

  constructor(
    readonly name: string,
    readonly kind: IngestorKind,
    parts: { codec: Codec; routes: readonly Route[]; telemetry: ComponentTelemetry },
  ) {
    this.#codec = parts.codec;
    this.#routes = parts.routes;
    this.#telemetry = parts.telemetry;
    this.#nothing = Object.freeze(
      Object.fromEntries(parts.codec.schema.fields.map((field) => [field.name, null])),
    );
  }

  readonly ingest = (payload: Uint8Array, metadata: IngestMetadata): void | Promise<void> => {
    this.#telemetry.payloadReceived(payload.byteLength);
    let result: DecodeResult | Promise<DecodeResult>;
    try {
      result = this.#codec.decode(payload);
    } catch (error: unknown) {
      result = codecFailure(error);
    }
    if (!(result instanceof Promise)) return this.#safely(result, payload, metadata);
    return result.then(
      (decoded) => this.#safely(decoded, payload, metadata),
      (error: unknown) => this.#safely(codecFailure(error), payload, metadata),
    );
  };

  /** Routes never throw; should one (a defect), it is an ON GENERAL ERROR LOG event, not a crash. */
  #safely(result: DecodeResult, payload: Uint8Array, metadata: IngestMetadata): void {
    try {
      this.#route(result, payload, metadata);
    } catch (error: unknown) {
      const name = error instanceof Error ? error.name : typeof error;
      this.#telemetry.generalError('ingest_failed', `routing a payload failed unexpectedly (${name})`);
    }
  }

  #route(result: DecodeResult, payload: Uint8Array, metadata: IngestMetadata): void {
    if ('error' in result) {
      const failure = { error: result.error, scope: { input: this.#nothing, metadata }, payload };
      for (const route of this.#routes) route.fail(failure);
      return;
    }
    this.#telemetry.recordsIn(result.records.length);
    for (const record of result.records) {
      const scope = { input: record, metadata };
      for (const route of this.#routes) route.deliver(scope, payload);
    }
  }
}

/** A codec that threw (a defect: codecs report bad input as results); the payload is handled as failed. */
function codecFailure(error: unknown): DecodeResult {
  const name = error instanceof Error ? error.name : typeof error;
  return { error: messageError('SR3009', `the codec failed unexpectedly (${name})`) };
}

// A payload format of the JAQ codecs (JSON, YAML, TOML, XML, CBOR; docs/codec-formats.md): how a payload's
// bytes become the JSON view(s) the ON INGESTION program reads, and how the value the ON EMITTING program
// yields becomes bytes again. Formats never throw for bad input: one message error names what failed and
// where (a line, an offset, a key), never a value from the payload.
import type { MessageError } from '../../core/errors.js';
import type { JsonValue } from '../json-value.js';

export type ReadResult = { inputs: string[] } | { error: MessageError };
/**
 * The program's inputs as values (for a compiled program): `values[i]` is parseJsonValue of the text
 * read's `inputs[i]`, but with U+FFFD where that text escapes a lone surrogate (as jq reads it). `texts`
 * is there only when the payload is itself JSON text (the JSON format): the payload as it was sent, for
 * number literals as written (`1.50`). Every other format writes numbers in their shortest form.
 */
export type ValuesResult = { values: JsonValue[]; texts?: string[] } | { error: MessageError };
export type WriteResult = { bytes: Uint8Array } | { error: MessageError };

export interface PayloadFormat {
  /**
   * The program's inputs, each as JSON text (integers with every digit): one for most formats, one per
   * document of a multi-document YAML stream. A payload is read whole or not at all.
   */
  read(payload: Uint8Array): ReadResult;
  /** The same inputs as values, without JSON text in between; refused exactly as `read` refuses. */
  readValues(payload: Uint8Array): ValuesResult;
  /** The payload for one value the emitting program yielded. */
  write(value: JsonValue): WriteResult;
}

// A payload format of the JAQ codecs (JSON, YAML, TOML, XML, CBOR; docs/codec-formats.md): how a payload's
// bytes become the JSON view(s) the ON INGESTION program reads, and how the value the ON EMITTING program
// yields becomes bytes again. Formats never throw for bad input: one message error names what failed and
// where (a line, an offset, a key), never a value from the payload.
import type { MessageError } from '../../core/errors.js';
import type { JsonValue } from '../json-value.js';

export type ReadResult = { inputs: string[] } | { error: MessageError };
export type WriteResult = { bytes: Uint8Array } | { error: MessageError };

export interface PayloadFormat {
  /**
   * The program's inputs, each as JSON text (integers with every digit): one for most formats, one per
   * document of a multi-document YAML stream. A payload is read whole or not at all.
   */
  read(payload: Uint8Array): ReadResult;
  /** The payload for one value the emitting program yielded. */
  write(value: JsonValue): WriteResult;
}

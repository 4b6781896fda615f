// The protobuf codec's JSON view (docs/codecs-protobuf.md): a payload decoded as the message
// and written as JSON text (or built as a value) for the ingestion program. Proto field names as declared (snake_case stays),
// 64-bit integers as JSON numbers with every digit, otherwise proto3 JSON: enums by name, bytes as base64,
// "NaN"/"Infinity"/"-Infinity", maps as objects, defaults for fields without presence. The view is built
// while the wire is walked (read-message.ts); there is no message object in between.
import type protobuf from 'protobufjs';
import { type MessageError, messageError } from '../../core/errors.js';
import { TEXT_SINK, VALUE_SINK, type ViewSink } from '../formats/view-sink.js';
import type { JsonValue } from '../json-value.js';
import { planFor } from './message-plan.js';
import { PathError } from './path-error.js';
import { readMessage } from './read-message.js';
import { WireReader } from './wire-reader.js';
import { writeMessage } from './write-view.js';

export type JsonViewResult = { text: string } | { error: MessageError };
export type JsonValueResult = { value: JsonValue } | { error: MessageError };

/**
 * The JSON view of one payload, or one message error (SR3016) that says what is wrong with the bytes.
 * Never throws for bad input; `type` must be one loadMessage accepted.
 */
export function jsonView(type: protobuf.Type, bytes: Uint8Array): JsonViewResult {
  const view = viewOf(type, bytes, TEXT_SINK);
  return 'error' in view ? view : { text: view.view };
}

/**
 * The same view as a value (what parseJsonValue makes of jsonView's text; strings are UTF-8, so never
 * hold a lone surrogate), refused exactly as jsonView refuses.
 */
export function jsonValueView(type: protobuf.Type, bytes: Uint8Array): JsonValueResult {
  const view = viewOf(type, bytes, VALUE_SINK);
  return 'error' in view ? view : { value: view.view };
}

function viewOf<V>(
  type: protobuf.Type,
  bytes: Uint8Array,
  sink: ViewSink<V>,
): { view: V } | { error: MessageError } {
  const plan = planFor(type);
  try {
    return { view: writeMessage(plan, readMessage(plan, new WireReader(bytes), sink), sink) };
  } catch (error: unknown) {
    if (error instanceof PathError) return { error: error.toMessageError('SR3016') };
    // The nesting limit keeps the stack safe and payload limits keep the text short; should either still
    // run out (a RangeError), the payload fails rather than the codec.
    if (error instanceof RangeError) {
      return { error: messageError('SR3016', 'the message is too deep or too large for a JSON view') };
    }
    throw error;
  }
}

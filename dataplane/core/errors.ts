// The data plane's message errors: one failed message (a body that does not decode, a value that does not
// fit, an expression that fails at run time). Each has a stable code (docs/runtime.md, "Message error
// codes") and a reason built only from fixed phrases, names from the graph, positions and sizes — never
// from payload text: not a value, not a key, not a character code (docs/errors.md, "What a message error
// carries"). There is deliberately no helper that quotes a payload's key: a position stands for it.
//
//   SR30xx  decoding and encoding payloads (codecs)
//   SR31xx  routes and expressions

export const MESSAGE_ERROR_CODES = {
  SR3001: 'Payload is not valid UTF-8',
  SR3002: 'Payload is not valid JSON, or not a JSON object',
  SR3003: 'A key of the wire schema is missing',
  SR3004: 'A key the wire schema does not declare',
  SR3005: 'A value of the wrong type',
  SR3006: 'A value out of the range of its field type',
  SR3007: 'Text that is not an RFC 3339 timestamp',
  SR3008: 'A value the codec cannot encode',
  SR3009: 'The codec failed unexpectedly (a defect; the payload is handled as failed)',
  SR3010: 'Payload does not parse in the codec’s format (YAML, TOML, XML, CBOR)',
  SR3011: 'Payload exceeds a decoding limit (nesting depth, alias expansion, entities, documents)',
  SR3012: 'The JAQ program failed on the input (an error, halt or halt_error)',
  SR3013: 'The JAQ program ran past its time limit',
  SR3014: 'A JAQ program output is not a JSON object',
  SR3015: 'The emitting program yielded no value, or more than one',
  SR3016: 'Payload is not a valid protobuf message',
  SR3017: 'The JAQ engine is overloaded: the payload was refused',
  SR3018: 'Reading a large payload off the event loop ran past its time or memory limit',
  SR3019: 'The payload readers are overloaded: the payload was refused',
  SR3020: 'Syslog payload is empty once trailing CR, LF and NUL bytes are removed',
  SR3021: 'RFC 5424 message ends inside its header (a header field is missing)',
  SR3022: 'RFC 5424 TIMESTAMP is neither - nor a valid RFC 3339 date-time',
  SR3023: 'RFC 5424 HOSTNAME, APP-NAME, PROCID or MSGID is empty, too long or not printable US-ASCII',
  SR3024: 'RFC 5424 STRUCTURED-DATA is malformed',
  SR3030: 'Encoded syslog payload exceeds the UDP limit of 65,507 bytes',
  SR3031: 'Encoded syslog payload needs an octet count of more than ten digits',
  SR3032: 'Encoded syslog payload contains LF, which non-transparent framing cannot carry',
  SR3033: 'The Kafka broker refused the record for itself (too large for the topic, or invalid)',
  SR3101: 'Division by zero',
  SR3102: 'Arithmetic overflow: the result does not fit its type',
  SR3103: 'A function argument out of its domain',
  SR3104: 'Null into a field that is not OPTIONAL',
  SR3105: 'Building the record failed unexpectedly (a defect; the message is handled as failed)',
} as const;

export type MessageErrorCode = keyof typeof MESSAGE_ERROR_CODES;

/**
 * One message that failed. `reason` is fixed phrases, graph names (schema, wire schema, field, protobuf
 * message), positions and sizes; `detail` gives the facts a reason is built from, as fields for logs.
 * It is a plain object: a payload reader on another thread hands it back as it is.
 */
export interface MessageError {
  code: MessageErrorCode;
  reason: string;
  detail?: MessageErrorDetail;
}

/** What a message error concerns, all from the graph or counted — never taken from the payload. */
export interface MessageErrorDetail {
  /** A field or key the graph declares (schema, wire schema, protobuf message). */
  field?: string;
  /** Where in the payload: `line 3, column 7`, `byte offset 12`, a key path of positions `.{2}[0]`. */
  at?: string;
  /** The clause of a JAQ codec that failed: `ON INGESTION` or `ON EMITTING`. */
  clause?: 'ON INGESTION' | 'ON EMITTING';
  /** The input of the payload that failed, counted from 1 (a YAML document). */
  input?: number;
  /** The kind of a jq runtime error (SR3012), one of a fixed set: docs/codecs.md, "jq error kinds". */
  jqError?: string;
  /** The 1-based position of a key the payload has and the graph does not declare. */
  keyPosition?: number;
}

export function messageError(
  code: MessageErrorCode,
  reason: string,
  detail?: MessageErrorDetail,
): MessageError {
  return detail === undefined ? { code, reason } : { code, reason, detail };
}

export function isMessageError(value: unknown): value is MessageError {
  return (
    typeof value === 'object' &&
    value !== null &&
    'code' in value &&
    'reason' in value &&
    typeof value.code === 'string' &&
    Object.hasOwn(MESSAGE_ERROR_CODES, value.code)
  );
}

/**
 * Thrown while a record is being built (an expression or a field conversion fails); the route catches it
 * and turns it into a message error. Never escapes a route.
 */
export class RecordError extends Error {
  constructor(
    readonly code: MessageErrorCode,
    readonly reason: string,
    readonly detail?: MessageErrorDetail,
  ) {
    super(reason);
    this.name = 'RecordError';
  }

  toMessageError(): MessageError {
    return messageError(this.code, this.reason, this.detail);
  }
}

/** A name the graph declares (a schema field, a wire-schema key), quoted for a reason. Never a payload's key. */
export function quoteGraphName(name: string): string {
  return JSON.stringify(name);
}

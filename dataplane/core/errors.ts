// The data plane's message errors: one failed message (a body that does not decode, a value that does not
// fit, an expression that fails at run time). Each has a stable code (docs/runtime.md, "Message error
// codes") and a reason that names fields and types but never quotes a payload or a field value.
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
  SR3101: 'Division by zero',
  SR3102: 'Arithmetic overflow: the result does not fit its type',
  SR3103: 'A function argument out of its domain',
  SR3104: 'Null into a field that is not OPTIONAL',
  SR3105: 'Building the record failed unexpectedly (a defect; the message is handled as failed)',
} as const;

export type MessageErrorCode = keyof typeof MESSAGE_ERROR_CODES;

/** One message that failed; `reason` names keys, fields and types, never values. */
export interface MessageError {
  code: MessageErrorCode;
  reason: string;
}

export function messageError(code: MessageErrorCode, reason: string): MessageError {
  return { code, reason };
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
  ) {
    super(reason);
    this.name = 'RecordError';
  }

  toMessageError(): MessageError {
    return { code: this.code, reason: this.reason };
  }
}

/** Longest key name quoted in a reason; keys come from payloads and must not flood a log line. */
const MAX_QUOTED_NAME = 64;

/** A key name from a payload, safe to put in a reason: JSON-quoted and shortened. */
export function quoteName(name: string): string {
  const short = name.length > MAX_QUOTED_NAME ? `${name.slice(0, MAX_QUOTED_NAME)}…` : name;
  return JSON.stringify(short);
}

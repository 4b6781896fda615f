// How an encoded syslog message goes on the wire of each transport (spec §4.4, §7, §8). Framing is kept
// apart from format (the codec): these functions take the codec's bytes and either frame them or say why
// the message cannot be carried, as a message error the emitter hands to ON MESSAGE ERROR; they never
// throw and never quote the payload.
//
//   UDP             the payload is the datagram; above 65,507 bytes (the IPv4 UDP payload limit) → SR3030
//   octet-counting  `<decimal length> <payload>` (RFC 6587 §3.4.1, RFC 5425 §4.3); a length needing more
//                   than ten digits → SR3031, before anything is written
//   non-transparent payload + LF (RFC 6587 §3.4.2); a payload containing LF would split → SR3032
//
// `size` parameters exist so that tests can check the limits without building gigabyte payloads.
import { messageError, type MessageError } from '../runtime/errors.js';

/** Largest UDP payload the emitter sends (spec §8: 65,535 − 8 UDP header − 20 IPv4 header). */
export const UDP_MAX_PAYLOAD = 65_507;
/** Longest octet count (spec §8). */
export const MAX_OCTET_COUNT_DIGITS = 10;

const LF = 0x0a;
const SP = 0x20;
const DIGIT_0 = 0x30;

/** The datagram for `payload`, or SR3030 when it is larger than UDP carries. */
export function datagramFrame(payload: Uint8Array, size = payload.length): Uint8Array | MessageError {
  if (size > UDP_MAX_PAYLOAD) {
    return messageError('SR3030', `the encoded message has ${size} bytes, above the UDP limit of 65507`);
  }
  return payload;
}

/** `<length> <payload>`, or SR3031 when the length needs more than ten digits. */
export function octetCountedFrame(payload: Uint8Array, size = payload.length): Uint8Array | MessageError {
  const digits = decimalDigits(size);
  if (digits > MAX_OCTET_COUNT_DIGITS) {
    return messageError(
      'SR3031',
      `the encoded message has ${size} bytes: its octet count needs more than ten digits`,
    );
  }
  const frame = Buffer.allocUnsafe(digits + 1 + payload.length);
  // The count's digits written in place: cheaper than formatting a string and writing it as latin1.
  let rest = size;
  for (let i = digits - 1; i >= 0; i--) {
    frame[i] = DIGIT_0 + (rest % 10);
    rest = Math.floor(rest / 10);
  }
  frame[digits] = SP;
  frame.set(payload, digits + 1);
  return frame;
}

/** Decimal digits of a byte count (a non-negative integer; `size` of tests may be far above any real one). */
function decimalDigits(size: number): number {
  let digits = 1;
  for (let rest = size; rest >= 10; rest = Math.floor(rest / 10)) digits++;
  return digits;
}

/** `<payload>LF`, or SR3032 when the payload already contains LF. */
export function nonTransparentFrame(payload: Uint8Array): Uint8Array | MessageError {
  if (payload.includes(LF)) {
    return messageError(
      'SR3032',
      'the encoded message contains LF, which non-transparent framing cannot carry',
    );
  }
  const frame = Buffer.allocUnsafe(payload.length + 1);
  frame.set(payload, 0);
  frame[payload.length] = LF;
  return frame;
}

export function isFramingError(frame: Uint8Array | MessageError): frame is MessageError {
  return !(frame instanceof Uint8Array);
}

// Payload bytes as text for the text formats (JSON, YAML, TOML, XML): strict UTF-8, one leading byte-order
// mark dropped. Invalid UTF-8 is SR3001 with the byte offset of the first bad sequence, found by a second
// pass (Unicode's table of well-formed sequences) only when the fast decoder has refused the payload.
import { fail } from './format-failure.js';

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** The payload's text, without a leading BOM; throws a FormatFailure (SR3001) for invalid UTF-8. */
export function payloadText(format: string, payload: Uint8Array): string {
  try {
    return utf8.decode(payload);
  } catch {
    const at = `byte offset ${firstInvalidUtf8(payload)}`;
    fail('SR3001', `${format}: the payload is not valid UTF-8 (${at})`, at);
  }
}

/** Offset of the first byte that does not start or continue a well-formed UTF-8 sequence; -1 if none. */
export function firstInvalidUtf8(bytes: Uint8Array): number {
  let at = 0;
  while (at < bytes.length) {
    const length = sequenceLength(bytes, at);
    if (length === 0) return at;
    at += length;
  }
  return -1;
}

/** Length of the well-formed sequence at `at` (Unicode 15, table 3-7), or 0 when it is ill-formed. */
function sequenceLength(bytes: Uint8Array, at: number): number {
  const lead = bytes[at] as number;
  if (lead < 0x80) return 1;
  const [length, low, high] = leadRange(lead);
  if (length === 0) return 0;
  const second = bytes[at + 1];
  if (second === undefined || second < low || second > high) return 0;
  for (let i = 2; i < length; i += 1) {
    const next = bytes[at + i];
    if (next === undefined || next < 0x80 || next > 0xbf) return 0;
  }
  return length;
}

/** Lead bytes from … to, the sequence length, and the allowed range of the second byte. */
const LEADS: readonly (readonly [number, number, number, number, number])[] = [
  [0xc2, 0xdf, 2, 0x80, 0xbf],
  [0xe0, 0xe0, 3, 0xa0, 0xbf],
  [0xe1, 0xec, 3, 0x80, 0xbf],
  [0xed, 0xed, 3, 0x80, 0x9f], // no surrogates
  [0xee, 0xef, 3, 0x80, 0xbf],
  [0xf0, 0xf0, 4, 0x90, 0xbf],
  [0xf1, 0xf3, 4, 0x80, 0xbf],
  [0xf4, 0xf4, 4, 0x80, 0x8f], // nothing beyond U+10FFFF
];

/** For a lead byte: the sequence length and the allowed range of the second byte (length 0: invalid). */
function leadRange(lead: number): [number, number, number] {
  const row = LEADS.find(([from, to]) => lead >= from && lead <= to);
  return row === undefined ? [0, 0, 0] : [row[2], row[3], row[4]];
}

// Strings of the printable US-ASCII header fields (HOSTNAME, APP-NAME, PROCID, MSGID), remembered by their
// bytes. A stream repeats these few values message after message, and making a string costs a call into
// Node (~50 ns) where hashing and comparing a dozen bytes costs less; so each field keeps a small
// direct-mapped table, slot chosen by a hash of all the bytes (values such as web-01… and web-02… differ in
// one byte), and a hit returns the string made before. A miss (or a value too long to keep) makes the string as before and takes the slot. The
// result is always exactly the field's text: a hit is a byte-for-byte match.

/** Slots per field; a power of two. Enough for the hosts and programs of a busy listener's connections. */
const SLOTS = 64;
/** Values longer than this are not kept (HOSTNAME may have 255 bytes; long ones are rare and cost more). */
const MAX_KEPT = 48;
/** Below this length, building a string code by code beats Buffer's latin1 slice (Node 20, measured). */
const SHORT_TEXT = 8;

/** Buffer's latin1 slice (Node's own, untyped in @types/node); it takes any Uint8Array as `this`. */
const { latin1Slice } = Buffer.prototype as unknown as {
  latin1Slice: (this: Uint8Array, start: number, end: number) => string;
};

export class AsciiCache {
  readonly #bytes = new Uint8Array(SLOTS * MAX_KEPT);
  readonly #lengths = new Int32Array(SLOTS).fill(-1);
  readonly #texts: string[] = new Array<string>(SLOTS).fill('');

  /** The slot of the value returned last: tried first, since a stream mostly repeats its last value. */
  #last = 0;

  /** The text of `bytes[start, end)`, which holds only bytes below 0x80. */
  text(bytes: Uint8Array, start: number, end: number): string {
    const length = end - start;
    if (length > MAX_KEPT || length === 0) return asciiText(bytes, start, end);
    if (this.#holds(this.#last, bytes, start, length)) return this.#texts[this.#last] ?? '';
    const slot = slotOf(bytes, start, end);
    this.#last = slot;
    if (this.#holds(slot, bytes, start, length)) return this.#texts[slot] ?? '';
    const text = asciiText(bytes, start, end);
    const kept = this.#bytes;
    const at = slot * MAX_KEPT;
    for (let i = 0; i < length; i++) kept[at + i] = bytes[start + i] ?? 0;
    this.#lengths[slot] = length;
    this.#texts[slot] = text;
    return text;
  }

  /** Whether `slot` keeps the `length` bytes at `start`. */
  #holds(slot: number, bytes: Uint8Array, start: number, length: number): boolean {
    if (this.#lengths[slot] !== length) return false;
    const kept = this.#bytes;
    const at = slot * MAX_KEPT;
    let i = 0;
    while (i < length && kept[at + i] === bytes[start + i]) i++;
    return i === length;
  }
}

/** The table slot of `bytes[start, end)`: a multiplicative hash of every byte and the length. */
function slotOf(bytes: Uint8Array, start: number, end: number): number {
  let hash = end - start;
  for (let i = start; i < end; i++) hash = (Math.imul(hash, 31) + (bytes[i] ?? 0)) | 0;
  return (hash ^ (hash >>> 7)) & (SLOTS - 1);
}

/** A new string of the US-ASCII bytes `[start, end)`. */
export function asciiText(bytes: Uint8Array, start: number, end: number): string {
  if (end - start >= SHORT_TEXT) return latin1Slice.call(bytes, start, end);
  let text = '';
  for (let i = start; i < end; i++) text += String.fromCharCode(bytes[i] ?? 0);
  return text;
}

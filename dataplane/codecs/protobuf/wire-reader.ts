// Reads protobuf wire format from one payload, bounds-checked against the end of the message being read
// (`end`, narrowed for each nested message and restored after). Every failure is a PathError with a reason
// that says what was wrong with the bytes, never what they held. 64-bit values land in `lo`/`hi` so a read
// allocates nothing; strings and bytes go straight to the view's sink (view-sink.ts), as JSON text or values.
import type { ViewSink } from '../formats/view-sink.js';
import { PathError } from './path-error.js';
import { Wire } from './scalar-kinds.js';

/** How deep messages (and unknown groups) may nest: protoc's default recursion limit, and protobufjs's. */
export const MAX_NESTING = 100;

// ignoreBOM keeps a leading U+FEFF: it is part of the string, not a marker to strip.
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** Node's Buffer has latin1Slice (undocumented, as long-lived as Buffer; protobufjs uses utf8Slice alike). */
type SliceableBuffer = Buffer & { latin1Slice?: (start: number, end: number) => string };

const truncated = (): PathError => new PathError('truncated: a value runs past the end of its message');

export class WireReader {
  pos = 0;
  end: number;
  /** The halves of the last 64-bit value read. */
  lo = 0;
  hi = 0;
  readonly #buf: SliceableBuffer;

  constructor(bytes: Uint8Array) {
    this.#buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    this.end = bytes.byteLength;
  }

  /** A varint's low 32 bits, unsigned; the whole varint (up to 10 bytes) is consumed. */
  varint32(): number {
    const buf = this.#buf;
    if (this.pos < this.end) {
      const first = buf[this.pos] as number;
      if (first < 0x80) {
        this.pos += 1;
        return first;
      }
    }
    this.varint64();
    return this.lo;
  }

  /** A varint into lo/hi. */
  varint64(): void {
    const buf = this.#buf;
    let lo = 0;
    let hi = 0;
    for (let shift = 0; shift < 70; shift += 7) {
      if (this.pos >= this.end) throw truncated();
      const byte = buf[this.pos++] as number;
      if (shift < 28) lo |= (byte & 0x7f) << shift;
      else if (shift === 28) {
        lo |= (byte & 0x7f) << 28;
        hi = (byte & 0x7f) >>> 4;
      } else hi |= (byte & 0x7f) << (shift - 32);
      if (byte < 0x80) {
        this.lo = lo >>> 0;
        this.hi = hi >>> 0;
        return;
      }
    }
    throw new PathError('a varint is longer than 10 bytes');
  }

  fixed32(): number {
    this.#need(4);
    const value = this.#buf.readUInt32LE(this.pos);
    this.pos += 4;
    return value;
  }

  fixed64(): void {
    this.#need(8);
    this.lo = this.#buf.readUInt32LE(this.pos);
    this.hi = this.#buf.readUInt32LE(this.pos + 4);
    this.pos += 8;
  }

  float(): number {
    this.#need(4);
    const value = this.#buf.readFloatLE(this.pos);
    this.pos += 4;
    return value;
  }

  double(): number {
    this.#need(8);
    const value = this.#buf.readDoubleLE(this.pos);
    this.pos += 8;
    return value;
  }

  /** Reads a length prefix and narrows the reader to it; returns the end to give back to `leave`. */
  enter(): number {
    this.varint64();
    if (this.hi !== 0 || this.lo > this.end - this.pos) throw truncated();
    const outer = this.end;
    this.end = this.pos + this.lo;
    return outer;
  }

  /** Back to the enclosing message; every read stops at `end`, so pos is exactly there. */
  leave(outer: number): void {
    this.end = outer;
  }

  /** A length-delimited string; it must be UTF-8 (proto3 requires it, as protoc does). */
  string<V>(sink: ViewSink<V>): V {
    const outer = this.enter();
    const start = this.pos;
    const end = this.end;
    this.pos = end;
    this.end = outer;
    const buf = this.#buf;
    for (let i = start; i < end; i++) {
      const byte = buf[i] as number;
      // Printable ASCII without a quote or backslash is its own JSON text: skip the decoder.
      if (byte < 0x20 || byte > 0x7e || byte === 0x22 || byte === 0x5c) {
        return sink.string(this.#utf8(start, end));
      }
    }
    // latin1Slice skips toString's encoding lookup, a tenth of the view's time on short strings.
    return sink.plainString(
      buf.latin1Slice ? buf.latin1Slice(start, end) : buf.toString('latin1', start, end),
    );
  }

  /** Length-delimited bytes (as base64 in the view). */
  bytes<V>(sink: ViewSink<V>): V {
    const outer = this.enter();
    const bytes = this.#buf.subarray(this.pos, this.end);
    this.pos = this.end;
    this.end = outer;
    return sink.bytes(bytes);
  }

  /** Skips a field the message does not declare; groups nest, so they count against the depth limit. */
  skip(wireType: number, fieldNumber: number, depth: number): void {
    switch (wireType) {
      case Wire.Varint:
        this.varint64();
        return;
      case Wire.I64:
        return this.#advance(8);
      case Wire.Len: {
        const outer = this.enter();
        this.pos = this.end;
        this.end = outer;
        return;
      }
      case Wire.StartGroup:
        return this.#skipGroup(fieldNumber, depth + 1);
      case Wire.I32:
        return this.#advance(4);
      default:
        throw new PathError(
          wireType === Wire.EndGroup ? 'an end-group tag without its start' : `invalid wire type ${wireType}`,
        );
    }
  }

  #skipGroup(fieldNumber: number, depth: number): void {
    if (depth > MAX_NESTING) throw new PathError(`groups nested deeper than ${MAX_NESTING}`);
    for (;;) {
      const tag = this.varint32();
      const wireType = tag & 7;
      if (wireType === Wire.EndGroup) {
        if (tag >>> 3 !== fieldNumber) throw new PathError('an end-group tag that does not match its group');
        return;
      }
      this.skip(wireType, tag >>> 3, depth);
    }
  }

  #advance(length: number): void {
    this.#need(length);
    this.pos += length;
  }

  #need(length: number): void {
    if (this.pos + length > this.end) throw truncated();
  }

  #utf8(start: number, end: number): string {
    try {
      return utf8.decode(this.#buf.subarray(start, end));
    } catch {
      throw new PathError('a string that is not valid UTF-8');
    }
  }
}

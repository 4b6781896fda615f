// Writes protobuf wire format into one growing buffer. A nested message's length is not known before its
// fields are written, so one byte is reserved for it and, in the rare case the message is 128 bytes or
// longer, the content moves up to make room for a longer varint. One writer serves every call (encoding
// is synchronous); `finish` copies the bytes out, and a buffer grown past 1 MiB is dropped afterwards.
const INITIAL_SIZE = 4096;
const KEEP_AT_MOST = 1 << 20;

export class WireWriter {
  pos = 0;
  #buf = Buffer.allocUnsafe(INITIAL_SIZE);

  reset(): void {
    this.pos = 0;
  }

  /** The bytes written since reset, as a new array. */
  finish(): Uint8Array {
    const bytes = new Uint8Array(this.pos);
    bytes.set(this.#buf.subarray(0, this.pos));
    if (this.#buf.length > KEEP_AT_MOST) this.#buf = Buffer.allocUnsafe(INITIAL_SIZE);
    this.pos = 0;
    return bytes;
  }

  tag(fieldNumber: number, wireType: number): void {
    this.varint32(fieldNumber * 8 + wireType);
  }

  /** An unsigned 32-bit value as a varint. */
  varint32(value: number): void {
    this.#room(5);
    const buf = this.#buf;
    let rest = value >>> 0;
    while (rest > 0x7f) {
      buf[this.pos++] = (rest & 0x7f) | 0x80;
      rest >>>= 7;
    }
    buf[this.pos++] = rest;
  }

  /** A signed 32-bit value: negative ones take ten bytes, sign-extended to 64 bits (as protoc writes). */
  int32(value: number): void {
    if (value >= 0) this.varint32(value);
    else this.varint64(value >>> 0, 0xffffffff);
  }

  varint64(lo: number, hi: number): void {
    if (hi === 0) return this.varint32(lo);
    this.#room(10);
    const buf = this.#buf;
    let low = lo;
    let high = hi;
    // 7 bits at a time from the 64-bit value high:low.
    while (high !== 0 || low > 0x7f) {
      buf[this.pos++] = (low & 0x7f) | 0x80;
      low = ((low >>> 7) | (high << 25)) >>> 0;
      high >>>= 7;
    }
    buf[this.pos++] = low;
  }

  fixed32(value: number): void {
    this.#room(4);
    this.#buf.writeUInt32LE(value >>> 0, this.pos);
    this.pos += 4;
  }

  fixed64(lo: number, hi: number): void {
    this.#room(8);
    this.#buf.writeUInt32LE(lo, this.pos);
    this.#buf.writeUInt32LE(hi, this.pos + 4);
    this.pos += 8;
  }

  float(value: number): void {
    this.#room(4);
    this.#buf.writeFloatLE(value, this.pos);
    this.pos += 4;
  }

  double(value: number): void {
    this.#room(8);
    this.#buf.writeDoubleLE(value, this.pos);
    this.pos += 8;
  }

  bytes(value: Uint8Array): void {
    this.varint32(value.length);
    this.#room(value.length);
    this.#buf.set(value, this.pos);
    this.pos += value.length;
  }

  /** A string as UTF-8 with its length. */
  string(value: string): void {
    // Three bytes per UTF-16 unit at most: a short string's length fits the one byte reserved for it.
    if (value.length < 43) {
      this.#room(1 + 3 * value.length);
      const written = this.#buf.write(value, this.pos + 1, 'utf8');
      this.#buf[this.pos] = written;
      this.pos += 1 + written;
      return;
    }
    const length = Buffer.byteLength(value, 'utf8');
    this.varint32(length);
    this.#room(length);
    this.pos += this.#buf.write(value, this.pos, 'utf8');
  }

  /** Reserves the length byte of a nested message; give the result to `end` once its fields are written. */
  begin(): number {
    this.#room(1);
    return this.pos++;
  }

  end(mark: number): void {
    const length = this.pos - mark - 1;
    if (length < 0x80) {
      this.#buf[mark] = length;
      return;
    }
    const size = varintSize(length);
    this.#room(size - 1);
    this.#buf.copyWithin(mark + size, mark + 1, this.pos);
    const after = this.pos + size - 1;
    this.pos = mark;
    this.varint32(length);
    this.pos = after;
  }

  #room(bytes: number): void {
    if (this.pos + bytes <= this.#buf.length) return;
    const grown = Buffer.allocUnsafe(Math.max(this.#buf.length * 2, this.pos + bytes));
    this.#buf.copy(grown, 0, 0, this.pos);
    this.#buf = grown;
  }
}

function varintSize(value: number): number {
  let size = 1;
  for (let rest = value >>> 7; rest !== 0; rest >>>= 7) size++;
  return size;
}

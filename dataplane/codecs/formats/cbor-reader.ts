// CBOR (RFC 8949) as JSON view text or values (view-sink.ts), by this small decoder rather than cbor-x's: cbor-x acts on its own
// extension tags in any payload whatever the options (record definitions that compile readers, packed
// values, shared references that build cycles, tag 27 that calls constructors), replaces invalid UTF-8
// silently and refuses indefinite-length strings. One data item per payload, read whole; every length is
// checked against the bytes left before anything is allocated; arrays, maps and tags count as nesting;
// each failure names its byte offset. The view (integers exact, byte strings base64, tag 0/1 as RFC 3339
// text, other tags transparent, text or integer keys only): docs/codec-formats.md, "CBOR".
import { fail } from './format-failure.js';
import { CBOR_MAX_BIGNUM_BYTES, MAX_DEPTH } from './format-limits.js';
import { epochText, halfFloat, negative } from './cbor-numbers.js';
import type { ViewSink } from './view-sink.js';

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const BREAK = 0xff;
const SHORT_STRING = 64;
/** false, true, null and undefined (which has no JSON form: null). */
const SIMPLE_VALUES: Record<number, boolean | null> = { 20: false, 21: true, 22: null, 23: null };
const INDEFINITE = 31;
const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/** The view (text or value, by `sink`) of a payload holding exactly one CBOR data item. */
export function cborView<V>(bytes: Uint8Array, sink: ViewSink<V>): V {
  if (bytes.length === 0) fail('SR3010', 'CBOR: an empty payload (expected one data item)');
  const reader = new CborReader(bytes, sink);
  const text = reader.item(0);
  if (reader.at !== bytes.length)
    reader.stop('SR3010', 'bytes after the data item (one item per payload)', reader.at);
  return text;
}

class CborReader<V> {
  at = 0;
  private readonly view: DataView;

  constructor(
    private readonly bytes: Uint8Array,
    private readonly sink: ViewSink<V>,
  ) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  item(depth: number): V {
    const start = this.at;
    const initial = this.take(1);
    const major = initial >> 5;
    const info = initial & 0x1f;
    switch (major) {
      case 0:
        return this.sink.integer(this.argument(info, start));
      case 1:
        return this.sink.integer(negative(this.argument(info, start)));
      case 2:
        return this.sink.bytes(this.byteString(info, start));
      case 3:
        return this.sink.string(this.textString(info, start));
      case 4:
        return this.array(info, start, depth);
      case 5:
        return this.map(info, start, depth);
      case 6:
        return this.tag(info, start, depth);
      default:
        return this.simple(info, start);
    }
  }

  stop(code: 'SR3010' | 'SR3011', problem: string, offset: number): never {
    const at = `byte offset ${offset}`;
    return fail(code, `CBOR: ${problem} at ${at}`, at);
  }

  /** The next `size` bytes as an unsigned integer (size 1, 2 or 4), after checking they are there. */
  private take(size: 1 | 2 | 4): number {
    this.need(size);
    const at = this.at;
    this.at += size;
    return size === 1
      ? (this.bytes[at] as number)
      : size === 2
        ? this.view.getUint16(at)
        : this.view.getUint32(at);
  }

  private need(size: number): void {
    if (size > this.bytes.length - this.at)
      this.stop('SR3010', 'the payload ends inside a data item', this.at);
  }

  /** The head's argument: a count, a length, an integer or a tag number (a bigint beyond 2^53). */
  private argument(info: number, start: number): number | bigint {
    if (info < 24) return info;
    if (info === 24) return this.take(1);
    if (info === 25) return this.take(2);
    if (info === 26) return this.take(4);
    if (info !== 27)
      this.stop('SR3010', `additional information ${info} (reserved or indefinite) here`, start);
    this.need(8);
    const value = this.view.getBigUint64(this.at);
    this.at += 8;
    return value <= MAX_SAFE ? Number(value) : value;
  }

  /** A definite length or count, refused when more than `perItem`-byte items could fit in what is left. */
  private length(info: number, start: number, perItem = 1): number {
    const length = this.argument(info, start);
    if (typeof length === 'bigint' || length * perItem > this.bytes.length - this.at) {
      this.stop('SR3010', 'a length beyond the end of the payload', start);
    }
    return length;
  }

  private byteString(info: number, start: number): Uint8Array {
    if (info === INDEFINITE) return Buffer.concat(this.chunks(2));
    const length = this.length(info, start);
    this.at += length;
    return this.bytes.subarray(this.at - length, this.at);
  }

  private textString(info: number, start: number): string {
    if (info === INDEFINITE) {
      return this.chunks(3)
        .map((chunk) => this.utf8(chunk, start))
        .join('');
    }
    const length = this.length(info, start);
    const from = this.at;
    this.at += length;
    // Short ASCII strings (most keys) are sliced directly: a TextDecoder call costs more than they do.
    if (length <= SHORT_STRING && isAscii(this.bytes, from, this.at))
      return String.fromCharCode.apply(null, this.bytes.subarray(from, this.at) as unknown as number[]);
    return this.utf8(this.bytes.subarray(from, this.at), start);
  }

  /** The chunks of an indefinite-length string: definite strings of the same major type, up to a break. */
  private chunks(major: 2 | 3): Uint8Array[] {
    const chunks: Uint8Array[] = [];
    while (!this.isBreak()) {
      const chunkStart = this.at;
      const initial = this.take(1);
      if (initial >> 5 !== major || (initial & 0x1f) === INDEFINITE) {
        this.stop(
          'SR3010',
          'an indefinite-length string with a chunk that is not a definite string of its type',
          chunkStart,
        );
      }
      chunks.push(this.byteString(initial & 0x1f, chunkStart));
    }
    return chunks;
  }

  private utf8(bytes: Uint8Array, start: number): string {
    try {
      return utf8.decode(bytes);
    } catch {
      return this.stop('SR3010', 'a text string that is not valid UTF-8', start);
    }
  }

  private array(info: number, start: number, depth: number): V {
    this.deeper(depth, start);
    let items = this.sink.array();
    if (info === INDEFINITE) {
      while (!this.isBreak()) items = this.sink.item(items, this.item(depth + 1));
    } else {
      const count = this.length(info, start);
      for (let i = 0; i < count; i += 1) items = this.sink.item(items, this.item(depth + 1));
    }
    return this.sink.endArray(items);
  }

  private map(info: number, start: number, depth: number): V {
    this.deeper(depth, start);
    const seen = new Set<string>();
    let object = this.sink.object();
    const count = info === INDEFINITE ? -1 : this.length(info, start, 2);
    for (let i = 0; count === -1 ? !this.isBreak() : i < count; i += 1) {
      const keyStart = this.at;
      const key = this.key();
      if (seen.has(key)) this.stop('SR3010', 'a duplicate map key', keyStart);
      seen.add(key);
      object = this.sink.entry(object, key, this.item(depth + 1));
    }
    return this.sink.endObject(object);
  }

  /** A map key as text: a text string as it is, an integer as its decimal digits. */
  private key(): string {
    const start = this.at;
    const initial = this.take(1);
    const major = initial >> 5;
    if (major === 3) return this.textString(initial & 0x1f, start);
    if (major === 0) return this.argument(initial & 0x1f, start).toString();
    if (major === 1) return negative(this.argument(initial & 0x1f, start)).toString();
    return this.stop(
      'SR3010',
      'a map key that is neither text nor an integer (the JSON view has text keys)',
      start,
    );
  }

  private tag(info: number, start: number, depth: number): V {
    this.deeper(depth, start);
    const tag = this.argument(info, start);
    if (tag === 0)
      return this.sink.string(this.textString(this.expect(3, 'tag 0 (a date/time string)'), this.at - 1));
    if (tag === 1) return this.epoch(start);
    if (tag === 2 || tag === 3) return this.bignum(tag, start);
    return this.item(depth + 1);
  }

  /** Tag 1: seconds since 1970 (an integer or a float) as RFC 3339 UTC text with milliseconds. */
  private epoch(start: number): V {
    const at = this.at;
    const initial = this.take(1);
    const info = initial & 0x1f;
    let seconds = NaN;
    if (initial >> 5 === 0) seconds = Number(this.argument(info, at));
    else if (initial >> 5 === 1) seconds = -1 - Number(this.argument(info, at));
    else if (initial >> 5 === 7 && info >= 25 && info <= 27) seconds = this.float(info);
    const text = epochText(seconds);
    if (text === undefined) this.stop('SR3010', 'tag 1 without an epoch time in years 0000–9999', start);
    return this.sink.string(text);
  }

  private bignum(tag: 2 | 3, start: number): V {
    const content = this.byteString(this.expect(2, `tag ${tag} (a bignum)`), this.at - 1);
    if (content.length > CBOR_MAX_BIGNUM_BYTES) {
      this.stop('SR3011', `a bignum longer than ${CBOR_MAX_BIGNUM_BYTES} bytes`, start);
    }
    const magnitude = content.length === 0 ? 0n : BigInt(`0x${Buffer.from(content).toString('hex')}`);
    return this.sink.integer(tag === 2 ? magnitude : -1n - magnitude);
  }

  /** Reads the head of a tag's content, which must have major type `major`; returns its additional info. */
  private expect(major: number, what: string): number {
    const at = this.at;
    const initial = this.take(1);
    if (initial >> 5 !== major) this.stop('SR3010', `${what} with content of the wrong type`, at);
    return initial & 0x1f;
  }

  private simple(info: number, start: number): V {
    const simple = SIMPLE_VALUES[info];
    if (simple !== undefined) return simple === null ? this.sink.null : this.sink.boolean(simple);
    if (info >= 25 && info <= 27) return this.sink.float(this.float(info));
    if (info === INDEFINITE) this.stop('SR3010', 'a break outside an indefinite-length item', start);
    if (info === 24 && this.take(1) < 32) this.stop('SR3010', 'a two-byte simple value below 32', start);
    return this.stop('SR3010', 'a simple value with no JSON view', start);
  }

  private float(info: number): number {
    if (info === 25) return halfFloat(this.take(2));
    const size = info === 26 ? 4 : 8;
    this.need(size);
    this.at += size;
    return size === 4 ? this.view.getFloat32(this.at - 4) : this.view.getFloat64(this.at - 8);
  }

  private isBreak(): boolean {
    this.need(1);
    if (this.bytes[this.at] !== BREAK) return false;
    this.at += 1;
    return true;
  }

  private deeper(depth: number, start: number): void {
    if (depth >= MAX_DEPTH) this.stop('SR3011', `nesting deeper than ${MAX_DEPTH}`, start);
  }
}

function isAscii(bytes: Uint8Array, from: number, to: number): boolean {
  for (let i = from; i < to; i += 1) if ((bytes[i] as number) >= 0x80) return false;
  return true;
}

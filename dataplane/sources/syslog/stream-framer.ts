// RFC 6587 framing of a syslog TCP/TLS byte stream (docs/syslog-wire.md, "Listeners"), as an explicit state
// machine over chunks. A listener gives each connection one framer and feeds it every chunk it reads;
// complete frames come out in order, and a lost frame boundary ends the stream with a FramingError (the
// listener closes only that connection: docs/syslog-wire.md, "Listeners"). Framing is detected per frame, so
// both forms may be interleaved:
//
//   frame-start ─digit→ count ─SP→ body ─MSG-LEN bytes→ frame-start      (octet counting, RFC 6587 §3.4.1)
//        │ LF: an empty frame, skipped and counted
//        └─other→ line ─LF→ frame-start                                   (non-transparent, RFC 6587 §3.4.2)
//
// Frames are `subarray` views of the chunk when they lie in one; a frame spanning chunks is copied into a
// buffer of its own, so per-connection memory stays bounded by `maxMessageSize` (plus one byte: a CR that
// may precede the LF). The result never depends on how the stream was split into chunks.
//
// Most chunks are runs of whole octet-counted frames, so between frames `push` first tries a straight loop
// over them (#wholeFrames); anything else — a frame cut by the chunk's end, a line, a count that breaks a
// rule — is left to the state machine from the frame's first byte, which then decides exactly as always.

// The bytes and the count limit are the emitters' too: one copy, in dataplane/net/syslog-framing.ts.
import { CR, DIGIT_0, DIGIT_9, LF, MAX_OCTET_COUNT_DIGITS, SP } from '../../net/syslog-framing.js';

export type FramingCause =
  'count_leading_zero' | 'count_zero' | 'count_too_long' | 'count_not_followed_by_space' | 'frame_too_large';

export interface FramingError {
  cause: FramingCause;
  /** human text: names the cause and sizes, never payload bytes */
  detail: string;
}

type State = 'frame-start' | 'count' | 'body' | 'line';

/** First allocation for a line that spans chunks; it doubles up to the limit. */
const MIN_LINE_HOLD = 256;

export class StreamFramer {
  readonly #max: number;
  #state: State = 'frame-start';
  #error: FramingError | undefined;
  #emptyFrames = 0;
  /** count: the digits read so far and their value. */
  #digits = 0;
  #count = 0;
  /** body: bytes still missing, and the frame's own buffer once it spans chunks. */
  #remaining = 0;
  #body: Buffer | undefined;
  #filled = 0;
  /** line: the bytes held for a line that spans chunks (`#held` of `#line.length` used). */
  #line: Buffer | undefined;
  #held = 0;
  /** The count of the frame #wholeFrames is at. */
  #whole = 0;

  constructor(maxMessageSize: number) {
    if (!(maxMessageSize >= 1))
      throw new RangeError(`maxMessageSize must be at least 1, got ${maxMessageSize}`);
    this.#max = maxMessageSize;
  }

  /** Bytes held for a frame not complete yet (0 between frames): count digits, space and body or line. */
  get pendingBytes(): number {
    switch (this.#state) {
      case 'frame-start':
        return 0;
      case 'count':
        return this.#digits;
      case 'body':
        return this.#digits + 1 + this.#count - this.#remaining;
      case 'line':
        return this.#held;
    }
  }

  /** Empty non-transparent frames (a stray LF, or CR LF) skipped so far. */
  get emptyFrames(): number {
    return this.#emptyFrames;
  }

  /** The error that ended the stream, if one did. */
  get error(): FramingError | undefined {
    return this.#error;
  }

  /**
   * Feeds one chunk; calls onFrame for each complete frame in order. Returns the error that ended the
   * stream (the framer then refuses further input), else undefined.
   */
  push(chunk: Buffer, onFrame: (frame: Buffer) => void): FramingError | undefined {
    const end = chunk.length;
    let at = 0;
    while (at < end && this.#error === undefined) {
      switch (this.#state) {
        case 'frame-start':
          at = this.#wholeFrames(chunk, at, onFrame);
          if (at < end) at = this.#frameStart(chunk, at);
          break;
        case 'count':
          at = this.#readCount(chunk, at);
          break;
        case 'body':
          at = this.#readBody(chunk, at, onFrame);
          break;
        case 'line':
          at = this.#readLine(chunk, at, onFrame);
          break;
      }
    }
    return this.#error;
  }

  /**
   * From a frame start: delivers the octet-counted frames that lie whole in the chunk and follow every
   * rule, and returns the index of the first frame that does not (or the chunk's end).
   */
  #wholeFrames(chunk: Buffer, start: number, onFrame: (frame: Buffer) => void): number {
    const end = chunk.length;
    let at = start;
    while (at < end) {
      const body = this.#wholeCount(chunk, at);
      const bodyEnd = body + this.#whole;
      if (body < 0 || bodyEnd > end) return at;
      onFrame(chunk.subarray(body, bodyEnd));
      at = bodyEnd;
    }
    return at;
  }

  /**
   * A valid MSG-LEN and its SP at `at`, within the listener's limit: sets `#whole` to it and returns the
   * index of the body; -1 for anything else (the state machine then reads it byte by byte).
   */
  #wholeCount(chunk: Buffer, at: number): number {
    let byte = chunk[at] ?? 0;
    if (byte <= DIGIT_0 || byte > DIGIT_9) return -1; // not a count, or a leading zero
    let i = at;
    let count = 0;
    do {
      count = count * 10 + (byte - DIGIT_0);
      byte = chunk[++i] ?? 0;
    } while (byte >= DIGIT_0 && byte <= DIGIT_9 && i - at < MAX_OCTET_COUNT_DIGITS);
    if (byte !== SP || count > this.#max) return -1;
    this.#whole = count;
    return i + 1;
  }

  /** RFC 6587 §3.4: the first byte of a frame tells the method (a digit: octet counting). */
  #frameStart(chunk: Buffer, at: number): number {
    const byte = chunk[at] ?? 0;
    if (byte >= DIGIT_0 && byte <= DIGIT_9) {
      this.#state = 'count';
      this.#digits = 0;
      this.#count = 0;
      return at;
    }
    if (byte === LF) {
      // A frame with no message (a stray LF between frames): nothing to deliver.
      this.#emptyFrames++;
      return at + 1;
    }
    this.#state = 'line';
    return at;
  }

  /** MSG-LEN = NONZERO-DIGIT *DIGIT (at most ten), then SP; decided before any body byte arrives. */
  #readCount(chunk: Buffer, start: number): number {
    const end = chunk.length;
    for (let at = start; at < end; at++) {
      const byte = chunk[at] ?? 0;
      if (byte >= DIGIT_0 && byte <= DIGIT_9) {
        if (this.#digits === 1 && this.#count === 0)
          return this.#fail('count_leading_zero', 'the octet count has a leading zero');
        if (this.#digits === MAX_OCTET_COUNT_DIGITS)
          return this.#fail(
            'count_too_long',
            `the octet count has more than ${MAX_OCTET_COUNT_DIGITS} digits`,
          );
        this.#count = this.#count * 10 + (byte - DIGIT_0);
        this.#digits++;
        continue;
      }
      return this.#countEnded(byte, at);
    }
    return end;
  }

  /** The byte after the digits: SP starts the body, when the count is a size this listener accepts. */
  #countEnded(byte: number, at: number): number {
    if (byte !== SP)
      return this.#fail(
        'count_not_followed_by_space',
        `the ${this.#digits}-digit octet count is not followed by a space`,
      );
    if (this.#count === 0) return this.#fail('count_zero', 'the octet count is 0');
    if (this.#count > this.#max)
      return this.#fail(
        'frame_too_large',
        `an octet-counted frame of ${this.#count} bytes exceeds max_message_size ${this.#max}`,
      );
    this.#state = 'body';
    this.#remaining = this.#count;
    return at + 1;
  }

  /** Exactly MSG-LEN bytes: a view when the chunk holds them all, else copied into the frame's buffer. */
  #readBody(chunk: Buffer, at: number, onFrame: (frame: Buffer) => void): number {
    const available = chunk.length - at;
    const body = this.#body;
    if (body === undefined && available >= this.#remaining) {
      const end = at + this.#remaining;
      this.#state = 'frame-start';
      onFrame(chunk.subarray(at, end));
      return end;
    }
    const target = body ?? Buffer.allocUnsafe(this.#count);
    const take = Math.min(available, this.#remaining);
    chunk.copy(target, this.#filled, at, at + take);
    this.#filled += take;
    this.#remaining -= take;
    if (this.#remaining > 0) {
      this.#body = target;
      return at + take;
    }
    this.#body = undefined;
    this.#filled = 0;
    this.#state = 'frame-start';
    onFrame(target);
    return at + take;
  }

  /** Up to LF; one CR directly before it is removed; longer than the limit fails as soon as it shows. */
  #readLine(chunk: Buffer, at: number, onFrame: (frame: Buffer) => void): number {
    const lf = chunk.indexOf(LF, at);
    if (lf === -1) {
      this.#hold(chunk, at);
      return chunk.length;
    }
    const total = this.#held + (lf - at);
    const last = lf > at ? chunk[lf - 1] : this.#line?.[this.#held - 1];
    const length = last === CR ? total - 1 : total;
    if (length > this.#max) return this.#tooLong(length);
    const held = this.#line;
    this.#line = undefined;
    this.#held = 0;
    this.#state = 'frame-start';
    if (length === 0) this.#emptyFrames++;
    else if (held === undefined) onFrame(chunk.subarray(at, at + length));
    else onFrame(joined(held, total - (lf - at), chunk.subarray(at, lf)).subarray(0, length));
    return lf + 1;
  }

  /** Keeps the rest of a chunk for a line without LF yet; max bytes plus a CR that may end it. */
  #hold(chunk: Buffer, at: number): void {
    const total = this.#held + chunk.length - at;
    const lastByte = chunk[chunk.length - 1];
    if (total > this.#max + 1 || (total === this.#max + 1 && lastByte !== CR)) {
      this.#tooLong(total);
      return;
    }
    let line = this.#line;
    if (line === undefined || line.length < total) {
      const grown = Buffer.allocUnsafe(Math.min(this.#max + 1, Math.max(MIN_LINE_HOLD, total * 2)));
      if (line !== undefined) line.copy(grown, 0, 0, this.#held);
      line = grown;
      this.#line = line;
    }
    chunk.copy(line, this.#held, at);
    this.#held = total;
  }

  #tooLong(length: number): number {
    return this.#fail(
      'frame_too_large',
      `a non-transparent frame of at least ${length} bytes exceeds max_message_size ${this.#max}`,
    );
  }

  #fail(cause: FramingCause, detail: string): number {
    this.#error = { cause, detail };
    this.#state = 'frame-start';
    this.#line = undefined;
    this.#held = 0;
    this.#body = undefined;
    return Number.POSITIVE_INFINITY;
  }
}

/** The held bytes of a line followed by its last piece, in one buffer (the held one when it has room). */
function joined(held: Buffer, heldLength: number, last: Buffer): Buffer {
  const total = heldLength + last.length;
  const target = held.length >= total ? held : Buffer.allocUnsafe(total);
  if (target !== held) held.copy(target, 0, 0, heldLength);
  last.copy(target, heldLength);
  return target.subarray(0, total);
}

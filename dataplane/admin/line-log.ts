// The lines of one relay that its subscriptions have not all taken yet: each record serialized once, as
// one NDJSON line of UTF-8 bytes every subscription of the relay shares (docs/admin-api.md, "Buffer
// limits"). Lines are numbered in arrival order; a subscription keeps the number of the next line it takes
// (its cursor), so a record costs the same whether one subscriber or a thousand lag behind.
//
// A line is a range of a block the log owns (64 KiB, written one line after the other), not a Buffer
// object of its own: no allocation per line, and not Node's shared Buffer pool, where a kept line would
// keep alive the 8 KiB slab of whatever else was allocated beside it. Lines are dropped oldest first, so a
// block is freed once its last line is; a large line gets a block of its own. The ring of ranges grows by
// doubling and shrinks again once it is mostly empty, so memory comes back after a burst, not only when the
// relay's last subscriber leaves. A line counts its bytes plus LINE_OVERHEAD_BYTES (its place in the ring),
// so what a log reports bounds its memory even for tiny records.
const MIN_SLOTS = 16;
const BLOCK_BYTES = 64 * 1024;
/** Text longer than this (UTF-16 units) gets a block of its own: it may not fit what is left of one. */
const OWN_BLOCK_CHARS = BLOCK_BYTES / 12;
/** What a kept line costs besides its bytes: its three ring slots, with the ring's slack, rounded up. */
export const LINE_OVERHEAD_BYTES = 64;

export class LineLog {
  #blocks: (Buffer | undefined)[] = new Array<Buffer | undefined>(MIN_SLOTS);
  #starts: number[] = new Array<number>(MIN_SLOTS).fill(0);
  #ends: number[] = new Array<number>(MIN_SLOTS).fill(0);
  /** Ring index of the oldest line. */
  #first = 0;
  #length = 0;
  /** Number of the oldest line kept. */
  #tail = 0;
  #bytes = 0;
  #block: Buffer | undefined;
  #offset = BLOCK_BYTES;

  /** Number of the next line appended (one past the newest). */
  get head(): number {
    return this.#tail + this.#length;
  }

  /** Number of the oldest line kept (equal to `head` when empty). */
  get tail(): number {
    return this.#tail;
  }

  get length(): number {
    return this.#length;
  }

  /** What the lines kept count: their bytes plus LINE_OVERHEAD_BYTES each. */
  get bytes(): number {
    return this.#bytes;
  }

  /** Allocated ring slots (for tests of the shrinking). */
  get capacity(): number {
    return this.#blocks.length;
  }

  /** Appends `text` (a line, its `\n` included) as UTF-8; returns what it counts. */
  append(text: string): number {
    if (this.#length === this.#blocks.length) this.#resize(this.#blocks.length * 2);
    let block: Buffer;
    let start: number;
    let end: number;
    if (text.length > OWN_BLOCK_CHARS) {
      block = Buffer.from(text, 'utf8');
      start = 0;
      end = block.length;
    } else {
      // At most 3 bytes per UTF-16 unit: the line fits what is left, or it goes to a new block.
      if (this.#block === undefined || this.#offset + text.length * 3 > BLOCK_BYTES) {
        this.#block = Buffer.allocUnsafeSlow(BLOCK_BYTES);
        this.#offset = 0;
      }
      block = this.#block;
      start = this.#offset;
      end = start + block.write(text, start, 'utf8');
      this.#offset = end;
    }
    const size = this.#blocks.length;
    const at =
      this.#first + this.#length < size ? this.#first + this.#length : this.#first + this.#length - size;
    this.#blocks[at] = block;
    this.#starts[at] = start;
    this.#ends[at] = end;
    this.#length++;
    const cost = end - start + LINE_OVERHEAD_BYTES;
    this.#bytes += cost;
    return cost;
  }

  /** The bytes of the line numbered `seq` (0 outside tail … head - 1). */
  lengthAt(seq: number): number {
    const at = this.#slot(seq);
    return at < 0 ? 0 : (this.#ends[at] as number) - (this.#starts[at] as number);
  }

  /** Copies the line numbered `seq` into `target` at `offset`; returns the bytes copied. */
  copyTo(seq: number, target: Buffer, offset: number): number {
    const at = this.#slot(seq);
    if (at < 0) return 0;
    return (this.#blocks[at] as Buffer).copy(target, offset, this.#starts[at], this.#ends[at]);
  }

  /** The line numbered `seq` as a view of its block (undefined outside tail … head - 1). */
  at(seq: number): Buffer | undefined {
    const at = this.#slot(seq);
    return at < 0 ? undefined : (this.#blocks[at] as Buffer).subarray(this.#starts[at], this.#ends[at]);
  }

  /** Drops the oldest line; returns what it counted (0 when empty). */
  dropOldest(): number {
    if (this.#length === 0) return 0;
    const at = this.#first;
    const cost = (this.#ends[at] as number) - (this.#starts[at] as number) + LINE_OVERHEAD_BYTES;
    this.#blocks[at] = undefined;
    this.#first = at + 1 === this.#blocks.length ? 0 : at + 1;
    this.#length--;
    this.#tail++;
    this.#bytes -= cost;
    const size = this.#blocks.length;
    if (size > MIN_SLOTS && this.#length <= size / 4) this.#resize(Math.max(MIN_SLOTS, size / 2));
    return cost;
  }

  /** Drops every line numbered below `seq`; returns what they counted. */
  trimTo(seq: number): number {
    let freed = 0;
    while (this.#tail < seq && this.#length > 0) freed += this.dropOldest();
    return freed;
  }

  /** Drops every line (numbering goes on) and the block being filled; returns what they counted. */
  clear(): number {
    const freed = this.#bytes;
    this.#tail += this.#length;
    this.#blocks = new Array<Buffer | undefined>(MIN_SLOTS);
    this.#starts = new Array<number>(MIN_SLOTS).fill(0);
    this.#ends = new Array<number>(MIN_SLOTS).fill(0);
    this.#first = 0;
    this.#length = 0;
    this.#bytes = 0;
    this.#block = undefined;
    this.#offset = BLOCK_BYTES;
    return freed;
  }

  #slot(seq: number): number {
    const offset = seq - this.#tail;
    if (offset < 0 || offset >= this.#length) return -1;
    const at = this.#first + offset;
    return at < this.#blocks.length ? at : at - this.#blocks.length;
  }

  #resize(slots: number): void {
    const size = this.#blocks.length;
    const blocks = new Array<Buffer | undefined>(slots);
    const starts = new Array<number>(slots).fill(0);
    const ends = new Array<number>(slots).fill(0);
    for (let index = 0; index < this.#length; index++) {
      const from = this.#first + index < size ? this.#first + index : this.#first + index - size;
      blocks[index] = this.#blocks[from];
      starts[index] = this.#starts[from] as number;
      ends[index] = this.#ends[from] as number;
    }
    this.#blocks = blocks;
    this.#starts = starts;
    this.#ends = ends;
    this.#first = 0;
  }
}

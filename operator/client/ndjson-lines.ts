// Splits a subscription stream into its lines (newline-delimited JSON, one record per line) as bytes
// arrive. Lines are split on the LF byte, so a record — or a UTF-8 character — split across chunks is
// completed from the following chunks; only a line that spans chunks is copied. Each line is passed on
// unchanged: the client prints records, it does not parse them. Empty lines (keep-alives) are skipped.

/** A line longer than the limit: the stream is not records, or the framing is lost. */
export class LineTooLongError extends Error {
  constructor(readonly limit: number) {
    super(`a line longer than ${limit} bytes`);
  }
}

export class NdjsonLines {
  #pending: Buffer[] = [];
  #pendingBytes = 0;

  constructor(readonly maxLineBytes: number) {}

  /** The lines this chunk completes, in order; the rest waits for the next chunk. */
  push(chunk: Buffer): string[] {
    const lines: string[] = [];
    let start = 0;
    for (let end = chunk.indexOf(0x0a); end !== -1; end = chunk.indexOf(0x0a, start)) {
      const line = this.#take(chunk.subarray(start, end));
      if (line.length > 0) lines.push(line.toString('utf8'));
      start = end + 1;
    }
    if (start < chunk.length) this.#keep(chunk.subarray(start));
    return lines;
  }

  /** Bytes of a line not yet ended: at the end of the stream, a record cut short. */
  get pendingBytes(): number {
    return this.#pendingBytes;
  }

  #take(end: Buffer): Buffer {
    this.#check(end.length);
    const line = this.#pending.length === 0 ? end : Buffer.concat([...this.#pending, end]);
    this.#pending = [];
    this.#pendingBytes = 0;
    return line;
  }

  #keep(part: Buffer): void {
    this.#check(part.length);
    this.#pending.push(part);
    this.#pendingBytes += part.length;
  }

  #check(more: number): void {
    if (this.#pendingBytes + more > this.maxLineBytes) throw new LineTooLongError(this.maxLineBytes);
  }
}

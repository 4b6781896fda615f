import assert from 'node:assert/strict';
import { LineTooLongError, NdjsonLines } from './ndjson-lines.js';

const STREAM = Buffer.from('{"a":"café ✓"}\n{"b":2}\n\n{"c":[1,2,3]}\n{"d":', 'utf8');
const LINES = ['{"a":"café ✓"}', '{"b":2}', '{"c":[1,2,3]}'];

function feed(splitter: NdjsonLines, chunks: Buffer[]): string[] {
  return chunks.flatMap((chunk) => splitter.push(chunk));
}

describe('NdjsonLines', () => {
  it('gives the same lines however the stream is cut into two chunks (every offset)', () => {
    for (let at = 0; at <= STREAM.length; at += 1) {
      const splitter = new NdjsonLines(1024);
      const lines = feed(splitter, [STREAM.subarray(0, at), STREAM.subarray(at)]);
      assert.deepEqual(lines, LINES, `cut at ${at}`);
      assert.equal(splitter.pendingBytes, 5, 'the unfinished record waits');
    }
  });

  it('gives the same lines one byte at a time (multi-byte characters split too)', () => {
    const splitter = new NdjsonLines(1024);
    const bytes = [...STREAM].map((byte) => Buffer.from([byte]));
    assert.deepEqual(feed(splitter, bytes), LINES);
  });

  it('several lines in one chunk, in order', () => {
    assert.deepEqual(new NdjsonLines(1024).push(Buffer.from('1\n2\n3\n')), ['1', '2', '3']);
  });

  it('a line longer than the limit is refused as it arrives, before it ends', () => {
    const splitter = new NdjsonLines(8);
    assert.deepEqual(splitter.push(Buffer.from('12345678\n1234')), ['12345678']);
    assert.throws(() => splitter.push(Buffer.from('56789')), LineTooLongError);
  });
});

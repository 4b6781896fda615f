import assert from 'node:assert/strict';
import { StreamFramer, type FramingCause } from './stream-framer.js';
import { frameAll, hex, MIXED, octet } from './stream-framer.fixtures.js';

const MIXED_FRAMES = [
  hex('<34>1 2024-01-01T00:00:00Z host app - - - counted\n'),
  hex('<13>plain line'),
  hex('<13>crlf line'),
  hex(Buffer.from([0x3c, 0x31, 0x33, 0x3e, 0xff, 0xfe, 0x00, 0x80])),
  hex(Buffer.from([0x3c, 0x31, 0x3e, 0xc3, 0x28, 0x00, 0x00])),
  hex('x'),
  hex('tail without cr'),
  hex('1234567890'),
  hex('\r'),
];

function splitAt(data: Buffer, ...offsets: number[]): Buffer[] {
  const chunks: Buffer[] = [];
  let from = 0;
  for (const offset of offsets) {
    chunks.push(data.subarray(from, offset));
    from = offset;
  }
  chunks.push(data.subarray(from));
  return chunks;
}

/** Whether `view` shares `chunk`'s memory (a zero-copy view). */
function inside(view: Buffer, chunk: Buffer): boolean {
  return (
    view.buffer === chunk.buffer &&
    view.byteOffset >= chunk.byteOffset &&
    view.byteOffset + view.length <= chunk.byteOffset + chunk.length
  );
}

describe('StreamFramer', () => {
  it('frames a mixed stream delivered whole', () => {
    const outcome = frameAll([MIXED], 1024);
    assert.deepEqual(outcome, { frames: MIXED_FRAMES, emptyFrames: 2, error: undefined, pendingBytes: 0 });
  });

  it('gives the same result for a split at every byte offset, and for every pair of offsets', () => {
    const whole = frameAll([MIXED], 1024);
    for (let a = 0; a <= MIXED.length; a++) {
      assert.deepEqual(frameAll(splitAt(MIXED, a), 1024), whole, `split at ${a}`);
      for (let b = a; b <= MIXED.length; b += 7)
        assert.deepEqual(frameAll(splitAt(MIXED, a, b), 1024), whole, `split at ${a}, ${b}`);
    }
  });

  it('gives the same result one byte at a time', () => {
    const chunks = [...MIXED].map((byte) => Buffer.from([byte]));
    assert.deepEqual(frameAll(chunks, 1024), frameAll([MIXED], 1024));
  });

  it('hands out views of the chunk for a frame inside it, and a copy for one spanning chunks', () => {
    const framer = new StreamFramer(100);
    const chunk = Buffer.from('5 hello<1>line\n3 ab');
    const frames: Buffer[] = [];
    framer.push(chunk, (frame) => frames.push(frame));
    assert.equal(frames.length, 2);
    assert.ok(inside(frames[0]!, chunk) && inside(frames[1]!, chunk));
    assert.equal(frames[0]!.byteOffset, chunk.byteOffset + 2);
    assert.equal(framer.pendingBytes, 4);
    framer.push(Buffer.from('c'), (frame) => frames.push(frame));
    assert.equal(frames[2]!.toString(), 'abc');
    assert.ok(!inside(frames[2]!, chunk));
    assert.equal(framer.pendingBytes, 0);
  });

  it('counts pending bytes of an incomplete frame of either form', () => {
    const framer = new StreamFramer(100);
    const none = (): void => assert.fail('no frame expected');
    framer.push(Buffer.from('12'), none);
    assert.equal(framer.pendingBytes, 2);
    framer.push(Buffer.from(' abc'), none);
    assert.equal(framer.pendingBytes, 6);
    const line = new StreamFramer(100);
    line.push(Buffer.from('<13>abc'), none);
    assert.equal(line.pendingBytes, 7);
  });

  const errors: [string, FramingCause, number][] = [
    ['0 x', 'count_zero', 0],
    ['012 abcdefghijkl', 'count_leading_zero', 0],
    ['00 ', 'count_leading_zero', 0],
    ['12345678901 x', 'count_too_long', 0],
    ['2024-01-01 12:00:00 host app: text\n', 'count_not_followed_by_space', 0],
    ['5\nhello', 'count_not_followed_by_space', 0],
    ['101 ', 'frame_too_large', 0],
    ['9999999999 ', 'frame_too_large', 0],
    ['3 abc4 abcd12\n', 'count_not_followed_by_space', 2],
  ];
  for (const [input, cause, framesBefore] of errors) {
    it(`fails with ${cause} on ${JSON.stringify(input)}, after ${framesBefore} frames`, () => {
      const outcome = frameAll([Buffer.from(input)], 100);
      assert.equal(outcome.error, cause);
      assert.equal(outcome.frames.length, framesBefore);
    });
  }

  it('decides an oversized count before the body arrives, and names sizes but no payload', () => {
    const framer = new StreamFramer(100);
    const error = framer.push(Buffer.from('<13>secret-payload\n200 '), () => {});
    assert.equal(error?.cause, 'frame_too_large');
    assert.match(error?.detail ?? '', /200 bytes exceeds max_message_size 100/);
    assert.doesNotMatch(error?.detail ?? '', /secret/);
  });

  it('refuses input after an error', () => {
    const framer = new StreamFramer(10);
    const first = framer.push(Buffer.from('0 '), () => {});
    let called = false;
    const again = framer.push(Buffer.from('3 abc'), () => (called = true));
    assert.equal(again, first);
    assert.equal(called, false);
    assert.equal(framer.pendingBytes, 0);
  });

  describe('max_message_size boundaries', () => {
    const max = 16;
    const body = 'a'.repeat(max);
    it('an octet-counted frame of exactly max is delivered, max+1 fails', () => {
      assert.deepEqual(frameAll([octet(body)], max).frames, [hex(body)]);
      assert.equal(frameAll([octet(`${body}b`)], max).error, 'frame_too_large');
    });
    it('a line of exactly max is delivered (LF or CR LF), max+1 fails', () => {
      assert.deepEqual(frameAll([Buffer.from(`${body}\n`)], max).frames, [hex(body)]);
      assert.deepEqual(frameAll([Buffer.from(`${body}\r\n`)], max).frames, [hex(body)]);
      assert.equal(frameAll([Buffer.from(`${body}b\n`)], max).error, 'frame_too_large');
      assert.equal(frameAll([Buffer.from(`${body}b\r\n`)], max).error, 'frame_too_large');
    });
    it('a line of max bytes, split before its CR LF, waits for the LF and is delivered', () => {
      const data = Buffer.from(`${body}\r\n<1>next\n`);
      for (let at = 0; at <= data.length; at++)
        assert.deepEqual(frameAll(splitAt(data, at), max).frames, [hex(body), hex('<1>next')], `at ${at}`);
    });
    it('a line without LF fails as soon as the excess arrives (memory stays bounded)', () => {
      const framer = new StreamFramer(max);
      assert.equal(
        framer.push(Buffer.from(body), () => {}),
        undefined,
      );
      assert.equal(framer.pendingBytes, max);
      assert.equal(
        framer.push(Buffer.from('\r'), () => {}),
        undefined,
        'a CR may still precede the LF',
      );
      assert.equal(framer.push(Buffer.from('x'), () => {})?.cause, 'frame_too_large');
    });
    it('a line of max+1 without CR fails before any LF', () => {
      assert.equal(frameAll([Buffer.from(`${body}b`)], max).error, 'frame_too_large');
    });
  });

  it('skips empty frames (stray LF, CR LF) and counts them', () => {
    const outcome = frameAll([Buffer.from('\n\r\n\n3 abc\n\n<1>x\n')], 100);
    assert.deepEqual(outcome.frames, [hex('abc'), hex('<1>x')]);
    assert.equal(outcome.emptyFrames, 5);
  });

  it('keeps NUL bytes and a lone CR inside a line as payload', () => {
    const outcome = frameAll([Buffer.from('a\u0000b\rc\u0000\r\n')], 100);
    assert.deepEqual(outcome.frames, [hex('a\u0000b\rc\u0000')]);
  });

  describe('a chunk of whole octet-counted frames, then one that breaks a rule', () => {
    const whole = Buffer.from('3 abc5 hello1 x');
    const cases: [name: string, tail: string, cause: FramingCause | undefined, frames: string[]][] = [
      ['a leading zero', '03 abc', 'count_leading_zero', []],
      ['eleven digits', '12345678901 x', 'count_too_long', []],
      ['ten digits over the limit', '1234567890 x', 'frame_too_large', []],
      ['a count over the limit', '65 x', 'frame_too_large', []],
      ['no SP after the count', '3xabc', 'count_not_followed_by_space', []],
      ['a frame cut by the chunk end', '4 ab', undefined, []],
      ['a line', 'plain\n', undefined, ['plain']],
      ['the limit exactly', `64 ${'y'.repeat(64)}`, undefined, ['y'.repeat(64)]],
    ];
    for (const [name, tail, cause, frames] of cases) {
      it(`${name}: the frames before it come out, then the state machine decides`, () => {
        const outcome = frameAll([Buffer.concat([whole, Buffer.from(tail)])], 64);
        assert.deepEqual(outcome.frames, [...['abc', 'hello', 'x'], ...frames].map(hex));
        assert.equal(outcome.error, cause);
      });
    }
  });
});

// RFC 6587 stream framing (dataplane/sources/syslog/stream-framer.ts): the frames, the error and the bytes
// left pending must not depend on how the stream was split into chunks. The same bytes are framed whole,
// one byte at a time, and at random cut points, with a max_message_size chosen per input.
import assert from 'node:assert/strict';
import { frameAll, MIXED } from '../../../dataplane/sources/syslog/stream-framer.fixtures.js';
import type { Rng } from '../mutate.js';
import { filesEnding, texts } from '../seeds.js';
import type { FuzzTarget } from '../target.js';

const MAX_SIZES = [1, 2, 8, 48, 1024, 131_072];

function randomCuts(data: Buffer, rng: Rng): Buffer[] {
  const chunks: Buffer[] = [];
  let from = 0;
  while (from < data.length) {
    const to = Math.min(
      data.length,
      from + (rng.chance(0.1) ? 0 : rng.size(Math.max(1, data.length - from))),
    );
    chunks.push(data.subarray(from, to));
    from = to;
  }
  return chunks;
}

function eachByte(data: Buffer): Buffer[] {
  const chunks: Buffer[] = [];
  for (let at = 0; at < data.length; at++) chunks.push(data.subarray(at, at + 1));
  return chunks;
}

export const target: FuzzTarget = {
  // A listener reads a stream, not a message: a few frames of the default 128 KiB limit.
  maxBytes: 512 * 1024,
  tokens: [
    '1 ',
    '9 ',
    '10 ',
    '0 ',
    '01 ',
    '99 ',
    '4294967295 ',
    '12345678901 ',
    '5x',
    '\n',
    '\r\n',
    '\r',
    '\0',
    '<13>',
    '<34>1 ',
    'x',
  ],
  nests: [
    ['1 ', ''],
    ['\n', ''],
    ['9 ', ''],
  ],
  seeds: () => [
    MIXED,
    ...filesEnding(['examples'], ['.syslog']),
    ...texts('<13>a\n<13>b\r\n', '5 <13>a3 <1>\n', '2 ab\n\n\n7 <13>abc'),
  ],
  run(input, rng) {
    const data = Buffer.from(input);
    const max = rng.pick(MAX_SIZES);
    const whole = frameAll([data], max);
    const split = rng.chance(0.2) && data.length <= 64 * 1024 ? eachByte(data) : randomCuts(data, rng);
    assert.deepEqual(frameAll(split, max), whole, `framing depends on the split (max_message_size ${max})`);
    return whole.error === undefined && whole.frames.length > 0;
  },
};

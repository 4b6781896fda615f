import assert from 'node:assert/strict';
import fc from 'fast-check';
import { frameAll, MIXED } from './stream-framer.fixtures.js';

/** One frame of any form, including malformed ones, so the error outcome is exercised too. */
const piece = fc.oneof(
  { weight: 4, arbitrary: fc.uint8Array({ minLength: 1, maxLength: 40 }).map(octetCounted) },
  { weight: 4, arbitrary: fc.uint8Array({ maxLength: 40 }).map((bytes) => line(bytes, '\n')) },
  { weight: 2, arbitrary: fc.uint8Array({ maxLength: 40 }).map((bytes) => line(bytes, '\r\n')) },
  { weight: 1, arbitrary: fc.constantFrom('\n', '\r\n', '\u0000\n').map((text) => Buffer.from(text)) },
  {
    weight: 1,
    arbitrary: fc
      .constantFrom('0 ', '01 a', '12345678901 ', '5x', '2024-01-01 x\n', '99 ')
      .map((text) => Buffer.from(text)),
  },
);

function octetCounted(bytes: Uint8Array): Buffer {
  return Buffer.concat([Buffer.from(`${bytes.length} `), bytes]);
}

/** A non-transparent frame: no LF inside, and not starting with a digit (that would be octet counting). */
function line(bytes: Uint8Array, end: string): Buffer {
  const body = Buffer.from(bytes.filter((byte) => byte !== 0x0a));
  if (body.length > 0 && body[0]! >= 0x30 && body[0]! <= 0x39) body[0] = 0x3c;
  return Buffer.concat([body, Buffer.from(end)]);
}

/** Cuts `data` at the given offsets (any order, duplicates allowed: empty chunks too). */
function cut(data: Buffer, offsets: number[]): Buffer[] {
  const points = offsets.map((offset) => offset % (data.length + 1)).sort((a, b) => a - b);
  const chunks: Buffer[] = [];
  let from = 0;
  for (const point of points) {
    chunks.push(data.subarray(from, point));
    from = point;
  }
  chunks.push(data.subarray(from));
  return chunks;
}

describe('StreamFramer (property)', () => {
  it('any re-splitting of a random stream gives the result of whole delivery, errors included', () => {
    fc.assert(
      fc.property(
        fc.array(piece, { maxLength: 20 }),
        fc.array(fc.nat(), { maxLength: 30 }),
        fc.integer({ min: 1, max: 48 }),
        (pieces, offsets, max) => {
          const data = Buffer.concat(pieces);
          assert.deepEqual(frameAll(cut(data, offsets), max), frameAll([data], max));
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('any re-splitting of the mixed fixture gives the result of whole delivery', () => {
    fc.assert(
      fc.property(fc.array(fc.nat(), { maxLength: 40 }), (offsets) => {
        assert.deepEqual(frameAll(cut(MIXED, offsets), 1024), frameAll([MIXED], 1024));
      }),
    );
  });

  it('frames of well-formed pieces come out as their payloads', () => {
    fc.assert(
      fc.property(fc.array(fc.uint8Array({ minLength: 1, maxLength: 60 }), { maxLength: 10 }), (bodies) => {
        const data = Buffer.concat(bodies.map(octetCounted));
        const outcome = frameAll([data], 60);
        assert.deepEqual(
          outcome.frames,
          bodies.map((body) => Buffer.from(body).toString('hex')),
        );
        assert.equal(outcome.error, undefined);
      }),
    );
  });
});

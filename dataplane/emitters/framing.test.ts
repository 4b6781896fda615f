import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { MessageError } from '../core/errors.js';
import {
  UDP_MAX_PAYLOAD,
  datagramError,
  datagramFrame,
  isFramingError,
  nonTransparentFrame,
  octetCountedFrame,
  streamFrameError,
  streamFrameLength,
  writeStreamFrames,
  type StreamFraming,
} from './framing.js';

const bytes = (text: string): Uint8Array => Buffer.from(text, 'utf8');
const text = (frame: Uint8Array | MessageError): string => {
  assert.ok(!isFramingError(frame), isFramingError(frame) ? frame.reason : '');
  return Buffer.from(frame).toString('utf8');
};
const code = (frame: Uint8Array | MessageError): string => {
  assert.ok(isFramingError(frame), 'a message error was expected');
  return frame.code;
};

describe('emitter framing (docs/syslog-wire.md "Emitters")', () => {
  it('octet-counting: decimal byte length, one space, the payload (bytes, not characters)', () => {
    assert.equal(text(octetCountedFrame(bytes('<13>1 - - - - - - é'))), '20 <13>1 - - - - - - é');
  });

  it('octet-counting: a count of ten digits is written, eleven is SR3031 before anything is built', () => {
    assert.ok(text(octetCountedFrame(bytes('x'), 9_999_999_999)).startsWith('9999999999 x'));
    const error = octetCountedFrame(bytes('x'), 10_000_000_000);
    assert.equal(code(error), 'SR3031');
    assert.match((error as MessageError).reason, /ten digits/);
  });

  it('non-transparent: the payload and LF; CR inside is carried', () => {
    assert.equal(text(nonTransparentFrame(bytes('<13>1 - - - - - - a\rb'))), '<13>1 - - - - - - a\rb\n');
  });

  it('non-transparent: a payload containing LF is SR3032', () => {
    assert.equal(code(nonTransparentFrame(bytes('<13>1 - - - - - - two\nlines'))), 'SR3032');
  });

  it('UDP: up to 65,507 bytes is one datagram as it is, one more is SR3030', () => {
    const payload = new Uint8Array(UDP_MAX_PAYLOAD);
    assert.equal(datagramFrame(payload), payload);
    assert.equal(code(datagramFrame(new Uint8Array(UDP_MAX_PAYLOAD + 1))), 'SR3030');
    assert.equal(code(datagramFrame(new Uint8Array(1), 70_000)), 'SR3030');
  });
});

describe('emitter framing of a whole batch (one buffer per write)', () => {
  const framings: StreamFraming[] = ['octet-counted', 'non-transparent'];
  const messages = fc.array(
    fc.uint8Array({ maxLength: 300 }).map((data) => Buffer.from(data.map((b) => (b === 0x0a ? 0x20 : b)))),
    { maxLength: 40 },
  );

  it('writes the same bytes as framing each message and concatenating the frames', () => {
    fc.assert(
      fc.property(fc.constantFrom(...framings), messages, (framing, list) => {
        const entries = list.map((message) => ({ message }));
        const total = list.reduce((sum, m) => sum + streamFrameLength(framing, m.length), 0);
        const one = (m: Uint8Array): Uint8Array => {
          const frame = framing === 'octet-counted' ? octetCountedFrame(m) : nonTransparentFrame(m);
          assert.ok(!isFramingError(frame));
          return frame;
        };
        const expected = Buffer.concat(list.map(one));
        assert.equal(total, expected.length);
        assert.deepEqual(Buffer.from(writeStreamFrames(framing, entries, total)), expected);
      }),
    );
  });

  it('counts frame lengths across digit boundaries', () => {
    for (const [size, length] of [
      [0, 2],
      [9, 11],
      [10, 13],
      [99, 102],
      [100, 104],
    ] as const) {
      assert.equal(streamFrameLength('octet-counted', size), length);
      assert.equal(streamFrameLength('non-transparent', size), size + 1);
    }
  });

  it('says before writing which messages cannot be framed (SR3032, SR3030), and passes the others', () => {
    assert.equal(streamFrameError('non-transparent', bytes('a\nb'))?.code, 'SR3032');
    assert.equal(streamFrameError('non-transparent', bytes('a\rb')), undefined);
    assert.equal(streamFrameError('octet-counted', bytes('a\nb')), undefined);
    assert.equal(datagramError(new Uint8Array(UDP_MAX_PAYLOAD + 1))?.code, 'SR3030');
    assert.equal(datagramError(new Uint8Array(UDP_MAX_PAYLOAD)), undefined);
  });
});

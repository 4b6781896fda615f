import assert from 'node:assert/strict';
import type { MessageError } from '../runtime/errors.js';
import {
  UDP_MAX_PAYLOAD,
  datagramFrame,
  isFramingError,
  nonTransparentFrame,
  octetCountedFrame,
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

describe('emitter framing (spec §4.4, §8)', () => {
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

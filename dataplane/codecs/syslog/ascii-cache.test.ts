import assert from 'node:assert/strict';
import fc from 'fast-check';
import { AsciiCache, asciiText } from './ascii-cache.js';

const ascii = (text: string): Uint8Array => Buffer.from(text, 'latin1');

describe('AsciiCache', () => {
  it('returns the text of the range, short and long, and the same string on a repeat', () => {
    const cache = new AsciiCache();
    const bytes = ascii('<13>1 - web-01.prod.example.com nginx 1234 ID47 -');
    assert.equal(cache.text(bytes, 8, 31), 'web-01.prod.example.com');
    assert.equal(cache.text(bytes, 38, 42), '1234');
    assert.equal(cache.text(bytes, 8, 31), 'web-01.prod.example.com');
    assert.equal(cache.text(bytes, 0, 0), '');
  });

  it('compares bytes, not offsets: a reused buffer with new content gives the new text', () => {
    const cache = new AsciiCache();
    const bytes = ascii('host-a');
    assert.equal(cache.text(bytes, 0, 6), 'host-a');
    bytes[5] = 0x62; // the same range now reads host-b
    assert.equal(cache.text(bytes, 0, 6), 'host-b');
    bytes.set(ascii('host-a'));
    assert.equal(cache.text(bytes, 0, 6), 'host-a');
  });

  it('values longer than it keeps are made every time, correctly', () => {
    const cache = new AsciiCache();
    const long = 'h'.repeat(200) + '.example.com';
    assert.equal(cache.text(ascii(long), 0, long.length), long);
    assert.equal(cache.text(ascii(long), 0, long.length), long);
  });

  it('always gives what a latin1 slice gives, whatever the sequence of values (property)', () => {
    const value = fc.oneof(
      fc.constantFrom('web-01.prod.example.com', 'web-02.prod.example.com', 'db-01', 'edge-7', '-', 'x'),
      fc.string({
        unit: fc.integer({ min: 33, max: 126 }).map((code) => String.fromCharCode(code)),
        maxLength: 70,
      }),
    );
    fc.assert(
      fc.property(fc.array(value, { maxLength: 200 }), (values) => {
        const cache = new AsciiCache();
        for (const text of values) {
          const bytes = ascii(`<${text}>`);
          assert.equal(cache.text(bytes, 1, bytes.length - 1), text);
          assert.equal(asciiText(bytes, 1, bytes.length - 1), text);
        }
      }),
    );
  });
});

import assert from 'node:assert/strict';
import { Instant } from '../../core/values.js';
import { timestampText } from './timestamp-text.js';

const at = (nanos: bigint) => timestampText(new Instant(nanos));

describe('RFC 5424 TIMESTAMP text', () => {
  it('truncates to microseconds and drops trailing zeros', () => {
    assert.equal(at(1_065_910_455_003_000_000n), '2003-10-11T22:14:15.003Z');
    assert.equal(at(1_065_910_455_123_456_789n), '2003-10-11T22:14:15.123456Z');
    assert.equal(at(1_065_910_455_000_000_999n), '2003-10-11T22:14:15Z');
  });

  it('is right within the first second of the epoch and around the cached second', () => {
    assert.equal(at(1n), '1970-01-01T00:00:00Z');
    assert.equal(at(999_999_999n), '1970-01-01T00:00:00.999999Z');
    assert.equal(at(1_000_000_000n), '1970-01-01T00:00:01Z');
    assert.equal(at(-1n), '1969-12-31T23:59:59.999999Z');
    assert.equal(at(-1_000_000_000n), '1969-12-31T23:59:59Z');
    assert.equal(at(0n), '1970-01-01T00:00:00Z');
  });

  it('writes the years 0000–9999 and nothing outside them', () => {
    assert.equal(at(-62_167_219_200n * 1_000_000_000n), '0000-01-01T00:00:00Z');
    assert.equal(at(253_402_300_799_999_999_999n), '9999-12-31T23:59:59.999999Z');
    assert.equal(at(253_402_300_800n * 1_000_000_000n), undefined);
    assert.equal(at(-62_167_219_200n * 1_000_000_000n - 1n), undefined);
  });
});

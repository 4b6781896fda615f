import assert from 'node:assert/strict';
import fc from 'fast-check';
import { parseRfc3339 } from './rfc3339.js';
import { Instant } from './values.js';

describe('RFC 3339 timestamps', () => {
  const valid: [string, string][] = [
    ['2026-11-22T03:08:00Z', '2026-11-22T03:08:00Z'],
    ['2026-11-22t03:08:00z', '2026-11-22T03:08:00Z'],
    ['2026-11-22T03:08:00.123456789Z', '2026-11-22T03:08:00.123456789Z'],
    ['2026-11-22T03:08:00.1234567891234Z', '2026-11-22T03:08:00.123456789Z'], // truncated to nanoseconds
    ['1985-04-12T23:20:50.52-04:00', '1985-04-13T03:20:50.52Z'],
    ['2024-02-29T00:00:00+14:00', '2024-02-28T10:00:00Z'],
    ['0001-01-01T00:00:00Z', '0001-01-01T00:00:00Z'],
    ['1969-12-31T23:59:59.5Z', '1969-12-31T23:59:59.5Z'],
  ];
  for (const [text, utc] of valid) {
    it(`reads ${text}`, () => assert.equal(parseRfc3339(text)?.toRfc3339(), utc));
  }

  const invalid = [
    '',
    '2026-11-22',
    '2026-11-22 03:08:00Z',
    '2026-11-22T03:08:00',
    '2026-13-01T00:00:00Z',
    '2026-02-29T00:00:00Z',
    '2026-04-31T00:00:00Z',
    '2026-11-22T24:00:00Z',
    '2026-11-22T23:60:00Z',
    '2026-11-22T23:59:60Z',
    '2026-11-22T23:59:59+24:00',
    '2026-11-22T23:59:59.Z',
    '+2026-11-22T23:59:59Z',
    ' 2026-11-22T23:59:59Z',
  ];
  for (const text of invalid) {
    it(`refuses ${JSON.stringify(text)}`, () => assert.equal(parseRfc3339(text), undefined));
  }

  it('reads back what Instant writes, to the nanosecond', () => {
    const min = -62135596800n * 1_000_000_000n; // 0001-01-01
    const max = 253402300799n * 1_000_000_000n + 999_999_999n; // 9999-12-31T23:59:59.999999999
    fc.assert(
      fc.property(fc.bigInt({ min, max }), (nanos) => {
        const instant = new Instant(nanos);
        assert.equal(parseRfc3339(instant.toRfc3339())?.epochNanos, nanos);
      }),
    );
  });
});

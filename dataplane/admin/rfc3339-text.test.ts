import assert from 'node:assert/strict';
import fc from 'fast-check';
import { Instant } from '../core/values.js';
import { rfc3339Text } from './rfc3339-text.js';

const NANOS = 1_000_000_000n;
const FIRST = -62_167_219_200n * NANOS; // 0000-01-01T00:00:00Z
const END = 253_402_300_800n * NANOS; // 10000-01-01T00:00:00Z

describe('rfc3339Text', () => {
  const cases: [bigint, string][] = [
    [0n, '1970-01-01T00:00:00Z'],
    [1n, '1970-01-01T00:00:00.000000001Z'],
    [-1n, '1969-12-31T23:59:59.999999999Z'],
    [BigInt(Date.parse('2026-11-22T03:08:00.5Z')) * 1_000_000n, '2026-11-22T03:08:00.5Z'],
    [BigInt(Date.parse('2000-02-29T12:00:00Z')) * 1_000_000n + 120n, '2000-02-29T12:00:00.00000012Z'],
    [BigInt(Date.parse('1900-03-01T00:00:00Z')) * 1_000_000n, '1900-03-01T00:00:00Z'],
    [FIRST, '0000-01-01T00:00:00Z'],
    [END - 1n, '9999-12-31T23:59:59.999999999Z'],
  ];
  for (const [nanos, text] of cases) {
    it(`writes ${nanos} ns as ${text}`, () => assert.equal(rfc3339Text(new Instant(nanos)), text));
  }

  it('is the text of Instant#toRfc3339 for every instant of the years 0000–9999', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: FIRST, max: END - 1n }), (nanos) => {
        const instant = new Instant(nanos);
        assert.equal(rfc3339Text(instant), instant.toRfc3339());
      }),
      { numRuns: 20_000 },
    );
  });

  it('leaves instants outside those years to Instant#toRfc3339', () => {
    const late = new Instant(END + 5n * NANOS);
    assert.equal(rfc3339Text(late), late.toRfc3339());
  });
});

import assert from 'node:assert/strict';
import { readRfc3339 } from './rfc3339-bytes.js';
import { SyslogScan } from './syslog-scan.js';

/** [index after the date-time, epoch seconds, nanoseconds], or -1. */
function read(text: string): number | [number, number, number] {
  const scan = new SyslogScan({ current: () => 2025 });
  const bytes = new TextEncoder().encode(text);
  const next = readRfc3339(bytes, 0, bytes.length, scan);
  return next < 0 ? next : [next, scan.seconds, scan.nanos];
}

describe('RFC 3339 date-times read from bytes', () => {
  const valid: [string, [number, number, number]][] = [
    ['1970-01-01T00:00:00Z', [20, 0, 0]],
    ['1970-01-01T00:00:00Z rest', [20, 0, 0]],
    ['2003-10-11T22:14:15.003Z', [24, 1_065_910_455, 3_000_000]],
    ['2003-08-24T05:14:15.000003-07:00', [32, 1_061_727_255, 3_000]],
    ['2026-06-03t12:00:00.123456789z', [30, 1_780_488_000, 123_456_789]],
    ['2026-06-03T12:00:00.1234567891234Z', [34, 1_780_488_000, 123_456_789]],
    ['2024-02-29T23:59:59+23:59', [25, 1_709_164_859, 0]],
    ['0000-01-01T00:00:00Z', [20, -62_167_219_200, 0]],
  ];
  for (const [text, expected] of valid) it(`reads ${text}`, () => assert.deepEqual(read(text), expected));

  const invalid = [
    '2025-02-29T00:00:00Z',
    '2025-13-01T00:00:00Z',
    '2025-00-01T00:00:00Z',
    '2025-04-31T00:00:00Z',
    '2025-01-01T24:00:00Z',
    '2025-01-01T23:60:00Z',
    '2025-01-01T23:59:60Z',
    '2025-01-01 23:59:59Z',
    '2025-01-01T23:59:59',
    '2025-01-01T23:59:59.Z',
    '2025-01-01T23:59:59+24:00',
    '2025-01-01T23:59:59+0100',
    '2025-01-01T23:59:59Zx',
    '25-01-01T23:59:59Z',
    '2025-1-01T23:59:59Z',
  ];
  for (const text of invalid) it(`refuses ${text}`, () => assert.equal(read(text), -1));

  it('gives the same answers in any order (the last date-time read is kept and compared by bytes)', () => {
    const texts = [...valid.map(([text]) => text), ...invalid];
    const expected = new Map(texts.map((text) => [text, read(text)]));
    for (let round = 0; round < 3; round++) {
      for (const text of [...texts].reverse()) assert.deepEqual(read(text), expected.get(text), text);
      // the same second twice, then one differing in a single byte of each position
      const base = '2003-10-11T22:14:15Z';
      assert.deepEqual(read(base), read(base));
      for (let i = 0; i < 19; i++) {
        const bytes = new TextEncoder().encode(base);
        bytes[i] = bytes[i] === 0x31 ? 0x30 : 0x31;
        const changed = new TextDecoder().decode(bytes);
        assert.notDeepEqual(read(changed), read(base), changed);
      }
    }
  });
});

import assert from 'node:assert/strict';
import { readBsdTimestamp } from './bsd-timestamp.js';
import { SyslogScan } from './syslog-scan.js';

/** [index after the timestamp and its separator, the timestamp as RFC 3339], or -1. */
function read(text: string, year = 2025): number | [number, string] {
  const scan = new SyslogScan({ current: () => year });
  const bytes = new TextEncoder().encode(text);
  const next = readBsdTimestamp(bytes, 0, bytes.length, scan);
  if (next < 0) return next;
  const at = new Date(scan.seconds * 1000).toISOString().replace('.000Z', '');
  return [next, scan.nanos === 0 ? `${at}Z` : `${at}.${String(scan.nanos).padStart(9, '0')}Z`];
}

describe('RFC 3164 (BSD) timestamps', () => {
  const valid: [string, [number, string]][] = [
    ['Jun  3 12:00:00 host', [16, '2025-06-03T12:00:00Z']],
    ['Jun 03 12:00:00 host', [16, '2025-06-03T12:00:00Z']],
    ['Jun 3 12:00:00 host', [15, '2025-06-03T12:00:00Z']],
    ['Dec 31 23:59:59', [15, '2025-12-31T23:59:59Z']],
    ['Mar  1 18:48:50.483 UTC: %SYS', [25, '2025-03-01T18:48:50.483000000Z']],
    ['Mar  1 18:48:50.483: %SYS', [21, '2025-03-01T18:48:50.483000000Z']],
    ['Jun 03 2024 12:00:00: %ASA', [22, '2024-06-03T12:00:00Z']],
    ['Nov 24 13:51:38.406436 vm', [23, '2025-11-24T13:51:38.406436000Z']],
    ['Jun  3 12:00:00 UTC: text', [16, '2025-06-03T12:00:00Z']],
    ['Jun  3 12:00:00:', [16, '2025-06-03T12:00:00Z']],
  ];
  for (const [text, expected] of valid) it(`reads ${text}`, () => assert.deepEqual(read(text), expected));

  it('takes the current year from the scan, Feb 29 only in a leap year', () => {
    assert.deepEqual(read('Feb 29 10:00:00 x', 2024), [16, '2024-02-29T10:00:00Z']);
    assert.equal(read('Feb 29 10:00:00 x', 2025), -1);
  });

  const invalid = [
    'JUN  3 12:00:00 x',
    'Jun  3 24:00:00 x',
    'Jun 31 12:00:00 x',
    'Jun  3 12:00 x',
    'Jun  312:00:00',
    'Foo  3 12:00:00 x',
    'Jun  3 12:00:00x',
  ];
  for (const text of invalid) it(`refuses ${text}`, () => assert.equal(read(text), -1));
});

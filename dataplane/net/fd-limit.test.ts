import assert from 'node:assert/strict';
import fc from 'fast-check';
import { ASSUMED_FD_LIMIT, connectionDefaults, fdSoftLimit, parseFdSoftLimit } from './fd-limit.js';

const LIMITS = `Limit                     Soft Limit           Hard Limit           Units
Max cpu time              unlimited            unlimited            seconds
Max open files            20000                1048576              files
Max locked memory         8388608              8388608              bytes
`;

describe('descriptor limit and the connection defaults derived from it', () => {
  it('reads the soft limit of open files from /proc/self/limits text', () => {
    assert.equal(parseFdSoftLimit(LIMITS), 20_000);
    assert.equal(parseFdSoftLimit(LIMITS.replace('20000 ', 'unlimited ')), 2 ** 31);
    assert.equal(parseFdSoftLimit('Max processes 10 10 processes\n'), undefined);
  });

  it('falls back to 1,024 when the limit cannot be read', () => {
    assert.equal(
      fdSoftLimit(() => {
        throw new Error('ENOENT');
      }),
      ASSUMED_FD_LIMIT,
    );
    assert.equal(
      fdSoftLimit(() => 'nothing here'),
      ASSUMED_FD_LIMIT,
    );
    assert.equal(
      fdSoftLimit(() => LIMITS),
      20_000,
    );
  });

  it('gives the documented figures for common limits', () => {
    assert.deepEqual(connectionDefaults(600), {
      fdLimit: 600,
      reserve: 384,
      ingest: 216,
      perPeer: 22,
      admin: 192,
      health: 64,
    });
    assert.deepEqual(connectionDefaults(1_024), {
      fdLimit: 1_024,
      reserve: 384,
      ingest: 640,
      perPeer: 64,
      admin: 192,
      health: 64,
    });
    assert.deepEqual(connectionDefaults(20_000), {
      fdLimit: 20_000,
      reserve: 2_500,
      ingest: 17_500,
      perPeer: 1_750,
      admin: 1_250,
      health: 64,
    });
    assert.deepEqual(connectionDefaults(1_048_576), {
      fdLimit: 1_048_576,
      reserve: 131_072,
      ingest: 65_536,
      perPeer: 6_554,
      admin: 2_048,
      health: 64,
    });
  });

  it('for every limit: ingestion never reaches into the reserve, which holds the admin API, health and 128 more', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 2 ** 31 }), (limit) => {
        const d = connectionDefaults(limit);
        assert.ok(d.reserve >= 384);
        assert.ok(d.ingest >= 16 && d.ingest <= 65_536);
        // Below 400 descriptors nothing fits; the 16 ingestion connections are the least that works at all.
        if (limit >= 400) assert.ok(d.ingest + d.reserve <= limit);
        assert.ok(d.admin + d.health + 128 <= d.reserve);
        assert.ok(d.perPeer >= 1 && d.perPeer <= d.ingest);
      }),
      { numRuns: 2_000 },
    );
  });
});

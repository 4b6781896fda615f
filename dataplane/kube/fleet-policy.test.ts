import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  BASE_HEARTBEAT_MS,
  fleetBucket,
  fleetPolicy,
  HEARTBEAT_WRITES_PER_S,
  IMMEDIATE_REPORTS,
  parseFleetNodes,
} from './fleet-policy.js';

describe('fleetPolicy', () => {
  it('without a published size: 5 min heartbeats, every node reports a new version at once, stale after 15 min', () => {
    assert.deepEqual(fleetPolicy(undefined), {
      fleetNodes: undefined,
      heartbeatMs: 300_000,
      immediateProbability: 1,
      staleMs: 900_000,
    });
  });

  it('a small fleet keeps the 5 min heartbeat and reports at once; a large one spreads both', () => {
    assert.equal(fleetPolicy(2).immediateProbability, 1);
    assert.equal(fleetPolicy(512).heartbeatMs, BASE_HEARTBEAT_MS);
    const large = fleetPolicy(16_384);
    assert.equal(large.heartbeatMs, 819_200);
    assert.equal(large.staleMs, 3 * 819_200);
    assert.equal(large.immediateProbability, IMMEDIATE_REPORTS / 16_384);
  });

  it('for every fleet, heartbeats cost at most max(20/s, nodes / 5 min) and at most 500 nodes report at once', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1_000_000 }), (count) => {
        const policy = fleetPolicy(fleetBucket(count, undefined));
        const writesPerS = count / (policy.heartbeatMs / 1000);
        assert.ok(
          writesPerS <= Math.max(HEARTBEAT_WRITES_PER_S, count / 300) + 1e-9,
          `${count}: ${writesPerS}/s`,
        );
        assert.ok(count * policy.immediateProbability <= IMMEDIATE_REPORTS + 1e-9);
        // a report is never stale before the longest heartbeat (1.5 periods) plus the longest failure backoff
        assert.ok(policy.staleMs >= 1.5 * policy.heartbeatMs + 300_000);
      }),
    );
  });
});

describe('fleetBucket', () => {
  it('rounds up to a power of two', () => {
    assert.deepEqual(
      [1, 2, 3, 1000, 1024, 1025, 15_000].map((count) => fleetBucket(count, undefined)),
      [1, 2, 4, 1024, 1024, 2048, 16_384],
    );
  });

  it('moves when the fleet outgrows it or falls to a quarter of it, not in between', () => {
    assert.equal(fleetBucket(16_385, 16_384), 32_768);
    assert.equal(fleetBucket(9_000, 16_384), 16_384);
    assert.equal(fleetBucket(4_097, 16_384), 16_384);
    assert.equal(fleetBucket(4_096, 16_384), 4_096);
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 100_000 }), fc.integer({ min: 0, max: 17 }), (count, power) => {
        const published = 2 ** power;
        const bucket = fleetBucket(count, published);
        assert.ok(bucket >= count, 'never below the count');
        if (count <= published && count > published / 4) assert.equal(bucket, published);
      }),
    );
  });
});

describe('parseFleetNodes', () => {
  it('takes a positive integer, nothing else', () => {
    assert.equal(parseFleetNodes('16384'), 16_384);
    for (const text of [undefined, '', '0', '-4', '1e3', ' 12', '12.5', '9999999999']) {
      assert.equal(parseFleetNodes(text), undefined, String(text));
    }
  });
});

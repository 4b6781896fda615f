import assert from 'node:assert/strict';
import { ManualClock } from '../core/clock.js';
import { TokenBucket } from './token-bucket.js';

/** Lets every promise that can resolve now resolve. */
const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** Starts `count` takes and records when (clock time) each was granted. */
function takeMany(bucket: TokenBucket, clock: ManualClock, count: number): number[] {
  const granted: number[] = [];
  for (let i = 0; i < count; i++) void bucket.take().then(() => granted.push(clock.now()));
  return granted;
}

describe('TokenBucket', () => {
  it('grants the burst at once, then one request per 1/qps seconds, in call order', async () => {
    const clock = new ManualClock(1_000);
    const bucket = new TokenBucket({ qps: 1, burst: 5 }, clock);
    const granted = takeMany(bucket, clock, 8);
    await settle();
    assert.deepEqual(granted, [1_000, 1_000, 1_000, 1_000, 1_000], 'the burst of 5 goes at once');
    for (let step = 0; step < 3; step++) {
      clock.advance(1_000);
      await settle();
    }
    assert.deepEqual(granted, [1_000, 1_000, 1_000, 1_000, 1_000, 2_000, 3_000, 4_000]);
  });

  it('refills up to the burst while idle, never beyond', async () => {
    const clock = new ManualClock();
    const bucket = new TokenBucket({ qps: 2, burst: 3 }, clock);
    const first = takeMany(bucket, clock, 3);
    await settle();
    assert.equal(first.length, 3);
    clock.advance(60_000); // idle for a minute: 3 tokens saved, not 120
    const second = takeMany(bucket, clock, 4);
    await settle();
    assert.equal(second.length, 3, 'only the burst is saved');
    clock.advance(499);
    await settle();
    assert.equal(second.length, 3);
    clock.advance(1);
    await settle();
    assert.deepEqual(second, [60_000, 60_000, 60_000, 60_500], 'qps 2: the next token after 500 ms');
  });

  it('counts a partial token: a request 300 ms after the bucket ran dry waits only the remaining 700 ms (regression: float rounding waited 1 ms too long)', async () => {
    const clock = new ManualClock();
    const bucket = new TokenBucket({ qps: 1, burst: 1 }, clock);
    await bucket.take();
    clock.advance(300);
    const granted = takeMany(bucket, clock, 1);
    clock.advance(699);
    await settle();
    assert.deepEqual(granted, []);
    clock.advance(1);
    await settle();
    assert.deepEqual(granted, [1_000]);
  });

  it('refuses a limit without tokens', () => {
    const clock = new ManualClock();
    assert.throws(() => new TokenBucket({ qps: 0, burst: 5 }, clock), RangeError);
    assert.throws(() => new TokenBucket({ qps: 1, burst: 0 }, clock), RangeError);
    assert.throws(() => new TokenBucket({ qps: Number.NaN, burst: 1 }, clock), RangeError);
  });
});

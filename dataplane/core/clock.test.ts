import assert from 'node:assert/strict';
import { ManualClock, systemClock } from './clock.js';

describe('ManualClock', () => {
  it('starts where told and moves only on advance', () => {
    const clock = new ManualClock(1000);
    assert.equal(clock.now(), 1000);
    clock.advance(250);
    assert.equal(clock.now(), 1250);
    clock.advanceTo(2000);
    assert.equal(clock.now(), 2000);
  });

  it('fires due timers in order of due time, then of arming, with now() at their due time', () => {
    const clock = new ManualClock();
    const fired: string[] = [];
    const note = (name: string) => () => fired.push(`${name}@${clock.now()}`);
    clock.setTimeout(note('c'), 30);
    clock.setTimeout(note('a'), 10);
    clock.setTimeout(note('b1'), 20);
    clock.setTimeout(note('b2'), 20);
    clock.setTimeout(note('late'), 100);
    clock.advance(50);
    assert.deepEqual(fired, ['a@10', 'b1@20', 'b2@20', 'c@30']);
    assert.equal(clock.now(), 50);
    assert.equal(clock.pendingTimers, 1);
  });

  it('fires a timer armed by a firing timer in the same step when it is due within it', () => {
    const clock = new ManualClock();
    const fired: number[] = [];
    clock.setTimeout(() => {
      fired.push(clock.now());
      clock.setTimeout(() => fired.push(clock.now()), 5);
      clock.setTimeout(() => fired.push(clock.now()), 500);
    }, 10);
    clock.advance(20);
    assert.deepEqual(fired, [10, 15]);
    assert.equal(clock.pendingTimers, 1);
  });

  it('never fires a timer synchronously when armed, even with 0 ms; advance(0) fires it', () => {
    const clock = new ManualClock();
    let fired = 0;
    clock.setTimeout(() => (fired += 1), 0);
    assert.equal(fired, 0);
    clock.advance(0);
    assert.equal(fired, 1);
  });

  it('does not fire a cleared timer, and ignores clearing one twice or after it fired', () => {
    const clock = new ManualClock();
    let fired = 0;
    const handle = clock.setTimeout(() => (fired += 1), 10);
    clock.clearTimeout(handle);
    clock.clearTimeout(handle);
    const other = clock.setTimeout(() => (fired += 10), 10);
    clock.advance(10);
    clock.clearTimeout(other);
    assert.equal(fired, 10);
  });

  it('refuses to move backwards', () => {
    assert.throws(() => new ManualClock().advance(-1), RangeError);
    assert.throws(() => new ManualClock().advance(Number.NaN), RangeError);
  });
});

describe('systemClock', () => {
  it('reads monotonic milliseconds close to epoch time', () => {
    const first = systemClock.now();
    const second = systemClock.now();
    assert.ok(second >= first);
    assert.ok(Math.abs(first - Date.now()) < 60_000);
  });

  it('arms and clears real timers (cleared here, so the test does not wait)', () => {
    const handle = systemClock.setTimeout(() => assert.fail('a cleared timer fired'), 1);
    systemClock.clearTimeout(handle);
  });

  it('fires a timer due a hair in the past without a TimeoutNegativeWarning (Node 24 warns on ms < 0)', async () => {
    const warnings: string[] = [];
    const onWarning = (warning: Error): void => void warnings.push(warning.name);
    process.on('warning', onWarning);
    try {
      await new Promise<void>((resolve) => systemClock.setTimeout(resolve, -0.03));
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      process.off('warning', onWarning);
    }
    assert.deepEqual(warnings, []);
  });
});

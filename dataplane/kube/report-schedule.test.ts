import assert from 'node:assert/strict';
import { ManualClock } from '../core/clock.js';
import { ReportSchedule, type WriteReason } from './report-schedule.js';
import { fleetBucket, fleetPolicy } from './fleet-policy.js';

/** A schedule on a manual clock that records each write (time, reason) and acknowledges it. */
function schedule(random: () => number = () => 0.5, acknowledge = true) {
  const clock = new ManualClock(0);
  const writes: [number, WriteReason][] = [];
  const s: ReportSchedule = new ReportSchedule({
    clock,
    random,
    write: (reason) => {
      writes.push([clock.now(), reason]);
      if (acknowledge) s.written();
    },
  });
  return { clock, writes, s };
}

describe('ReportSchedule', () => {
  it('writes the first change at once, then coalesces changes to one write per 10 s', () => {
    const { clock, writes, s } = schedule();
    s.changed();
    clock.advance(0);
    assert.deepEqual(writes, [[0, 'change']]);
    clock.advance(1_000);
    s.changed();
    clock.advance(1_000);
    s.changed();
    s.changed();
    clock.advance(7_999);
    assert.equal(writes.length, 1, 'nothing before 10 s after the last write');
    clock.advance(1);
    assert.deepEqual(writes, [
      [0, 'change'],
      [10_000, 'change'],
    ]);
    clock.advance(60_000);
    assert.equal(writes.length, 2, 'three changes, one write');
  });

  it('writes a change at once when the last write is more than 10 s ago', () => {
    const { clock, writes, s } = schedule();
    s.changed();
    clock.advance(25_000);
    s.changed();
    clock.advance(0);
    assert.deepEqual(writes, [
      [0, 'change'],
      [25_000, 'change'],
    ]);
  });

  it('after a new graph version, waits random × 5 s before the first write', () => {
    for (const [random, delay] of [
      [0, 0],
      [0.25, 1_250],
      [0.999, 4_995],
    ] as const) {
      const { clock, writes, s } = schedule(() => random);
      s.graphApplied();
      clock.advance(delay - (delay > 0 ? 1 : 0));
      if (delay > 0) assert.equal(writes.length, 0, `random ${random}: not before ${delay} ms`);
      clock.advance(1);
      assert.deepEqual(writes, [[delay, 'change']], `random ${random}`);
    }
  });

  it('a new graph delays a pending change write, and never writes sooner than 10 s after the last', () => {
    const { clock, writes, s } = schedule(() => 0.8);
    s.changed();
    clock.advance(0);
    clock.advance(2_000);
    s.changed(); // due at 10 s
    s.graphApplied(); // 2 s + 4 s = 6 s < 10 s: stays at 10 s
    clock.advance(8_000);
    assert.deepEqual(writes.at(-1), [10_000, 'change']);
    clock.advance(20_000); // t = 30 s
    s.changed();
    s.graphApplied(); // pending at 30 s, moved to 34 s
    clock.advance(3_999);
    assert.equal(writes.length, 2);
    clock.advance(1);
    assert.deepEqual(writes.at(-1), [34_000, 'change']);
  });

  it('beats every 5 min ± 50 % after the last acknowledged write (jitter from the random source)', () => {
    let next = 0.5;
    const { clock, writes, s } = schedule(() => next);
    s.changed();
    clock.advance(0);
    next = 0; // heartbeat at 0.5 × 300 s
    s.written();
    clock.advance(149_999);
    assert.equal(writes.length, 1);
    clock.advance(1);
    assert.deepEqual(writes.at(-1), [150_000, 'heartbeat']);
    // That write was acknowledged; then the maximum jitter.
    next = 1;
    s.written(); // re-arms from now: 450 s
    clock.advance(449_999);
    assert.equal(writes.length, 2);
    clock.advance(1);
    assert.deepEqual(writes.at(-1), [600_000, 'heartbeat']);
  });

  it('a write moves the heartbeat; without writes, only heartbeats follow', () => {
    const { clock, writes, s } = schedule(() => 0.5);
    s.changed();
    clock.advance(100_000);
    s.changed(); // written at 100 s: the beat moves to 400 s
    clock.advance(0);
    clock.advance(299_999);
    assert.deepEqual(
      writes.map(([, reason]) => reason),
      ['change', 'change'],
    );
    clock.advance(1);
    assert.deepEqual(writes.at(-1), [400_000, 'heartbeat']);
    clock.advance(900_000);
    assert.deepEqual(
      writes.slice(2).map(([at, reason]) => `${at} ${reason}`),
      ['400000 heartbeat', '700000 heartbeat', '1000000 heartbeat', '1300000 heartbeat'],
    );
  });

  it('does not beat before a write was acknowledged; a failed write is tried again 10 s later', () => {
    const { clock, writes, s } = schedule(() => 0.5, false);
    s.changed();
    clock.advance(0);
    s.failed();
    clock.advance(9_999);
    assert.equal(writes.length, 1);
    clock.advance(1);
    assert.equal(writes.length, 2);
    clock.advance(3_600_000);
    assert.equal(writes.length, 2, 'no heartbeat without an acknowledged write');
  });

  it('backs off after failures in a row (10, 20, 40 s … at most 5 min); a success resets it', () => {
    const { clock, writes, s } = schedule(() => 0.5, false);
    s.changed();
    clock.advance(0);
    const failAndWait = (): number => {
      const before = clock.now();
      s.failed();
      const count = writes.length;
      while (writes.length === count) clock.advance(1_000);
      return clock.now() - before;
    };
    assert.deepEqual([failAndWait(), failAndWait(), failAndWait()], [10_000, 20_000, 40_000]);
    for (let i = 0; i < 5; i++) failAndWait();
    assert.equal(failAndWait(), 300_000, 'capped');
    s.written();
    assert.equal(failAndWait(), 10_000, 'reset by a success');
  });

  it('stop() cancels what is pending', () => {
    const { clock, writes, s } = schedule();
    s.changed();
    clock.advance(0);
    s.changed();
    s.stop();
    clock.advance(3_600_000);
    assert.equal(writes.length, 1);
    assert.equal(clock.pendingTimers, 0);
  });

  it('reads the fleet period when the heartbeat falls due: a fleet that grew waits out the longer period', () => {
    let period = 300_000;
    const clock = new ManualClock(0);
    const writes: number[] = [];
    const s: ReportSchedule = new ReportSchedule({
      clock,
      random: () => 1, // the latest beat: 1.5 periods
      heartbeatMs: () => period,
      write: () => {
        writes.push(clock.now());
        s.written();
      },
    });
    s.changed();
    clock.advance(0);
    period = 800_000; // the operator published a larger fleet
    clock.advance(450_000);
    assert.deepEqual(writes, [0], 'not at 1.5 × the old period');
    assert.equal(s.heartbeatDueAt, 1_200_000);
    clock.advance(750_000);
    assert.deepEqual(writes, [0, 1_200_000], 'the same draw of the jitter over the new period');
  });

  it('deferred(): rides the heartbeat, brought forward to a uniform time within one period, once per write', () => {
    let next = 0.5;
    const { clock, writes, s } = schedule(() => next);
    s.changed();
    clock.advance(0); // written at 0, next = 0.5: beat at 300 s
    clock.advance(10_000);
    next = 0.25; // within the next period: at 10 s + 75 s
    s.deferred();
    assert.equal(s.heartbeatDueAt, 85_000);
    next = 0;
    s.deferred(); // a second call before the write changes nothing
    assert.equal(s.heartbeatDueAt, 85_000);
    clock.advance(75_000);
    assert.deepEqual(writes.at(-1), [85_000, 'heartbeat']);
    next = 0.9; // written with next = 0: due at 85 s + 150 s; a later draw never postpones it
    s.deferred();
    assert.equal(s.heartbeatDueAt, 85_000 + 150_000);
  });

  it('a fleet of 15,000 after a new graph version: the sample and the heartbeats, far under 150 writes/s', function () {
    this.timeout(120_000); // 15,000 schedules on one manual clock
    const nodes = 15_000;
    const policy = fleetPolicy(fleetBucket(nodes, undefined));
    let seed = 42;
    const random = (): number => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const clock = new ManualClock(0);
    const writes: number[] = [];
    const lastWrite: number[] = [];
    const fleet = Array.from({ length: nodes }, (_, i) => {
      const s: ReportSchedule = new ReportSchedule({
        clock,
        random,
        heartbeatMs: () => policy.heartbeatMs,
        write: () => {
          writes.push(clock.now());
          lastWrite[i] = clock.now();
          s.written();
        },
      });
      return s;
    });
    for (const s of fleet) s.changed(); // every node's first report
    clock.advance(2 * policy.heartbeatMs); // heartbeats spread
    const changedAt = clock.now();
    const before = writes.length;
    for (const s of fleet) {
      if (random() < policy.immediateProbability) s.graphApplied();
      else s.deferred();
    }
    clock.advance(60_000);
    const minute = writes.length - before;
    clock.advance(policy.heartbeatMs);
    // the minute after: the sample (~460), the beats that were due anyway (N / period) and the deferred
    // ones drawn into it (N / period again): the earliest of two uniform draws is twice as dense at first
    const perSecond = minute / 60;
    const heartbeatRate = nodes / (policy.heartbeatMs / 1000);
    const expected = 2 * heartbeatRate + (nodes * policy.immediateProbability) / 60;
    assert.ok(
      Math.abs(perSecond - expected) < 0.15 * expected,
      `${perSecond.toFixed(1)} writes/s, expected ${expected.toFixed(1)}`,
    );
    assert.ok(perSecond < 60, `${perSecond.toFixed(1)} writes/s in the minute after`);
    const steady = writes.filter((at) => at > changedAt - policy.heartbeatMs && at <= changedAt).length;
    assert.ok(steady / (policy.heartbeatMs / 1000) <= 20, 'steady heartbeats within 20 writes/s');
    // within one period every node has written (its deferred beat or an earlier one)
    assert.ok(lastWrite.every((at) => at > changedAt));
  });
});

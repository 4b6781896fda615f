import assert from 'node:assert/strict';
import { Registry } from 'prom-client';
import { memoryLogger } from '../../test/fixtures/graph-from-statements.js';
import { ManualClock } from './clock.js';
import { readCounter, Telemetry } from './telemetry.js';
import { ThrottledDrops } from './throttled-drops.js';

function setup() {
  const registry = new Registry();
  const { logger, logs } = memoryLogger();
  const clock = new ManualClock(1_000_000);
  const telemetry = new Telemetry({ registry, logger, domain: 'shop' }).component(
    'subscriber',
    'orders/audit',
  );
  const drops = new ThrottledDrops(telemetry, 'subscriber_overflow', 'buffer full', {
    clock,
    intervalMs: 10_000,
  });
  const counted = (): Promise<number> =>
    readCounter(registry, 'streamroute_drops_total', {
      domain: 'shop',
      kind: 'subscriber',
      name: 'orders/audit',
      reason: 'subscriber_overflow',
    });
  const lines = () => logs.filter((line) => line.msg === 'records dropped').map((line) => line.count);
  return { clock, drops, counted, lines };
}

const tick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('ThrottledDrops', () => {
  it('reports a burst in one job as one line with the exact count', async () => {
    const { drops, counted, lines } = setup();
    for (let n = 0; n < 5_000; n++) drops.add();
    assert.deepEqual(lines(), []);
    await tick();
    assert.deepEqual(lines(), [5_000]);
    assert.equal(await counted(), 5_000);
  });

  it('logs at most once per interval, with the count since the last line', async () => {
    const { clock, drops, counted, lines } = setup();
    drops.add(3);
    await tick();
    clock.advance(1_000);
    drops.add(4);
    await tick();
    clock.advance(5_000);
    drops.add(2);
    await tick();
    assert.deepEqual(lines(), [3]);
    assert.equal(drops.pending, 6);
    clock.advance(3_999);
    assert.deepEqual(lines(), [3]);
    clock.advance(1);
    assert.deepEqual(lines(), [3, 6]);
    assert.equal(await counted(), 9);
    assert.equal(drops.total, 9);
  });

  it('reports at once after a quiet interval', async () => {
    const { clock, drops, lines } = setup();
    drops.add();
    await tick();
    clock.advance(10_000);
    drops.add(7);
    await tick();
    assert.deepEqual(lines(), [1, 7]);
  });

  it('flush reports what is pending now and disarms the timer', async () => {
    const { clock, drops, counted, lines } = setup();
    drops.add();
    await tick();
    drops.add(2);
    assert.equal(clock.pendingTimers, 1);
    drops.flush();
    assert.equal(clock.pendingTimers, 0);
    assert.deepEqual(lines(), [1, 2]);
    assert.equal(await counted(), 3);
    drops.flush();
    assert.deepEqual(lines(), [1, 2]);
  });
});

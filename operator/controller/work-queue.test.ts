import assert from 'node:assert/strict';
import { ManualClock } from '../../dataplane/core/clock.js';
import { dueTime, retryDelay, WorkQueue, DEFAULT_DEBOUNCE, type ProcessResult } from './work-queue.js';

/** A process function whose runs the test finishes by hand; records when each run started. */
class Runs {
  readonly started: { key: string; at: number }[] = [];
  readonly #open: ((result: ProcessResult) => void)[] = [];
  auto: ProcessResult | undefined;

  constructor(readonly clock: ManualClock) {}

  readonly process = (key: string): Promise<ProcessResult> => {
    this.started.push({ key, at: this.clock.now() });
    if (this.auto !== undefined) return Promise.resolve(this.auto);
    return new Promise((resolve) => this.#open.push(resolve));
  };

  finish(result: ProcessResult = { ok: true }): void {
    const next = this.#open.shift();
    assert.ok(next, 'no run is open');
    next(result);
  }

  get open(): number {
    return this.#open.length;
  }
}

function setup(): { clock: ManualClock; runs: Runs; queue: WorkQueue } {
  const clock = new ManualClock(0);
  const runs = new Runs(clock);
  return { clock, runs, queue: new WorkQueue({ clock, process: runs.process }) };
}

const flush = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** Moves the clock in steps, letting finished runs settle between steps. */
async function elapse(clock: ManualClock, ms: number, stepMs = 100): Promise<void> {
  for (let done = 0; done < ms; done += stepMs) {
    await flush();
    clock.advance(Math.min(stepMs, ms - done));
  }
  await flush();
}

describe('WorkQueue', () => {
  describe('dueTime', () => {
    const cases: { name: string; pending: Parameters<typeof dueTime>[0]; due: number | undefined }[] = [
      { name: 'nothing pending', pending: { first: {}, last: {} }, due: undefined },
      { name: 'one object change', pending: { first: { objects: 0 }, last: { objects: 0 } }, due: 100 },
      { name: 'object burst capped', pending: { first: { objects: 0 }, last: { objects: 950 } }, due: 1000 },
      { name: 'one node change', pending: { first: { nodes: 0 }, last: { nodes: 0 } }, due: 1000 },
      { name: 'node burst capped', pending: { first: { nodes: 0 }, last: { nodes: 9500 } }, due: 10000 },
      {
        name: 'object change beats a node window',
        pending: { first: { nodes: 0, objects: 200 }, last: { nodes: 500, objects: 200 } },
        due: 300,
      },
      { name: 'explicit time', pending: { first: {}, last: {}, at: 42 }, due: 42 },
    ];
    for (const { name, pending, due } of cases) {
      it(name, () => assert.equal(dueTime(pending, DEFAULT_DEBOUNCE), due));
    }
  });

  it('retryDelay doubles from 0.5 s and caps at 60 s', () => {
    const backoff = { initialMs: 500, maxMs: 60_000 };
    assert.deepEqual(
      [1, 2, 3, 4, 8, 20].map((n) => retryDelay(n, backoff)),
      [500, 1000, 2000, 4000, 60_000, 60_000],
    );
  });

  it('runs a key 100 ms after the last object change', () => {
    const { clock, runs, queue } = setup();
    queue.add('a', 'objects');
    clock.advance(50);
    queue.add('a', 'objects');
    clock.advance(99);
    assert.equal(runs.started.length, 0);
    clock.advance(1);
    assert.deepEqual(runs.started, [{ key: 'a', at: 150 }]);
  });

  it('runs a key at most 1 s after the first of a burst of object changes', () => {
    const { clock, runs, queue } = setup();
    for (let t = 0; t < 1500; t += 50) {
      queue.add('a', 'objects');
      clock.advance(50);
    }
    assert.equal(runs.started[0]?.at, 1000);
  });

  it('waits 1 s after node-report changes, at most 10 s', () => {
    const { clock, runs, queue } = setup();
    queue.add('a', 'nodes');
    clock.advance(999);
    assert.equal(runs.started.length, 0);
    clock.advance(1);
    assert.equal(runs.started[0]?.at, 1000);
    runs.finish();
    const { clock: clock2, runs: runs2, queue: queue2 } = setup();
    for (let t = 0; t < 12_000; t += 500) {
      queue2.add('b', 'nodes');
      clock2.advance(500);
    }
    assert.equal(runs2.started[0]?.at, 10_000);
  });

  it('keeps keys apart', () => {
    const { clock, runs, queue } = setup();
    queue.add('a', 'objects');
    clock.advance(50);
    queue.add('b', 'nodes');
    clock.advance(2000);
    assert.deepEqual(
      runs.started.map((run) => [run.key, run.at]),
      [
        ['a', 100],
        ['b', 1050],
      ],
    );
  });

  it('never runs one key twice at once: a change during a run queues it after the run', async () => {
    const { clock, runs, queue } = setup();
    queue.add('a', 'objects');
    clock.advance(100);
    assert.equal(runs.open, 1);
    queue.add('a', 'objects');
    clock.advance(5000);
    assert.equal(runs.started.length, 1, 'second run waits for the first');
    assert.equal(queue.depth, 1);
    runs.finish();
    await flush();
    // the change is long past its window: it runs at once
    clock.advance(0);
    assert.equal(runs.started.length, 2);
    assert.equal(runs.started[1]?.at, 5100);
  });

  it('requeues after requeueAfterMs', async () => {
    const { clock, runs, queue } = setup();
    queue.add('a', 'objects');
    clock.advance(100);
    runs.finish({ ok: true, requeueAfterMs: 30_000 });
    await flush();
    clock.advance(29_999);
    assert.equal(runs.started.length, 1);
    clock.advance(1);
    assert.equal(runs.started[1]?.at, 30_100);
  });

  it('retries a failure with capped doubling backoff, and resets after a success', async () => {
    const { clock, runs, queue } = setup();
    runs.auto = { ok: false };
    queue.add('a', 'objects');
    await elapse(clock, 250_000);
    const gaps = runs.started.slice(1).map((run, i) => run.at - (runs.started[i]?.at ?? 0));
    assert.deepEqual(gaps.slice(0, 9), [500, 1000, 2000, 4000, 8000, 16000, 32000, 60000, 60000]);
    runs.auto = { ok: true };
    await elapse(clock, 60_000);
    assert.equal(queue.failures('a'), 0);
    const count = runs.started.length;
    clock.advance(120_000);
    assert.equal(runs.started.length, count, 'a success does not requeue');
  });

  it('treats a thrown error as a failure', async () => {
    const clock = new ManualClock(0);
    let calls = 0;
    const queue = new WorkQueue({
      clock,
      process: () => {
        calls += 1;
        return Promise.reject(new Error('boom'));
      },
    });
    queue.add('a', 'objects');
    clock.advance(100);
    await flush();
    assert.equal(queue.failures('a'), 1);
    clock.advance(500);
    assert.equal(calls, 2);
  });

  it('a change during backoff runs after its debounce, not after the backoff', async () => {
    const { clock, runs, queue } = setup();
    queue.add('a', 'objects');
    clock.advance(100);
    runs.finish({ ok: false });
    await flush();
    clock.advance(200);
    queue.add('a', 'objects');
    clock.advance(100);
    assert.equal(runs.started[1]?.at, 400);
  });

  it('clear() drops pending keys; stop() waits for the runs in progress', async () => {
    const { clock, runs, queue } = setup();
    queue.add('a', 'objects');
    queue.add('b', 'objects');
    clock.advance(100);
    queue.add('c', 'objects');
    queue.clear();
    clock.advance(1000);
    assert.deepEqual(
      runs.started.map((run) => run.key),
      ['a', 'b'],
    );
    let stopped = false;
    const stopping = queue.stop().then(() => (stopped = true));
    await flush();
    assert.equal(stopped, false);
    runs.finish();
    runs.finish();
    await stopping;
    queue.add('d', 'objects');
    clock.advance(1000);
    assert.equal(runs.started.length, 2);
    assert.equal(clock.pendingTimers, 0);
  });

  it('runs at most `concurrency` keys at once, the rest in the order they fell due', async () => {
    const clock = new ManualClock(0);
    const runs = new Runs(clock);
    const queue = new WorkQueue({ clock, process: runs.process, concurrency: 2 });
    for (const key of ['a', 'b', 'c', 'd']) {
      queue.add(key, 'objects');
      clock.advance(10);
    }
    clock.advance(200);
    assert.deepEqual(
      runs.started.map((run) => run.key),
      ['a', 'b'],
    );
    assert.equal(queue.depth, 2);
    runs.finish();
    await flush();
    assert.deepEqual(
      runs.started.map((run) => run.key),
      ['a', 'b', 'c'],
    );
    runs.finish();
    runs.finish();
    await flush();
    assert.deepEqual(
      runs.started.map((run) => run.key),
      ['a', 'b', 'c', 'd'],
    );
    runs.finish();
    await queue.stop();
  });

  it('reports depth', () => {
    const { queue } = setup();
    queue.add('a', 'objects');
    queue.add('b', 'nodes');
    queue.addAfter('c', 10);
    assert.equal(queue.depth, 3);
  });
});

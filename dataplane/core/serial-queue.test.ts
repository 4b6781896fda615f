import assert from 'node:assert/strict';
import { SerialQueue, ShuttingDownError } from './serial-queue.js';

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve: () => void = () => undefined;
  const promise = new Promise<void>((done) => (resolve = done));
  return { promise, resolve };
}

describe('serial queue', () => {
  it('runs tasks one after another, in order; a failure does not stop the next', async () => {
    const queue = new SerialQueue();
    const order: string[] = [];
    const gate = deferred();
    const first = queue.run(async () => {
      await gate.promise;
      order.push('first');
      throw new Error('first fails');
    });
    const second = queue.run(() => Promise.resolve(order.push('second')));
    gate.resolve();
    await assert.rejects(first, /first fails/);
    await second;
    assert.deepEqual(order, ['first', 'second']);
  });

  it('bug: work queued when the node stopped ran after it — close() refuses it and waits for the running task', async () => {
    const queue = new SerialQueue();
    const ran: string[] = [];
    const gate = deferred();
    const started = deferred();
    const running = queue.run(async () => {
      started.resolve();
      await gate.promise;
      ran.push('running');
    });
    await started.promise;
    const waiting = queue.run(() => Promise.resolve(ran.push('waiting')));
    let closed = false;
    const close = queue.close().then(() => (closed = true));
    const late = queue.run(() => Promise.resolve(ran.push('late')));
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(closed, false, 'close waits for the running task');
    gate.resolve();
    await running;
    await assert.rejects(waiting, ShuttingDownError);
    await assert.rejects(late, ShuttingDownError);
    await close;
    assert.deepEqual(ran, ['running']);
    assert.equal(queue.closed, true);
  });
});

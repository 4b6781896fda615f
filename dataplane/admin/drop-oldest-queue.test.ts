import assert from 'node:assert/strict';
import fc from 'fast-check';
import { DropOldestQueue } from './drop-oldest-queue.js';

describe('DropOldestQueue', () => {
  it('keeps the newest items and evicts the oldest when full', () => {
    const queue = new DropOldestQueue<number>(3);
    assert.deepEqual(
      [1, 2, 3, 4, 5].map((n) => queue.push(n)),
      [false, false, false, true, true],
    );
    assert.equal(queue.full, true);
    assert.deepEqual([queue.shift(), queue.shift(), queue.shift(), queue.shift()], [3, 4, 5, undefined]);
    assert.equal(queue.length, 0);
  });

  it('clears and says how many it held', () => {
    const queue = new DropOldestQueue<string>(100);
    for (let n = 0; n < 40; n++) queue.push(`r${n}`);
    assert.equal(queue.clear(), 40);
    assert.equal(queue.length, 0);
    assert.equal(queue.shift(), undefined);
  });

  it('refuses a capacity that is not a positive integer', () => {
    for (const capacity of [0, -1, 1.5, Number.NaN])
      assert.throws(() => new DropOldestQueue(capacity), RangeError);
  });

  it('behaves like an array trimmed to the newest `capacity` items, for any sequence of operations', () => {
    const operation = fc.oneof(fc.constant<'shift'>('shift'), fc.integer({ min: 0, max: 1_000 }));
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 40 }),
        fc.array(operation, { maxLength: 300 }),
        (capacity, ops) => {
          const queue = new DropOldestQueue<number>(capacity);
          const model: number[] = [];
          for (const op of ops) {
            if (op === 'shift') {
              assert.equal(queue.shift(), model.shift());
            } else {
              model.push(op);
              const evicted = model.length > capacity;
              if (evicted) model.shift();
              assert.equal(queue.push(op), evicted);
            }
            assert.equal(queue.length, model.length);
            assert.equal(queue.full, model.length === capacity);
          }
          const rest: number[] = [];
          for (let item = queue.shift(); item !== undefined; item = queue.shift()) rest.push(item);
          assert.deepEqual(rest, model);
        },
      ),
    );
  });
});

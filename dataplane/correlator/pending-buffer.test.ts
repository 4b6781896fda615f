import assert from 'node:assert/strict';
import { arrivedBefore, Pending, PendingBuffer } from './pending-buffer.js';

const walk = (from: Pending | null | undefined, next: (entry: Pending) => Pending | null): unknown[] => {
  const seen: unknown[] = [];
  for (let entry = from ?? null; entry !== null && seen.length < 20; entry = next(entry)) {
    seen.push(entry.record.id);
    if (next(entry) === from) break; // once round a circular bucket
  }
  return seen;
};
const arrival = (buffer: PendingBuffer) => walk(buffer.oldest, (entry) => entry.newer);
const arrivalBackwards = (buffer: PendingBuffer) => walk(buffer.newest, (entry) => entry.older);
const bucket = (buffer: PendingBuffer, key: string) =>
  walk(buffer.oldestWithKey(key), (entry) => entry.bucketNewer);
const bucketBackwards = (buffer: PendingBuffer, key: string) =>
  walk(buffer.oldestWithKey(key)?.bucketOlder, (entry) => entry.bucketOlder);

function filled(): { buffer: PendingBuffer; entries: Pending[] } {
  const buffer = new PendingBuffer();
  const keys = ['a', 'b', 'a', undefined, 'a', 'b'];
  const entries = keys.map((key, i) => buffer.add({ id: i }, key, 100 + i, i));
  return { buffer, entries };
}

describe('PendingBuffer', () => {
  it('links records in arrival order, and per key in circular buckets (a keyless record in none)', () => {
    const { buffer, entries } = filled();
    assert.deepEqual(arrival(buffer), [0, 1, 2, 3, 4, 5]);
    assert.deepEqual(arrivalBackwards(buffer), [5, 4, 3, 2, 1, 0]);
    assert.deepEqual(bucket(buffer, 'a'), [0, 2, 4]);
    assert.deepEqual(bucketBackwards(buffer, 'a'), [4, 2, 0]);
    assert.deepEqual(bucket(buffer, 'b'), [1, 5]);
    assert.equal(entries[3]!.bucketNewer, entries[3]);
    assert.equal(buffer.size, 6);
    assert.equal(buffer.keys, 2);
  });

  const removals: [string, number[], unknown[], unknown[]][] = [
    ['the oldest', [0], [1, 2, 3, 4, 5], [2, 4]],
    ['the newest', [5], [0, 1, 2, 3, 4], [0, 2, 4]],
    ['the newest of a bucket', [4], [0, 1, 2, 3, 5], [0, 2]],
    ['one in the middle of a bucket', [2], [0, 1, 3, 4, 5], [0, 4]],
    ['a keyless record', [3], [0, 1, 2, 4, 5], [0, 2, 4]],
    ['a whole bucket, oldest first', [0, 2, 4], [1, 3, 5], []],
    ['a whole bucket, newest first', [4, 2, 0], [1, 3, 5], []],
  ];
  for (const [name, remove, left, bucketA] of removals)
    it(`unlinks ${name} from both lists`, () => {
      const { buffer, entries } = filled();
      for (const i of remove) buffer.remove(entries[i]!);
      assert.deepEqual(arrival(buffer), left);
      assert.deepEqual(arrivalBackwards(buffer), [...left].reverse());
      assert.deepEqual(bucket(buffer, 'a'), bucketA);
      assert.deepEqual(bucketBackwards(buffer, 'a'), [...bucketA].reverse());
      assert.deepEqual(bucket(buffer, 'b'), remove.includes(5) ? [1] : [1, 5]);
      assert.equal(buffer.size, left.length);
    });

  it('drops a key when its last record leaves, so keys seen once do not accumulate', () => {
    const { buffer, entries } = filled();
    for (const entry of entries) buffer.remove(entry);
    assert.equal(buffer.keys, 0);
    assert.equal(buffer.oldestWithKey('a'), undefined);
    assert.equal(buffer.oldest, null);
    assert.equal(buffer.newest, null);
  });

  it('clears to the records oldest first', () => {
    const { buffer } = filled();
    assert.deepEqual(
      buffer.clear().map((record) => record.id),
      [0, 1, 2, 3, 4, 5],
    );
    assert.deepEqual([buffer.size, buffer.keys, buffer.oldest], [0, 0, null]);
  });

  it('orders arrival numbers across the int32 wrap-around', () => {
    const at = (arrival: number) => new Pending({}, undefined, 0, arrival);
    assert.ok(arrivedBefore(at(1), at(2)));
    assert.ok(!arrivedBefore(at(2), at(1)));
    assert.ok(arrivedBefore(at(2 ** 31 - 1), at((2 ** 31) | 0)));
  });
});

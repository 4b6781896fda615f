import assert from 'node:assert/strict';
import fc from 'fast-check';
import { ManualClock } from '../core/clock.js';
import { EmitterQueue, type QueuedRecord } from './emitter-queue.js';

const entry = (id: number, size = 10): QueuedRecord => ({
  record: { id },
  message: new Uint8Array(size),
  bytes: size,
});
const ids = (entries: readonly QueuedRecord[]): unknown[] => entries.map((item) => item.record['id']);

function queue(options: { maxRecords?: number; maxBytes?: number; maxTimeMs?: number } = {}) {
  const clock = new ManualClock();
  let timeClosed = 0;
  const made = new EmitterQueue({
    clock,
    maxRecords: options.maxRecords ?? Number.POSITIVE_INFINITY,
    maxBytes: options.maxBytes ?? Number.POSITIVE_INFINITY,
    maxTimeMs: options.maxTimeMs,
    onTimeClose: () => timeClosed++,
  });
  return { queue: made, clock, timeClosed: () => timeClosed };
}

describe('emitter queue: batches and the byte bound', () => {
  it('a batch closes at its record count; the next record opens a new one', () => {
    const { queue: q } = queue({ maxRecords: 2 });
    for (let i = 0; i < 3; i++) q.push(entry(i));
    const first = q.front();
    assert.ok(first?.closed);
    assert.deepEqual(ids(first.live()), [0, 1]);
    q.removeFront();
    assert.deepEqual(ids(q.front()?.live() ?? []), [2]);
    assert.equal(q.front()?.closed, false);
    assert.equal(q.records, 1);
    assert.equal(q.bytes, 10);
  });

  it('a batch closes MAX TIME after its first record, and says so', () => {
    const { queue: q, clock, timeClosed } = queue({ maxRecords: 10, maxTimeMs: 500 });
    q.push(entry(0));
    clock.advance(300);
    q.push(entry(1));
    clock.advance(199);
    assert.equal(q.front()?.closed, false);
    clock.advance(1);
    assert.equal(q.front()?.closed, true);
    assert.equal(timeClosed(), 1);
    assert.equal(clock.pendingTimers, 0);
  });

  it('a batch closed by size disarms its timer', () => {
    const { queue: q, clock } = queue({ maxRecords: 2, maxTimeMs: 500 });
    q.push(entry(0));
    q.push(entry(1));
    assert.equal(clock.pendingTimers, 0);
  });

  it('eviction takes the oldest record outside the batch in flight, removing emptied batches', () => {
    const { queue: q } = queue({ maxRecords: 2 });
    for (let i = 0; i < 5; i++) q.push(entry(i));
    const inFlight = q.front();
    assert.deepEqual(
      ids([q.evictOldest(inFlight)!, q.evictOldest(inFlight)!, q.evictOldest(inFlight)!]),
      [2, 3, 4],
    );
    assert.equal(q.evictOldest(inFlight), undefined);
    assert.equal(q.records, 2);
    assert.deepEqual(ids([q.evictOldest(undefined)!]), [0]);
    assert.equal(q.records, 1);
  });

  it('property: records leave in arrival order and the counts always match the batches', () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.constant('push'), fc.constant('evict'), fc.constant('send')), { maxLength: 60 }),
        fc.integer({ min: 1, max: 4 }),
        (ops, maxRecords) => {
          const { queue: q } = queue({ maxRecords });
          const out: number[] = [];
          let next = 0;
          for (const op of ops) {
            if (op === 'push') q.push(entry(next++, 3));
            else if (op === 'evict') {
              const gone = q.evictOldest(undefined);
              if (gone !== undefined) out.push(gone.record['id'] as number);
            } else {
              q.closeOpen();
              const batch = q.removeFront();
              if (batch !== undefined) out.push(...(ids(batch.live()) as number[]));
            }
            assert.equal(q.bytes, q.records * 3);
          }
          const rest: number[] = [];
          q.closeOpen();
          for (let batch = q.removeFront(); batch !== undefined; batch = q.removeFront())
            rest.push(...(ids(batch.live()) as number[]));
          assert.deepEqual(
            [...out, ...rest],
            Array.from({ length: next }, (_, i) => i),
          );
          assert.equal(q.records, 0);
        },
      ),
    );
  });
});

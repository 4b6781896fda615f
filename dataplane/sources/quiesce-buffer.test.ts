import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { BufferingPolicy, QuiesceDropReason } from './quiesce-buffer.js';
import { QuiesceBuffer } from './quiesce-buffer.js';

/** A buffer of strings whose size is their length; drains run when `flush()` is called. */
function fixture(policy: BufferingPolicy, drainBatch = 1024) {
  const delivered: string[] = [];
  const drops: [QuiesceDropReason, number][] = [];
  const deferred: (() => void)[] = [];
  const buffer = new QuiesceBuffer<string>({
    policy,
    sizeOf: (item) => item.length,
    deliver: (item) => delivered.push(item),
    onDrop: (reason, bytes) => drops.push([reason, bytes]),
    drainBatch,
    defer: (continuation) => deferred.push(continuation),
  });
  const flush = (): void => {
    for (let next = deferred.shift(); next !== undefined; next = deferred.shift()) next();
  };
  return { buffer, delivered, drops, flush };
}

const buffer = (maxBytes: number, onOverflow: 'DROP_OLDEST' | 'DROP_NEWEST'): BufferingPolicy => ({
  action: 'BUFFER',
  maxBytes,
  onOverflow,
});

describe('QuiesceBuffer', () => {
  it('delivers at once while open', () => {
    const { buffer: b, delivered } = fixture(buffer(10, 'DROP_NEWEST'));
    assert.equal(b.offer('abc'), 'delivered');
    assert.deepEqual(delivered, ['abc']);
    assert.deepEqual(b.buffered, { items: 0, bytes: 0 });
  });

  it('BUFFER keeps items while quiesced and delivers them in order on resume', async () => {
    const { buffer: b, delivered } = fixture(buffer(10, 'DROP_NEWEST'));
    b.quiesce();
    assert.equal(b.state, 'quiesced');
    assert.equal(b.offer('aa'), 'buffered');
    assert.equal(b.offer('bbb'), 'buffered');
    assert.deepEqual(delivered, []);
    assert.deepEqual(b.buffered, { items: 2, bytes: 5 });
    await b.resume();
    assert.deepEqual(delivered, ['aa', 'bbb']);
    assert.equal(b.state, 'open');
    assert.equal(b.offer('c'), 'delivered');
    assert.deepEqual(delivered, ['aa', 'bbb', 'c']);
  });

  it('exactly MAX SIZE fits; one byte more overflows', () => {
    const { buffer: b, drops } = fixture(buffer(6, 'DROP_NEWEST'));
    b.quiesce();
    assert.equal(b.offer('abc'), 'buffered');
    assert.equal(b.offer('def'), 'buffered');
    assert.equal(b.offer('g'), 'dropped');
    assert.deepEqual(drops, [['overflow_drop_newest', 1]]);
    assert.deepEqual(b.buffered, { items: 2, bytes: 6 });
  });

  it('DROP NEWEST overflow keeps the buffer and counts the arriving item', async () => {
    const { buffer: b, delivered, drops } = fixture(buffer(5, 'DROP_NEWEST'));
    b.quiesce();
    for (const item of ['11', '22', '33', '4']) b.offer(item);
    assert.deepEqual(drops, [['overflow_drop_newest', 2]]);
    assert.deepEqual(b.dropped.get('overflow_drop_newest'), { items: 1, bytes: 2 });
    await b.resume();
    assert.deepEqual(delivered, ['11', '22', '4']);
  });

  it('DROP OLDEST overflow evicts from the front until the item fits', async () => {
    const { buffer: b, delivered, drops } = fixture(buffer(5, 'DROP_OLDEST'));
    b.quiesce();
    for (const item of ['11', '22', '3']) b.offer(item);
    assert.equal(b.offer('4444'), 'buffered');
    assert.deepEqual(drops, [
      ['overflow_drop_oldest', 2],
      ['overflow_drop_oldest', 2],
    ]);
    assert.deepEqual(b.dropped.get('overflow_drop_oldest'), { items: 2, bytes: 4 });
    await b.resume();
    assert.deepEqual(delivered, ['3', '4444']);
  });

  it('an item larger than MAX SIZE is dropped on its own, evicting nothing (both modes)', () => {
    for (const mode of ['DROP_OLDEST', 'DROP_NEWEST'] as const) {
      const { buffer: b, drops } = fixture(buffer(4, mode));
      b.quiesce();
      b.offer('ab');
      assert.equal(b.offer('abcde'), 'dropped');
      assert.deepEqual(drops, [['larger_than_buffer', 5]], mode);
      assert.deepEqual(b.buffered, { items: 1, bytes: 2 }, mode);
    }
  });

  it('DROP discards and counts everything while quiesced', async () => {
    const { buffer: b, delivered, drops } = fixture({ action: 'DROP' });
    b.quiesce();
    assert.equal(b.offer('a'), 'dropped');
    assert.equal(b.offer('bc'), 'dropped');
    assert.deepEqual(drops, [
      ['quiesce_drop', 1],
      ['quiesce_drop', 2],
    ]);
    await b.resume();
    b.offer('d');
    assert.deepEqual(delivered, ['d']);
  });

  it('drains in batches; what arrives during the drain queues behind the buffer', async () => {
    const { buffer: b, delivered, flush } = fixture(buffer(100, 'DROP_NEWEST'), 2);
    b.quiesce();
    for (const item of ['a', 'b', 'c', 'd', 'e']) b.offer(item);
    const resumed = b.resume();
    assert.deepEqual(delivered, ['a', 'b']);
    assert.equal(b.state, 'draining');
    assert.equal(b.offer('f'), 'buffered');
    flush();
    await resumed;
    assert.deepEqual(delivered, ['a', 'b', 'c', 'd', 'e', 'f']);
    assert.equal(b.state, 'open');
  });

  it('quiesce during a drain stops it; the rest waits for the next resume', async () => {
    const { buffer: b, delivered, flush } = fixture(buffer(100, 'DROP_NEWEST'), 2);
    b.quiesce();
    for (const item of ['a', 'b', 'c', 'd']) b.offer(item);
    const first = b.resume();
    b.quiesce();
    flush();
    await first;
    assert.deepEqual(delivered, ['a', 'b']);
    const second = b.resume();
    flush();
    await second;
    assert.deepEqual(delivered, ['a', 'b', 'c', 'd']);
  });

  it('stop drops the buffer and everything later, counted as stopped', () => {
    const { buffer: b, drops, delivered } = fixture(buffer(100, 'DROP_NEWEST'));
    b.quiesce();
    b.offer('ab');
    b.offer('c');
    assert.equal(b.stop(), 2);
    assert.equal(b.offer('d'), 'dropped');
    assert.deepEqual(drops, [
      ['stopped', 2],
      ['stopped', 1],
      ['stopped', 1],
    ]);
    assert.deepEqual(delivered, []);
  });

  it('a deliver that throws while draining is counted and the drain continues', async () => {
    const delivered: string[] = [];
    const drops: QuiesceDropReason[] = [];
    const b = new QuiesceBuffer<string>({
      policy: buffer(100, 'DROP_NEWEST'),
      sizeOf: (item) => item.length,
      deliver: (item) => {
        if (item === 'bad') throw new Error('boom');
        delivered.push(item);
      },
      onDrop: (reason) => drops.push(reason),
    });
    b.quiesce();
    for (const item of ['a', 'bad', 'c']) b.offer(item);
    await b.resume();
    assert.deepEqual(delivered, ['a', 'c']);
    assert.deepEqual(drops, ['deliver_failed']);
  });

  it('retarget sends the buffer to the swapped component', async () => {
    const { buffer: b, delivered } = fixture(buffer(100, 'DROP_NEWEST'));
    const next: string[] = [];
    b.quiesce();
    b.offer('a');
    b.retarget((item) => next.push(item));
    await b.resume();
    assert.deepEqual(delivered, []);
    assert.deepEqual(next, ['a']);
  });

  it('property: every offered item is delivered once or dropped once, in order, within the bound', () => {
    const op = fc.oneof(
      fc.string({ maxLength: 8 }).map((s) => ({ kind: 'offer' as const, s })),
      fc.constant({ kind: 'quiesce' as const }),
      fc.constant({ kind: 'resume' as const }),
      fc.constant({ kind: 'turn' as const }),
    );
    const policy = fc.oneof(
      fc.record({
        action: fc.constant('BUFFER' as const),
        maxBytes: fc.integer({ min: 1, max: 20 }),
        onOverflow: fc.constantFrom('DROP_OLDEST' as const, 'DROP_NEWEST' as const),
      }),
      fc.constant({ action: 'DROP' as const }),
    );
    fc.assert(
      fc.property(policy, fc.array(op, { maxLength: 60 }), (p, ops) => {
        const { buffer: b, delivered, drops, flush } = fixture(p, 3);
        const offered: string[] = [];
        for (const o of ops) {
          if (o.kind === 'offer') {
            offered.push(`${offered.length}:${o.s}`);
            b.offer(offered[offered.length - 1]!);
          } else if (o.kind === 'quiesce') b.quiesce();
          else if (o.kind === 'resume') void b.resume();
          else flush();
          if (p.action === 'BUFFER') assert.ok(b.buffered.bytes <= p.maxBytes);
        }
        b.quiesce();
        const left = b.buffered.items;
        b.stop();
        assert.equal(delivered.length + drops.length, offered.length);
        assert.equal(drops.filter(([reason]) => reason === 'stopped').length, left);
        const order = delivered.map((item) => offered.indexOf(item));
        assert.deepEqual(
          order,
          [...order].sort((x, y) => x - y),
        );
      }),
    );
  });
});

import assert from 'node:assert/strict';
import fc from 'fast-check';
import { OffsetLedger } from './offset-ledger.js';

describe('OffsetLedger', () => {
  it('commits a partition only past its done prefix', () => {
    const ledger = new OffsetLedger<string>();
    const done7 = ledger.take('t', 0, 7n, 'm7');
    const done8 = ledger.take('t', 0, 8n, 'm8');
    ledger.take('t', 0, 10n, 'm10');
    done8();
    assert.deepEqual(ledger.ready(), []);
    done7();
    assert.deepEqual(ledger.ready(), ['m8']);
    assert.deepEqual(ledger.ready(), [], 'a commit point is handed out once');
    assert.equal(ledger.pending, 1);
  });

  it('keeps partitions apart', () => {
    const ledger = new OffsetLedger<string>();
    const a = ledger.take('t', 0, 1n, 'a');
    ledger.take('t', 1, 1n, 'b');
    const c = ledger.take('u', 0, 5n, 'c');
    a();
    c();
    assert.deepEqual(ledger.ready().sort(), ['a', 'c']);
  });

  it('forgets what was taken before clear(): a late completion commits nothing', () => {
    const ledger = new OffsetLedger<string>();
    const stale = ledger.take('t', 0, 3n, 'old');
    ledger.clear();
    ledger.take('t', 0, 3n, 'again');
    stale();
    assert.deepEqual(ledger.ready(), []);
    assert.equal(ledger.pending, 1);
  });

  it('forget() drops only the lost partitions: a kept one never commits past a message still in a codec', () => {
    const ledger = new OffsetLedger<string>();
    const lost = ledger.take('t', 0, 4n, 'lost');
    const slow = ledger.take('t', 1, 10n, 'slow');
    const next = ledger.take('t', 1, 11n, 'next');
    ledger.forget('t', [0]);
    lost();
    next();
    assert.deepEqual(ledger.ready(), [], 'partition 1 waits for offset 10; partition 0 is gone');
    slow();
    assert.deepEqual(ledger.ready(), ['next']);
  });

  it('retry() hands a failed commit point out again, unless newer or forgotten', () => {
    const ledger = new OffsetLedger<string>();
    ledger.take('t', 0, 1n, 'a')();
    ledger.take('t', 1, 1n, 'b')();
    assert.deepEqual(ledger.ready().sort(), ['a', 'b']);
    ledger.retry('t', 0, 1n, 'a');
    ledger.forget('t', [1]);
    ledger.retry('t', 1, 1n, 'b');
    assert.deepEqual(ledger.ready(), ['a'], 'a kept partition again; a forgotten one not');
    ledger.take('t', 0, 2n, 'c')();
    ledger.retry('t', 0, 1n, 'a');
    assert.deepEqual(ledger.ready(), ['c'], 'a newer commit point wins');
  });

  it('hands out the newest message of the done prefix, whatever the completion order (generated)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 1, max: 3 }), { minLength: 1, maxLength: 200 }),
        fc.func(fc.integer()),
        (gaps, order) => {
          const ledger = new OffsetLedger<bigint>();
          let offset = 0n;
          const offsets = gaps.map((gap) => (offset += BigInt(gap)));
          const marks = offsets.map((at) => ledger.take('t', 0, at, at));
          const finished = new Set<number>();
          const sequence = offsets.map((_, index) => index).sort((a, b) => order(a) - order(b) || a - b);
          let committed: bigint | undefined;
          for (const index of sequence) {
            marks[index]!();
            finished.add(index);
            let prefix = 0;
            while (finished.has(prefix)) prefix++;
            const ready = ledger.ready();
            if (ready.length > 0) committed = ready[0];
            assert.equal(committed, prefix === 0 ? undefined : offsets[prefix - 1]);
          }
          assert.equal(ledger.pending, 0);
        },
      ),
      { seed: 19, numRuns: 300 },
    );
  });
});

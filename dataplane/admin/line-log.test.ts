import assert from 'node:assert/strict';
import fc from 'fast-check';
import { LINE_OVERHEAD_BYTES, LineLog } from './line-log.js';

const cost = (text: string): number => Buffer.byteLength(text) + LINE_OVERHEAD_BYTES;

describe('LineLog', () => {
  it('numbers lines in order, drops the oldest first and counts bytes plus the per-line overhead', () => {
    const log = new LineLog();
    for (const text of ['a\n', 'bb\n', 'ccc\n']) assert.equal(log.append(text), cost(text));
    assert.deepEqual([log.tail, log.head, log.length], [0, 3, 3]);
    assert.equal(log.bytes, 9 + 3 * LINE_OVERHEAD_BYTES);
    assert.equal(log.at(1)?.toString(), 'bb\n');
    assert.equal(log.dropOldest(), 2 + LINE_OVERHEAD_BYTES);
    assert.equal(log.at(0), undefined);
    assert.equal(log.trimTo(3), 7 + 2 * LINE_OVERHEAD_BYTES);
    assert.deepEqual([log.tail, log.head, log.length, log.bytes], [3, 3, 0, 0]);
  });

  it('behaves like an array of the lines since `tail`, for any sequence of operations and any text', () => {
    const text = fc.oneof(
      { weight: 8, arbitrary: fc.string({ unit: 'binary', maxLength: 60 }) },
      { weight: 1, arbitrary: fc.string({ unit: 'binary', minLength: 5_000, maxLength: 30_000 }) },
    );
    const operation = fc.oneof(
      { weight: 6, arbitrary: text.map((append) => ({ append })) },
      { weight: 2, arbitrary: fc.constant({ drop: true }) },
      { weight: 1, arbitrary: fc.integer({ min: 0, max: 40 }).map((ahead) => ({ trim: ahead })) },
      { weight: 1, arbitrary: fc.constant({ clear: true }) },
    );
    fc.assert(
      fc.property(fc.array(operation, { maxLength: 300 }), (ops) => {
        const log = new LineLog();
        let model: string[] = [];
        let tail = 0;
        for (const op of ops) {
          if ('append' in op) {
            assert.equal(log.append(op.append), cost(op.append));
            model.push(op.append);
          } else if ('drop' in op) {
            const dropped = model.shift();
            assert.equal(log.dropOldest(), dropped === undefined ? 0 : cost(dropped));
            if (dropped !== undefined) tail++;
          } else if ('trim' in op) {
            const gone = model.slice(0, op.trim);
            assert.equal(
              log.trimTo(tail + op.trim),
              gone.reduce((sum, line) => sum + cost(line), 0),
            );
            model = model.slice(gone.length);
            tail += gone.length;
          } else {
            log.clear();
            tail += model.length;
            model = [];
          }
          assert.equal(log.tail, tail);
          assert.equal(log.head, tail + model.length);
          assert.equal(
            log.bytes,
            model.reduce((sum, line) => sum + cost(line), 0),
          );
          // A mostly empty ring shrinks back: memory comes back after a burst.
          assert.ok(
            log.capacity <= Math.max(16, 4 * model.length),
            `${log.capacity} slots for ${model.length}`,
          );
        }
        // Every line reads back as its UTF-8 (a line written later never overwrites an earlier one).
        model.forEach((line, index) => {
          const expected = Buffer.from(line, 'utf8');
          assert.deepEqual(log.at(tail + index), expected);
          assert.equal(log.lengthAt(tail + index), expected.length);
          const target = Buffer.alloc(expected.length + 2);
          assert.equal(log.copyTo(tail + index, target, 1), expected.length);
          assert.deepEqual(target.subarray(1, 1 + expected.length), expected);
        });
        assert.equal(log.at(tail - 1), undefined);
        assert.equal(log.lengthAt(tail + model.length), 0);
      }),
      { numRuns: 200 },
    );
  });
});

import assert from 'node:assert/strict';
import { HANG_BASE_MS, hangLimitMs } from './hang-limit.js';
import { quadraticWork } from './targets/toy-quadratic.js';

const KiB = 1024;
const MiB = 1024 * KiB;
/** The budgets the targets declare (test/fuzz/targets/): payload formats, statements, YAML. */
const BUDGETS = [2000, 6000, 10000];

function msFor(bytes: number): number {
  const input = new Uint8Array(bytes).fill(7);
  quadraticWork(input.subarray(0, 1024)); // compiled before it is timed
  let best = Infinity;
  for (let run = 0; run < 3; run++) {
    const started = performance.now();
    quadraticWork(input);
    best = Math.min(best, performance.now() - started);
  }
  return best;
}

describe('fuzz hang limit', () => {
  it('is 1 s, plus the target’s budget per MiB', () => {
    assert.equal(hangLimitMs(0, MiB), HANG_BASE_MS);
    assert.equal(hangLimitMs(5000, MiB), 6000);
    assert.equal(hangLimitMs(2000, 256 * KiB), 1500);
  });

  it('passes a linear parser at half its budget at every size, and flags a quadratic one as fast at 64 KiB at 1 MiB', () => {
    for (const budget of BUDGETS) {
      const linear = (bytes: number): number => ((budget / 2) * bytes) / MiB;
      for (let bytes = KiB; bytes <= MiB; bytes *= 2) assert.ok(linear(bytes) < hangLimitMs(budget, bytes));
      // c·n², equal to the linear parser at 64 KiB: 16 times slower than it at 1 MiB.
      const quadratic = (bytes: number): number => linear(64 * KiB) * (bytes / (64 * KiB)) ** 2;
      assert.ok(quadratic(64 * KiB) < hangLimitMs(budget, 64 * KiB));
      assert.ok(quadratic(MiB) > hangLimitMs(budget, MiB), `budget ${budget}`);
    }
  });

  it('the toy target (npm run fuzz -- --target toy-quadratic) is quadratic: its big inputs are past the limit', () => {
    // Twice the input, four times the work.
    const steps = (bytes: number): number => quadraticWork(new Uint8Array(bytes)).steps;
    assert.ok(Math.abs(steps(64 * KiB) / steps(32 * KiB) - 4) < 0.01);
    const double = msFor(64 * KiB);
    assert.ok(double < hangLimitMs(10000, 64 * KiB), 'as fast as a parser at 64 KiB');
  });
});

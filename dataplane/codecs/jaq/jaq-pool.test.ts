import assert from 'node:assert/strict';
import { JaqPool } from './jaq-pool.js';
import type { InputOutcome } from './program-queue.js';

describe('JaqPool: jq on worker threads, batched, bounded in time', function () {
  this.timeout(30_000);
  let pool: JaqPool;

  afterEach(async () => {
    await pool.close();
  });

  it('gathers the inputs waiting at the same moment into one call of jq, and answers each in order', async () => {
    pool = new JaqPool({ workers: 1 });
    const program = '.n * 2, .n';
    // The first call of a program is a probe of 16 inputs that measures what an input costs.
    await Promise.all(Array.from({ length: 16 }, () => pool.run(program, '{"n":0}')));
    const calls = pool.stats.calls;
    const inputs = Array.from({ length: 300 }, (_, index) => `{"n":${index}}`);
    const outcomes = await Promise.all(inputs.map((input) => pool.run(program, input)));
    assert.deepEqual(
      outcomes,
      inputs.map((_, index) => ({ outputs: [index * 2, index] })),
    );
    assert.equal(pool.stats.inputs, 316);
    // The cost measured on the probe includes the fixed cost of a call, so the first big call may be split.
    assert.ok(
      pool.stats.calls - calls <= 3,
      `${pool.stats.calls - calls} calls for 300 inputs waiting together`,
    );
  });

  it('sizes calls of a costly program from what its inputs cost, so they stay far inside the time limit', async () => {
    pool = new JaqPool({ workers: 1, timeLimitMs: 2000 });
    const program = '[range(100000)] | length'; // ~20 ms an input here
    const run = (count: number): Promise<InputOutcome[]> =>
      Promise.all(Array.from({ length: count }, () => pool.run(program, 'null')));
    await run(16); // the probe call measures the cost
    const calls = pool.stats.calls;
    const outcomes = await run(100);
    assert.deepEqual(outcomes[99], { outputs: [100000] });
    assert.equal(pool.stats.timeLimits, 0);
    assert.ok(
      pool.stats.calls - calls >= 2,
      'calls of about 500 ms each (a quarter of the limit), not one of 2 s',
    );
  });

  it('keeps 64-bit integers exact through jq when the program passes them on', async () => {
    pool = new JaqPool({ workers: 1 });
    const outcome = await pool.run(
      '{big: .big, small: .small}',
      '{"big":18446744073709551615,"small":-9223372036854775808}',
    );
    assert.deepEqual(outcome, { outputs: [{ big: 18446744073709551615n, small: -9223372036854775808n }] });
  });

  it('keeps the error an input raises to that input', async () => {
    pool = new JaqPool({ workers: 1 });
    const outcomes = await Promise.all(['"a"', '[1]', '"b"'].map((input) => pool.run('.[]', input)));
    assert.deepEqual(outcomes[1], { outputs: [1] });
    assert.deepEqual(outcomes[0], { raised: 'Cannot iterate over string ("a")' });
    assert.deepEqual(outcomes[2], { raised: 'Cannot iterate over string ("b")' });
  });

  it('fails only the input that halts jq; the rest of its batch still runs', async () => {
    pool = new JaqPool({ workers: 1 });
    const program = 'if . == 2 then halt_error else . + 10 end';
    const outcomes = await Promise.all(['1', '2', '3', '4'].map((input) => pool.run(program, input)));
    assert.deepEqual(outcomes, [
      { outputs: [11] },
      { failed: 'halted' },
      { outputs: [13] },
      { outputs: [14] },
    ]);
  });

  it('stops a runaway program at the time limit, replaces the worker, and runs the others of its batch alone', async () => {
    pool = new JaqPool({ workers: 1, timeLimitMs: 1500 });
    // A runaway that holds no memory: `repeat(.)` may exhaust jq's memory (a crash) before the limit.
    const program = 'if . == 2 then first(range(1e18) | select(. < 0)) else . end';
    const outcomes = await Promise.all(['1', '2', '3'].map((input) => pool.run(program, input)));
    assert.deepEqual(outcomes, [{ outputs: [1] }, { failed: 'time_limit' }, { outputs: [3] }]);
    assert.equal(pool.stats.timeLimits, 2, 'the batch, then the runaway input alone');
    assert.deepEqual(await pool.run('. + 1', '41'), { outputs: [42] }, 'the new worker works');
  });

  it('shows the program nothing of the environment through $ENV or env', async () => {
    process.env.STREAMROUTE_SECRET_FOR_TEST = 'hunter2';
    pool = new JaqPool({ workers: 1 });
    try {
      const outcome = await pool.run('[$ENV, env, ($ENV | length)]', 'null');
      assert.deepEqual(outcome, { outputs: [[{}, {}, 0]] });
    } finally {
      delete process.env.STREAMROUTE_SECRET_FOR_TEST;
    }
  });

  it('refuses inputs beyond the waiting limit at once, in order with the others', async () => {
    pool = new JaqPool({ workers: 1, maxQueuedBytes: 10 });
    const outcomes = await Promise.all(['"12345"', '"67890"', '1'].map((input) => pool.run('.', input)));
    assert.deepEqual(outcomes, [
      { outputs: ['12345'] },
      { failed: 'overloaded' },
      { outputs: [1] },
    ] satisfies InputOutcome[]);
    assert.equal(pool.stats.refused, 1);
  });

  it('answers a program that does not compile with jq’s message for every input', async () => {
    pool = new JaqPool({ workers: 1 });
    const outcome = await pool.run('{a: }', '1');
    assert.deepEqual(outcome, {
      failed: 'not_compiled',
      detail: "syntax error, unexpected '}' (line 1, column 5)",
    });
  });

  it('spreads programs over several workers and answers all of them', async () => {
    pool = new JaqPool({ workers: 2, maxBatchInputs: 10 });
    await pool.run('.', '0'); // both workers are started on the first dispatch
    const runs = Array.from({ length: 100 }, (_, index) =>
      pool.run(index % 2 === 0 ? '. + 1' : '. - 1', String(index)),
    );
    const outcomes = await Promise.all(runs);
    assert.deepEqual(
      outcomes,
      Array.from({ length: 100 }, (_, index) => ({ outputs: [index % 2 === 0 ? index + 1 : index - 1] })),
    );
    assert.ok(pool.stats.calls >= 11, 'batches are capped at 10 inputs');
    assert.equal(pool.stats.workersStarted, 2);
  });

  it('fails what is running when it is closed, and stops its time limit (regression)', async () => {
    pool = new JaqPool({ workers: 1, timeLimitMs: 60_000 });
    await pool.run('.', '0');
    const running = pool.run('repeat(.)', '1');
    await new Promise((resolve) => setTimeout(resolve, 100));
    await pool.close();
    assert.deepEqual(await running, { failed: 'crashed', detail: 'the JAQ engine is stopped' });
  });

  it('fails what is waiting when it is closed', async () => {
    pool = new JaqPool({ workers: 1 });
    const waiting = pool.run('.', '1');
    await pool.close();
    assert.deepEqual(await waiting, { failed: 'crashed', detail: 'the JAQ engine is stopped' });
    assert.deepEqual(await pool.run('.', '2'), { failed: 'crashed', detail: 'the JAQ engine is stopped' });
  });
});

import assert from 'node:assert/strict';
import fc from 'fast-check';
import { HOSTILE_EXAMPLES, hostileProgram } from '../../../test/fixtures/hostile-jaq-programs.js';
import {
  checkJaqProgram,
  configureJaqCheck,
  DEFAULT_JAQ_CHECK_LIMITS,
  jaqCheckStats,
  limitsFrom,
  loadJaqCheck,
} from './compile-check.js';

let unique = 0;
/** A program no earlier check has seen (the check keeps answers by program text). */
const fresh = (body = '.order_id'): string => `${body} | .n${unique++}`;

function assertIntact(): void {
  assert.deepEqual(checkJaqProgram(fresh('{order_id: .id, amount: .amount}')), { outcome: 'compiles' });
  assert.deepEqual(checkJaqProgram(fresh('{order_id: .id | frobnicate}')), {
    outcome: 'error',
    problem: 'frobnicate/0 is not defined (line 1, column 18)',
  });
}

describe('compile-check: jq compiles in a thread of its own, within limits', () => {
  before(() => loadJaqCheck());
  afterEach(() => configureJaqCheck(DEFAULT_JAQ_CHECK_LIMITS));

  it('answers whether a program compiles, with jq’s message located in the program', () => {
    assert.deepEqual(checkJaqProgram(fresh()), { outcome: 'compiles' });
    assert.deepEqual(checkJaqProgram('.a |\n  {b: }'), {
      outcome: 'error',
      problem: "syntax error, unexpected '}' (line 2, column 7)",
    });
    // Compiled, never run: a runaway program is checked as quickly as any other.
    assert.deepEqual(checkJaqProgram(fresh('repeat(.)')), { outcome: 'compiles' });
  });

  for (const { name, program, failures } of HOSTILE_EXAMPLES) {
    it(`bug: ${name} crashed or hung the caller — now 'exhausted', and the next check works`, function () {
      this.timeout(30_000);
      const answer = checkJaqProgram(program);
      assert.equal(answer.outcome, 'exhausted', JSON.stringify(answer));
      assert.ok(failures.includes(answer.failure), answer.failure);
      assertIntact();
    });
  }

  it('generated: every program of every hostile class is contained, and jq is intact after it', function () {
    this.timeout(180_000);
    fc.assert(
      fc.property(hostileProgram, ({ program, failures }) => {
        const answer = checkJaqProgram(program);
        assert.equal(answer.outcome, 'exhausted', JSON.stringify(answer));
        assert.ok(failures.includes(answer.failure), answer.failure);
        assertIntact();
      }),
      { numRuns: 12 },
    );
  });

  it('stops a compile at the time limit, whatever the program does (nested definitions loop in jq)', function () {
    this.timeout(30_000);
    configureJaqCheck({ timeLimitMs: 300 });
    const started = performance.now();
    const answer = checkJaqProgram(`${'def f:'.repeat(1450)}.${';f'.repeat(1450)}`);
    assert.ok(performance.now() - started < 3000, 'answered soon after the limit');
    assert.equal(answer.outcome, 'exhausted');
    if (answer.failure === 'time_limit')
      assert.equal(answer.detail, "jq did not finish compiling it within the check's time limit of 300 ms");
    assertIntact();
  });

  it('holds jq to the memory limit, and replaces a thread whose memory grew (memory is given back)', function () {
    this.timeout(30_000);
    configureJaqCheck({ maxMemoryMiB: 32 });
    assert.deepEqual(checkJaqProgram('"x" * 40000000'), {
      outcome: 'exhausted',
      failure: 'out_of_memory',
      detail:
        "jq needs more than the check's 32 MiB to compile it (jq evaluates constant expressions, such as a string repeated many times, while compiling)",
    });
    configureJaqCheck({ maxMemoryMiB: 128 });
    const started = jaqCheckStats.threadsStarted;
    assert.deepEqual(checkJaqProgram('"x" * 40000000'), { outcome: 'compiles' });
    assertIntact();
    // One thread for the big constant, retired with its memory; another for the checks after it.
    assert.equal(jaqCheckStats.threadsStarted, started + 2, 'the grown thread was replaced');
  });

  it('a program nested just short of jq’s stack compiles; one that reaches the stack guard is too deep', function () {
    this.timeout(30_000);
    const nested = (depth: number) => `${'def f:'.repeat(depth)}.${';f'.repeat(depth)}`;
    configureJaqCheck({ timeLimitMs: 5000 }); // 1,000 nested definitions take about 150 ms: room for a busy machine
    assert.deepEqual(checkJaqProgram(nested(1000)), { outcome: 'compiles' });
    assert.deepEqual(checkJaqProgram(nested(1400)), {
      outcome: 'exhausted',
      failure: 'too_deep',
      detail: "it nests too deeply for jq's compiler",
    });
    assertIntact();
  });

  it('answers a program it has seen from memory (a node recompiles its domain at every statement)', () => {
    const program = fresh();
    checkJaqProgram(program);
    const { checks, cached } = jaqCheckStats;
    assert.deepEqual(checkJaqProgram(program), { outcome: 'compiles' });
    assert.deepEqual([jaqCheckStats.checks, jaqCheckStats.cached], [checks, cached + 1]);
  });

  it('takes its limits from the environment; a value that is not a positive whole number is ignored', () => {
    assert.deepEqual(limitsFrom({}), { timeLimitMs: 1000, maxMemoryMiB: 64 });
    assert.deepEqual(
      limitsFrom({ STREAMROUTE_JAQ_CHECK_TIME_LIMIT_MS: '2500', STREAMROUTE_JAQ_CHECK_MEMORY_MIB: ' 128 ' }),
      { timeLimitMs: 2500, maxMemoryMiB: 128 },
    );
    for (const bad of ['0', '-5', '1e3', 'lots', '', '99999999'])
      assert.deepEqual(
        limitsFrom({ STREAMROUTE_JAQ_CHECK_TIME_LIMIT_MS: bad, STREAMROUTE_JAQ_CHECK_MEMORY_MIB: bad }),
        DEFAULT_JAQ_CHECK_LIMITS,
      );
  });
});

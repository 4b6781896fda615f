// The compiled path against jq 1.8 (jq-wasm in this thread): generated programs of the subset on generated
// inputs must give jq's outputs, or raise what jq raises (test/support/jq-diff/). A fixed seed and a budget
// for `npm test`; `npm run fuzz -- --target jaq-compiled --seconds N` runs the same check for longer.
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { compileJq } from './compile-jq.js';
import type { CompileResult } from './compiled-program.js';
import { parseJsonValue, toJsonText, type JsonValue } from '../../json-value.js';
import { subsetProgramArbitrary } from '../../../../test/support/jq-diff/routing-arbitrary.js';
import { printProgram } from '../../../../test/support/jq-diff/program-ast.js';
import { inputsArbitrary } from '../../../../test/support/jq-diff/input-arbitrary.js';
import { JqOracle } from '../../../../test/support/jq-diff/jq-oracle.js';
import { describeMismatch, differential, Tally } from '../../../../test/support/jq-diff/differential.js';

const SEED = 18;
/** Programs per run: about 10 s here, each on up to four inputs. */
const RUNS = 2500;

/** jq itself as a "compiled" program, with `alter` applied to its outputs: the harness's own check. */
function jqAsCompiled(oracle: JqOracle, alter: (outputs: JsonValue[]) => JsonValue[]) {
  return (source: string): CompileResult => {
    const { compileError } = oracle.run(source, []);
    if (compileError !== undefined) return { outside: compileError };
    return {
      compiled: {
        run(input, options) {
          const [outcome] = oracle.run(source, [options.inputText ?? toJsonText(input)]).outcomes;
          if (outcome === undefined || 'rejected' in outcome || 'broken' in outcome)
            return { engine: 'error_text' };
          return 'outputs' in outcome ? { outputs: alter(outcome.outputs) } : outcome;
        },
      },
    };
  };
}

describe('compiled jq: the differential test against jq 1.8 (jq-wasm)', function () {
  this.timeout(60_000);
  let oracle: JqOracle;

  before(async () => {
    oracle = await JqOracle.load();
    assert.equal(oracle.version, 'jq-1.8.2');
  });

  /** Runs the property; the first mismatch, shrunk, fails it. */
  function check(compile: (source: string) => CompileResult, runs: number, tally: Tally): void {
    fc.assert(
      fc.property(subsetProgramArbitrary(), inputsArbitrary(), (ast, inputs) => {
        const mismatch = differential({ compile, oracle, tally }, printProgram(ast), inputs);
        if (mismatch !== undefined)
          throw new Error(`compiled jq differs from jq 1.8\n${describeMismatch(mismatch)}`);
      }),
      { seed: SEED, numRuns: runs },
    );
  }

  it('the harness agrees with jq compared to itself, and finds a difference planted in it', () => {
    const tally = new Tally();
    check(
      jqAsCompiled(oracle, (outputs) => outputs),
      200,
      tally,
    );
    assert.ok(tally.compared > 300, tally.summary());
    // one planted difference for each way a value can differ and not show in its JSON text
    const plants: ((value: JsonValue) => JsonValue)[] = [
      (value) => (typeof value === 'bigint' ? Number(value) : value),
      (value) => (Object.is(value, 0) ? -0 : value),
      (value) => (Array.isArray(value) && value.length > 1 ? [...value].reverse() : value),
      (value) =>
        typeof value === 'string' && value.length > 0
          ? parseJsonValue(JSON.stringify(value.normalize('NFD')))
          : value,
    ];
    for (const plant of plants) {
      assert.throws(
        () =>
          check(
            jqAsCompiled(oracle, (outputs) => outputs.map(plant)),
            2000,
            new Tally(),
          ),
        (error: Error) =>
          error.cause instanceof Error && /^compiled jq differs from jq 1\.8/.test(error.cause.message),
      );
    }
  });

  it('generated programs of the subset give jq’s outputs and errors on generated inputs', () => {
    const tally = new Tally();
    check(compileJq, RUNS, tally);
    console.log(`      ${tally.summary()}`);
    const compiled = (tally.programs - tally.outside) / tally.programs;
    assert.ok(
      compiled >= 0.9,
      `only ${Math.round(compiled * 100)}% compiled: ${[...tally.outsideReasons].join('; ')}`,
    );
    assert.ok(
      tally.engineOnPlainInputs <= 0.1 * tally.plainInputs,
      `too many engine answers: ${tally.summary()}`,
    );
    // most errors jq raises quote a value in jq's printing, which the compiled path leaves to jq (engine):
    // what must be compared is nearly every case jq answers with outputs
    assert.ok(tally.comparedWithOutputs >= 0.9 * tally.withOutputs, tally.summary());
  });
});

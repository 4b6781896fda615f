// Compiled jq against jq 1.8 (dataplane/codecs/jaq/compiled/, issue 18): the differential property test
// (differential.property.test.ts) for as long as the runner is given. An input's bytes are only a seed: they
// pick one generated program of the subset and up to four generated inputs (test/support/jq-diff/), the
// compiled path and jq-wasm run them, and any difference is a crash whose text is the shrunk program, input
// and both answers. Shrinking stops after SHRINK_MS, so one input stays far under the 1 s hang limit.
import fc from 'fast-check';
import { compileJq } from '../../../dataplane/codecs/jaq/compiled/compile-jq.js';
import { describeMismatch, differential, Tally, type Mismatch } from '../../support/jq-diff/differential.js';
import { inputsArbitrary } from '../../support/jq-diff/input-arbitrary.js';
import { JqOracle } from '../../support/jq-diff/jq-oracle.js';
import { printProgram } from '../../support/jq-diff/program-ast.js';
import { subsetProgramArbitrary } from '../../support/jq-diff/routing-arbitrary.js';
import { texts } from '../seeds.js';
import type { FuzzTarget } from '../target.js';

const SHRINK_MS = 400;

const oracle = await JqOracle.load();
const tally = new Tally();
const harness = { compile: compileJq, oracle, tally };
const programs = subsetProgramArbitrary();
const inputs = inputsArbitrary();

/** FNV-1a of the bytes: the fast-check seed they stand for. */
function seedOf(bytes: Uint8Array): number {
  let hash = 0x811c9dc5;
  for (const byte of bytes) hash = Math.imul(hash ^ byte, 0x01000193);
  return hash | 0;
}

/** The kind of difference, for the first line (the runner groups findings by it). */
function kind(mismatch: Mismatch): string {
  const word = (text: string): string => (/^\w+/.exec(text) ?? ['?'])[0];
  const raised = (text: string): string => (/\((\w+)\)$/.exec(text) ?? ['', ''])[1] ?? '';
  return `compiled ${word(mismatch.compiled)} ${raised(mismatch.compiled)}, jq ${word(mismatch.jq)} ${raised(mismatch.jq)}`;
}

export const target: FuzzTarget = {
  tokens: ['\x00', '\xff', 'jq', '1.8'],
  nests: [],
  maxBytes: 64,
  seeds: () => texts('1', '18', 'jq', 'routing', 'compiled'),
  run(input) {
    const outsideBefore = tally.outside;
    let found: Mismatch | undefined;
    const details = fc.check(
      fc.property(programs, inputs, (ast, values) => {
        const mismatch = differential(harness, printProgram(ast), values);
        found = mismatch ?? found;
        return mismatch === undefined;
      }),
      { seed: seedOf(input), numRuns: 1, interruptAfterTimeLimit: SHRINK_MS, markInterruptAsFailure: false },
    );
    // the last mismatch seen is the most shrunk one: shrinking only moves on from a failing case
    if (details.failed && found !== undefined)
      throw new Error(`${kind(found)}: compiled jq differs from jq 1.8\n${describeMismatch(found)}`);
    return tally.outside === outsideBefore;
  },
};

// The entry to the jq → JavaScript compiler (decision 0028): parse the subset, build closures, run them
// on one input at a time within the step budget. docs/codecs.md, "Compiled programs".
import type { JsonValue } from '../../json-value.js';
import type { CompiledOutcome, CompiledProgram, CompileResult, RunOptions } from './compiled-program.js';
import { compile, type Variables } from './jq-closures.js';
import type { Gen } from './jq-code.js';
import { lineColumn, Outside, parseJq } from './jq-parser.js';
import { inputNumbers } from './jq-number-text.js';
import { budget, JqError, made, NeedsEngine, settledOutput } from './jq-values.js';

/** Compiles `source` when it lies entirely inside the subset. */
export function compileJq(source: string): CompileResult {
  try {
    const { ast, slots } = parseJq(source);
    const vars: Variables = new Array<JsonValue>(slots).fill(null);
    return { compiled: new Program(compile(ast, vars).gen) };
  } catch (error: unknown) {
    // a program nested deeper than JavaScript's stack allows the parser or the compiler
    if (error instanceof RangeError) return { outside: 'nesting deeper than the compiler takes' };
    if (!(error instanceof Outside)) throw error;
    return { outside: `${error.construct} (${lineColumn(source, error.offset)})` };
  }
}

class Program implements CompiledProgram {
  constructor(private readonly gen: Gen) {}

  run(input: JsonValue, options: RunOptions): CompiledOutcome {
    budget.steps = 0;
    made.unusual = false;
    inputNumbers.text = options.inputText;
    inputNumbers.plain = undefined;
    const outputs: JsonValue[] = [];
    let outcome: CompiledOutcome;
    try {
      this.gen(input, (output) => outputs.push(output));
      outcome = { outputs };
    } catch (error: unknown) {
      outcome = stopped(error);
    } finally {
      inputNumbers.text = undefined;
    }
    if (!made.unusual || 'engine' in outcome) return outcome;
    // jq prints an integer beyond 2^53 it computed as digits (read back as a bigint), and one it read
    // written with an exponent (`9.223372036854776e+18`) as written; JavaScript holds both as the same
    // double, so with such a number in the input only jq knows which outputs are which
    if (holdsUnsafeDouble(input)) return { engine: 'number_precision' };
    return 'outputs' in outcome
      ? { outputs: outcome.outputs.map(settledOutput) }
      : { raised: settledOutput(outcome.raised) };
  }
}

/** The outcome of a run that threw. */
function stopped(error: unknown): CompiledOutcome {
  if (error instanceof NeedsEngine) return { engine: error.reason };
  if (error instanceof JqError) return error.exact ? { raised: error.value } : { engine: 'error_text' };
  // deeply nested values (comparisons, text) or a value too large for JavaScript
  if (error instanceof RangeError) return { engine: 'size' };
  throw error;
}

/** Whether a value holds an integer beyond 2^53 as a double (JSON input wrote it with an exponent). */
function holdsUnsafeDouble(value: JsonValue): boolean {
  if (typeof value === 'number') return Number.isInteger(value) && !Number.isSafeInteger(value);
  if (value === null || typeof value !== 'object') return false;
  if (Array.isArray(value)) return value.some(holdsUnsafeDouble);
  return Object.keys(value).some((key) => holdsUnsafeDouble(value[key] as JsonValue));
}

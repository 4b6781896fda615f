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
    try {
      this.gen(input, (output) => outputs.push(output));
    } catch (error: unknown) {
      if (error instanceof NeedsEngine) return { engine: error.reason };
      if (error instanceof JqError)
        return error.exact ? { raised: settled(error.value) } : { engine: 'error_text' };
      // deeply nested values (comparisons, text) or a value too large for JavaScript
      if (error instanceof RangeError) return { engine: 'size' };
      throw error;
    } finally {
      inputNumbers.text = undefined;
    }
    return { outputs: made.unusual ? outputs.map(settledOutput) : outputs };
  }
}

function settled(value: JsonValue): JsonValue {
  return made.unusual ? settledOutput(value) : value;
}

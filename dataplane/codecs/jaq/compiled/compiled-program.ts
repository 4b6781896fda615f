// What a jq program compiled to JavaScript is to its callers (decision 0028, docs/codecs.md "Compiled
// programs"): run on one input value, it gives the outputs, the value raised, or `engine`: this input needs
// jq itself (a number whose text jq keeps, an object key order JavaScript does not, more work than the
// event loop is given), and the caller runs the input on jq-wasm, which has the time limit. A program
// outside the subset is not compiled at all.
import type { JsonValue } from '../../json-value.js';

export type CompiledOutcome = { outputs: JsonValue[] } | { raised: JsonValue } | { engine: EngineReason };

/**
 * Why one input runs on jq-wasm although its program is compiled: a number's text jq kept, an object's key
 * order, the text of an error jq raised itself, a comparison only jq's decimals decide, more work than the
 * event loop is given (STEP_LIMIT), a value too large to build here.
 */
export type EngineReason = 'number_text' | 'key_order' | 'error_text' | 'number_precision' | 'work' | 'size';

export interface RunOptions {
  /**
   * The input's JSON text as it arrived, when it did (the JSON format): numbers written in a form jq
   * keeps (`1.50`, `1e2`) are found in it only when the program turns numbers into text.
   */
  inputText?: string | undefined;
}

export interface CompiledProgram {
  run(input: JsonValue, options: RunOptions): CompiledOutcome;
}

/** A program is compiled, or the first construct outside the subset says why not. */
export type CompileResult = { compiled: CompiledProgram } | { outside: string };

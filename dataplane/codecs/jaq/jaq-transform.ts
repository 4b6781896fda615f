// The two jq programs of a codec, as the codecs use them: ON INGESTION turns a payload's inputs into
// records (every output object is a record, in order; one failing input or output fails the payload as a
// whole: docs/codecs.md, "JAQ codecs"), ON EMITTING turns a record into exactly one value for the format to
// write. A program in the compiled subset runs compiled (decision 0028); any other, and every input a
// compiled one leaves to jq, runs on the node's JAQ pool. Neither rejects. A runtime error becomes one of a
// fixed set of kinds (jq-error-kind.ts): nothing of jq's text or of the value raised reaches the message
// error.
import type { GraphSchema } from '../../graph/types.js';
import { messageError, type MessageError, type MessageErrorDetail } from '../../core/errors.js';
import type { RecordValues } from '../../core/values.js';
import type { DecodeResult } from '../codec.js';
import { toJsonText, type JsonValue } from '../json-value.js';
import type { CompiledOutcome, CompiledProgram, RunOptions } from './compiled/compiled-program.js';
import type { JaqPool } from './jaq-pool.js';
import { JQ_ERROR_KINDS, jqErrorKind } from './jq-error-kind.js';
import type { InputOutcome } from './program-queue.js';
import { compiledProgram, programPathStats } from './program-path.js';
import { recordView, ViewReader } from './view-records.js';

/**
 * A payload's inputs as the format read them for a compiled program: values, and the JSON text of each
 * when the payload was JSON.
 */
export interface ValueInputs {
  values: readonly JsonValue[];
  texts?: readonly string[] | undefined;
}

/** Reads a payload's inputs as text, for those a compiled program leaves to jq-wasm. */
export type Reread = (payload: Uint8Array) => Promise<readonly string[]>;

/** An input's outcome from either engine (a compiled program's `engine` answers are run by jq-wasm). */
type Outcome = InputOutcome | Exclude<CompiledOutcome, { engine: unknown }>;

/** Which engine runs a program: the compiled one when the program is in its subset (`auto`), or jq-wasm. */
export type EngineChoice = 'auto' | 'jq-wasm';

function compiledFor(program: string, engine: EngineChoice): CompiledProgram | undefined {
  if (engine === 'jq-wasm') return undefined;
  const compiled = compiledProgram(program);
  return 'compiled' in compiled ? compiled.compiled : undefined;
}

export class IngestionProgram {
  readonly #reader: ViewReader;
  readonly #compiled: CompiledProgram | undefined;
  /** Reused for every run (a run reads them and keeps nothing). */
  readonly #options: RunOptions;

  constructor(
    private readonly program: string,
    schema: GraphSchema,
    private readonly pool: JaqPool,
    engine: EngineChoice = 'auto',
  ) {
    this.#reader = new ViewReader(schema);
    this.#compiled = compiledFor(program, engine);
    this.#options = {};
  }

  /** Whether the program runs compiled (then the codec reads values for it). */
  get compiled(): boolean {
    return this.#compiled !== undefined;
  }

  /** Records from the program's outputs for every input (JSON text) of one payload, all run on jq-wasm. */
  records(inputs: readonly string[]): Promise<DecodeResult> {
    return Promise.all(inputs.map((input) => this.pool.run(this.program, input))).then((outcomes) =>
      this.#result(outcomes, false),
    );
  }

  /**
   * Records from a compiled program's outputs for every input of one payload. It answers on the spot; an
   * input it leaves to jq waits for the pool, with the texts `reread` gives for the payload.
   */
  recordsOfValues(
    inputs: ValueInputs,
    payload: Uint8Array,
    reread: Reread,
  ): DecodeResult | Promise<DecodeResult> {
    const compiled = this.#compiled;
    if (compiled === undefined) throw new Error('recordsOfValues needs a compiled program');
    const { values, texts } = inputs;
    const outcomes: CompiledOutcome[] = [];
    let engine = false;
    for (let index = 0; index < values.length; index += 1) {
      this.#options.inputText = texts?.[index];
      const outcome = compiled.run(values[index] as JsonValue, this.#options);
      engine ||= 'engine' in outcome;
      outcomes.push(outcome);
    }
    this.#options.inputText = undefined;
    if (!engine) return this.#result(outcomes as Outcome[], true);
    return this.#withEngine(outcomes, inputs, () => reread(payload));
  }

  async #withEngine(
    outcomes: readonly CompiledOutcome[],
    inputs: ValueInputs,
    reread: () => Promise<readonly string[]>,
  ): Promise<DecodeResult> {
    const texts = inputs.texts ?? (await reread());
    const settled = await Promise.all(
      outcomes.map(async (outcome, index): Promise<Outcome> => {
        if (!('engine' in outcome)) return outcome;
        programPathStats.compiledFallbacks += 1;
        return this.pool.run(this.program, texts[index] ?? toJsonText(inputs.values[index] ?? null));
      }),
    );
    return this.#result(settled, false);
  }

  /** `compiled`: no input of the payload went to jq-wasm. */
  #result(outcomes: readonly Outcome[], compiled: boolean): DecodeResult {
    const outputs: JsonValue[] = [];
    const count = outcomes.length;
    for (const [index, outcome] of outcomes.entries()) {
      if (!('outputs' in outcome)) {
        const where = count > 1 ? ` (document ${index + 1})` : '';
        const program = `the ON INGESTION program${where}`;
        const detail: MessageErrorDetail = { clause: 'ON INGESTION' };
        if (count > 1) detail.input = index + 1;
        return { error: failure(outcome, program, detail, this.pool) };
      }
      outputs.push(...outcome.outputs);
    }
    const result = this.#reader.records(outputs);
    if ('records' in result) countRecords(compiled, result.records.length);
    return result;
  }
}

export class EmittingProgram {
  readonly #compiled: CompiledProgram | undefined;

  constructor(
    private readonly program: string,
    private readonly schema: GraphSchema,
    private readonly pool: JaqPool,
    engine: EngineChoice = 'auto',
  ) {
    this.#compiled = compiledFor(program, engine);
  }

  /** The one value the program yields for the record. */
  value(
    record: Readonly<RecordValues>,
  ):
    { value: JsonValue } | { error: MessageError } | Promise<{ value: JsonValue } | { error: MessageError }> {
    const view = recordView(record, this.schema);
    if (this.#compiled !== undefined) {
      const outcome = this.#compiled.run(view, {});
      if (!('engine' in outcome)) return this.#value(outcome, true);
      programPathStats.compiledFallbacks += 1;
    }
    return this.pool.run(this.program, toJsonText(view)).then((outcome) => this.#value(outcome, false));
  }

  #value(outcome: Outcome, compiled: boolean): { value: JsonValue } | { error: MessageError } {
    if (!('outputs' in outcome))
      return {
        error: failure(outcome, 'the ON EMITTING program', { clause: 'ON EMITTING' }, this.pool),
      };
    const [value, ...more] = outcome.outputs;
    if (value === undefined || more.length > 0) {
      const count = outcome.outputs.length;
      return {
        error: messageError(
          'SR3015',
          `the ON EMITTING program yielded ${count} values for a record; it must yield exactly one`,
          { clause: 'ON EMITTING' },
        ),
      };
    }
    countRecords(compiled, 1);
    return { value };
  }
}

function countRecords(compiled: boolean, count: number): void {
  if (compiled) programPathStats.compiledRecords += count;
  else programPathStats.engineRecords += count;
}

/**
 * The message error for an input that gave no outputs; `program` names the clause (and document). A value
 * raised becomes its kind; `outcome.detail` is the engine's own text (a compile error quotes the program,
 * from the graph) and never holds payload text.
 */
function failure(
  outcome: Exclude<Outcome, { outputs: JsonValue[] }>,
  program: string,
  detail: MessageErrorDetail,
  pool: JaqPool,
): MessageError {
  if ('raised' in outcome) {
    const kind = jqErrorKind(outcome.raised);
    return messageError('SR3012', `${program} failed: ${kind}, ${JQ_ERROR_KINDS[kind]}`, {
      ...detail,
      jqError: kind,
    });
  }
  switch (outcome.failed) {
    case 'halted':
      return messageError('SR3012', `${program} stopped jq (halt or halt_error)`, detail);
    case 'time_limit':
      return messageError(
        'SR3013',
        `${program} ran past its time limit of ${pool.options.timeLimitMs} ms`,
        detail,
      );
    case 'overloaded':
      return messageError(
        'SR3017',
        `the JAQ engine has ${pool.options.maxQueuedBytes} bytes of input waiting already`,
        detail,
      );
    case 'not_compiled':
      return messageError('SR3012', `${program} does not compile: ${outcome.detail ?? 'jq failed'}`, detail);
    default:
      return messageError(
        'SR3012',
        `jq stopped unexpectedly running ${program}${outcome.detail === undefined ? '' : ` (${outcome.detail})`}`,
        detail,
      );
  }
}

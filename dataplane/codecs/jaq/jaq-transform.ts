// The two jq programs of a codec, as the codecs use them: ON INGESTION turns a payload's inputs into
// records (every output object is a record, in order; one failing input or output fails the payload as a
// whole: docs/codecs.md, "JAQ codecs"), ON EMITTING turns a record into exactly one value for the format to
// write. Both run on the node's JAQ pool and never reject.
import type { GraphSchema } from '../../graph/types.js';
import { messageError, type MessageError } from '../../core/errors.js';
import type { RecordValues } from '../../core/values.js';
import type { DecodeResult } from '../codec.js';
import { toJsonText, type JsonValue } from '../json-value.js';
import type { JaqPool } from './jaq-pool.js';
import { runtimeProblem } from './jaq-program.js';
import type { InputOutcome } from './program-queue.js';
import { recordView, ViewReader } from './view-records.js';

export class IngestionProgram {
  readonly #reader: ViewReader;
  readonly #withhold: boolean;

  constructor(
    private readonly program: string,
    schema: GraphSchema,
    private readonly pool: JaqPool,
  ) {
    this.#reader = new ViewReader(schema);
    this.#withhold = schema.fields.some((field) => field.sensitive);
  }

  /** Records from the program's outputs for every input (JSON text) of one payload. */
  async records(inputs: readonly string[]): Promise<DecodeResult> {
    const outcomes = await Promise.all(inputs.map((input) => this.pool.run(this.program, input)));
    const outputs: JsonValue[] = [];
    for (const [index, outcome] of outcomes.entries()) {
      if (!('outputs' in outcome)) {
        const where = inputs.length > 1 ? ` (document ${index + 1})` : '';
        const program = `the ON INGESTION program${where}`;
        return { error: failure(outcome, { program, withhold: this.#withhold }, this.pool) };
      }
      outputs.push(...outcome.outputs);
    }
    return this.#reader.records(outputs);
  }
}

export class EmittingProgram {
  readonly #withhold: boolean;

  constructor(
    private readonly program: string,
    private readonly schema: GraphSchema,
    private readonly pool: JaqPool,
  ) {
    this.#withhold = schema.fields.some((field) => field.sensitive);
  }

  /** The one value the program yields for the record. */
  async value(record: Readonly<RecordValues>): Promise<{ value: JsonValue } | { error: MessageError }> {
    const outcome = await this.pool.run(this.program, toJsonText(recordView(record, this.schema)));
    if (!('outputs' in outcome))
      return {
        error: failure(outcome, { program: 'the ON EMITTING program', withhold: this.#withhold }, this.pool),
      };
    const [value, ...more] = outcome.outputs;
    if (value === undefined || more.length > 0) {
      const count = outcome.outputs.length;
      return {
        error: messageError(
          'SR3015',
          `the ON EMITTING program yielded ${count} values for a record; it must yield exactly one`,
        ),
      };
    }
    return { value };
  }
}

/** The message error for an input that gave no outputs; `program` names the clause (and document). */
function failure(
  outcome: Exclude<InputOutcome, { outputs: JsonValue[] }>,
  { program, withhold }: { program: string; withhold: boolean },
  pool: JaqPool,
): MessageError {
  if ('raised' in outcome)
    return messageError('SR3012', `${program} raised ${runtimeProblem(outcome.raised, withhold)}`);
  switch (outcome.failed) {
    case 'halted':
      return messageError('SR3012', `${program} stopped jq (halt or halt_error)`);
    case 'time_limit':
      return messageError('SR3013', `${program} ran past its time limit of ${pool.options.timeLimitMs} ms`);
    case 'overloaded':
      return messageError(
        'SR3017',
        `the JAQ engine has ${pool.options.maxQueuedBytes} bytes of input waiting already`,
      );
    case 'not_compiled':
      return messageError('SR3012', `${program} does not compile: ${outcome.detail ?? 'jq failed'}`);
    default:
      return messageError(
        'SR3012',
        `jq stopped unexpectedly running ${program}${outcome.detail === undefined ? '' : ` (${outcome.detail})`}`,
      );
  }
}

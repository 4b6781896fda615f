// The two jq programs of a codec, as the codecs use them: ON INGESTION turns a payload's inputs into
// records (every output object is a record, in order; one failing input or output fails the payload as a
// whole: docs/codecs.md, "JAQ codecs"), ON EMITTING turns a record into exactly one value for the format to
// write. Both run on the node's JAQ pool and never reject. A runtime error becomes one of a fixed set of
// kinds (jq-error-kind.ts): nothing of jq's text or of the value raised reaches the message error.
import type { GraphSchema } from '../../graph/types.js';
import { messageError, type MessageError, type MessageErrorDetail } from '../../core/errors.js';
import type { RecordValues } from '../../core/values.js';
import type { DecodeResult } from '../codec.js';
import { toJsonText, type JsonValue } from '../json-value.js';
import type { JaqPool } from './jaq-pool.js';
import { JQ_ERROR_KINDS, jqErrorKind } from './jq-error-kind.js';
import type { InputOutcome } from './program-queue.js';
import { recordView, ViewReader } from './view-records.js';

export class IngestionProgram {
  readonly #reader: ViewReader;

  constructor(
    private readonly program: string,
    schema: GraphSchema,
    private readonly pool: JaqPool,
  ) {
    this.#reader = new ViewReader(schema);
  }

  /** Records from the program's outputs for every input (JSON text) of one payload. */
  async records(inputs: readonly string[]): Promise<DecodeResult> {
    const outcomes = await Promise.all(inputs.map((input) => this.pool.run(this.program, input)));
    const outputs: JsonValue[] = [];
    for (const [index, outcome] of outcomes.entries()) {
      if (!('outputs' in outcome)) {
        const where = inputs.length > 1 ? ` (document ${index + 1})` : '';
        const program = `the ON INGESTION program${where}`;
        const detail: MessageErrorDetail = { clause: 'ON INGESTION' };
        if (inputs.length > 1) detail.input = index + 1;
        return { error: failure(outcome, program, detail, this.pool) };
      }
      outputs.push(...outcome.outputs);
    }
    return this.#reader.records(outputs);
  }
}

export class EmittingProgram {
  constructor(
    private readonly program: string,
    private readonly schema: GraphSchema,
    private readonly pool: JaqPool,
  ) {}

  /** The one value the program yields for the record. */
  async value(record: Readonly<RecordValues>): Promise<{ value: JsonValue } | { error: MessageError }> {
    const outcome = await this.pool.run(this.program, toJsonText(recordView(record, this.schema)));
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
    return { value };
  }
}

/**
 * The message error for an input that gave no outputs; `program` names the clause (and document). A value
 * raised becomes its kind; `outcome.detail` is the engine's own text (a compile error quotes the program,
 * from the graph) and never holds payload text.
 */
function failure(
  outcome: Exclude<InputOutcome, { outputs: JsonValue[] }>,
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

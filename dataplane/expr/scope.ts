// What an expression reads at run time: one record per scope (docs/compiler.md, "Scopes").
// A field the record lacks reads as null, so `metadata.` of a source that does not know a value is null.
import type { ExprType, Scope } from '../graph/expression.js';
import type { Instant, RecordValues, Value } from '../core/values.js';

export type EvalScope = Partial<Record<Scope, Readonly<RecordValues>>>;

/** A compiled expression: reads its scopes, returns a value; throws RecordError when it fails at run time. */
export type Evaluate = (scope: EvalScope) => Value;

export interface ExpressionOptions {
  /** The clock `now()` reads. */
  now: () => Instant;
}

/** A graph the runtime cannot run (an expression without its type, an unknown function): refused on build. */
export class GraphBuildError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'GraphBuildError';
  }
}

/** A compiled operand with the static type the compiler gave it. */
export interface Operand {
  evaluate: Evaluate;
  type: ExprType;
}

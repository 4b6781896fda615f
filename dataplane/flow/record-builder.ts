// Builds the record a route places on its target relay: INHERIT ALL copies the listed fields from `input.`,
// then the SET assignments run in order, each seeing the fields already inherited or assigned as
// `output.`. Every value is converted to its field's type (a U8 value into an I64 field becomes a bigint,
// an I64 literal into a U8 field is range-checked) and the finished record must conform to the target
// schema: a null left in a field that is not OPTIONAL is SR3104. Failures throw a RecordError naming the
// field, which the route turns into a message error.
//
// This runs for every record a route places, so the record is made by one object literal per target
// schema (record-literal.ts): every record of a relay has one hidden class, and the inherited fields are
// read with named, monomorphic loads instead of keyed stores and loads over the field names.
import type { GraphAssignment, GraphField, GraphSchema } from '../graph/types.js';
import { fieldConverter, identity, type Convert } from '../expr/convert.js';
import { RecordError } from '../core/errors.js';
import { compileExpression } from '../expr/expressions.js';
import { inheritingLiteral, requiredCheck } from '../core/record-literal.js';
import { GraphBuildError, type EvalScope, type Evaluate, type ExpressionOptions } from '../expr/scope.js';
import type { RecordValues } from '../core/values.js';

export interface RecordBuilderSpec {
  /** For reasons: `relay orders`. */
  target: string;
  schema: GraphSchema;
  /** Fields copied from `input.` (INHERIT ALL, spelled out by the compiler). */
  inherit: readonly string[];
  set: readonly GraphAssignment[];
  /** The schema `input.` holds, to check that inherited fields keep their type; unknown when omitted. */
  source?: GraphSchema;
}

/** Builds one record from the scopes (its `output.` is the record being built); throws RecordError. */
export type BuildRecord = (scope: EvalScope) => RecordValues;

interface Step {
  field: string;
  evaluate: Evaluate;
  convert: Convert;
}

export function compileRecordBuilder(spec: RecordBuilderSpec, options: ExpressionOptions): BuildRecord {
  const fields = new Map(spec.schema.fields.map((field) => [field.name, field]));
  const inherit = spec.inherit.map((name) => {
    checkInherited(spec, fieldOf(fields, name, spec.target), spec.source);
    return name;
  });
  const steps = spec.set.map((assignment): Step => {
    const field = fieldOf(fields, assignment.field, spec.target);
    const evaluate = compileExpression(assignment.value, options);
    const from = assignment.value.type ?? 'NULL';
    const convert = fieldConverter(from, field.type, `field ${field.name} of ${spec.target}`);
    if (convert === undefined) {
      throw new GraphBuildError(
        `SET ${field.name} of ${spec.target}: a ${from} value cannot go into ${field.type}`,
      );
    }
    return { field: field.name, evaluate, convert };
  });
  const names = spec.schema.fields.map((field) => field.name);
  const required = spec.schema.fields.filter((field) => !field.optional).map((field) => field.name);
  const target = spec.target;
  const start = inheritingLiteral(names, new Set(inherit));
  const firstNull = requiredCheck(required);

  return (scope) => {
    const output = start(scope.input);
    if (steps.length > 0) {
      const local: EvalScope = { ...scope, output };
      for (const step of steps) {
        const value = step.evaluate(local);
        output[step.field] = step.convert === identity ? value : step.convert(value);
      }
    }
    const missing = firstNull(output);
    if (missing >= 0) {
      const name = required[missing] ?? '';
      throw new RecordError('SR3104', `field ${name} of ${target} is not OPTIONAL, but its value is null`);
    }
    return output;
  };
}

function fieldOf(fields: ReadonlyMap<string, GraphField>, name: string, target: string): GraphField {
  const field = fields.get(name);
  if (field === undefined) throw new GraphBuildError(`${target} has no field ${name}`);
  return field;
}

function checkInherited(spec: RecordBuilderSpec, field: GraphField, source: GraphSchema | undefined): void {
  if (source === undefined) return;
  const from = source.fields.find((candidate) => candidate.name === field.name);
  if (from === undefined)
    throw new GraphBuildError(`INHERIT ALL into ${spec.target}: input has no field ${field.name}`);
  if (from.type !== field.type) {
    throw new GraphBuildError(
      `INHERIT ALL into ${spec.target}: field ${field.name} is ${from.type} in the input but ${field.type} here`,
    );
  }
}

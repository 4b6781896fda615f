// A codec FROM WIRE JSON SCHEMA: every field its schema requires comes from the wire schema, with a type
// the wire type can carry — string → STRING or DATETIME (RFC 3339 text), integer → an integer type or
// F64 (SR2015). Wire fields the schema does not declare are read and dropped; OPTIONAL schema fields
// missing from the wire schema stay null.
import { displayName } from '../api/display-names.js';
import type { GraphObject } from '../api/index.js';
import { isIntegerType, type FieldType } from '../../dataplane/graph/field-types.js';
import type { WireType } from '../../dataplane/graph/types.js';
import { keyOf, label, type CompileContext, type SchemaField } from './context.js';

const CARRIES: Record<WireType, (type: FieldType) => boolean> = {
  string: (type) => type === 'STRING' || type === 'DATETIME',
  integer: (type) => isIntegerType(type) || type === 'F64',
};

const CARRIES_TEXT: Record<WireType, string> = {
  string: 'STRING or DATETIME',
  integer: 'an integer type or F64',
};

export function checkWireSchema(ctx: CompileContext, objects: readonly GraphObject[]): void {
  for (const object of objects) {
    if (object.kind !== 'Codec' || object.spec.wireSchema === undefined) continue;
    const wire = ctx.accepted('WireSchema', object.spec.wireSchema);
    const fields = ctx.schemaFields(object.spec.schema);
    if (wire === undefined || fields === undefined) continue;
    const wireTypes = new Map(wire.spec.fields.map((field) => [field.name, field.type]));
    for (const field of fields.values()) {
      const problem = fieldProblem(field, wireTypes.get(field.name), displayName(wire));
      if (problem !== undefined) {
        ctx.report(
          keyOf(object),
          'SR2015',
          'spec.wireSchema',
          `${label(object)}: schema ${ctx.show('Schema', object.spec.schema)} field ${problem}`,
        );
      }
    }
  }
}

function fieldProblem(field: SchemaField, wireType: WireType | undefined, wire: string): string | undefined {
  if (wireType === undefined) {
    return field.optional
      ? undefined
      : `${field.name} (${field.type}) is required, but wire schema ${wire} has no field ${field.name}; add it to the wire schema or declare it OPTIONAL`;
  }
  if (CARRIES[wireType](field.type)) return undefined;
  return `${field.name} is ${field.type}, but wire schema ${wire} declares it ${wireType}; a wire ${wireType} carries ${CARRIES_TEXT[wireType]}`;
}

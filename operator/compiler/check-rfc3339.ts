// ENCODE <field> AS RFC3339 names a DATETIME field of the codec's schema (SR2016).
import type { GraphObject } from '../api/index.js';
import { keyOf, label, type CompileContext } from './context.js';

export function checkRfc3339(ctx: CompileContext, objects: readonly GraphObject[]): void {
  for (const object of objects) {
    if (object.kind !== 'Codec' || object.spec.encodeRfc3339 === undefined) continue;
    const fields = ctx.schemaFields(object.spec.schema);
    if (fields === undefined) continue;
    object.spec.encodeRfc3339.forEach((name, index) => {
      const field = fields.get(name);
      if (field?.type === 'DATETIME') return;
      const found =
        field === undefined
          ? `schema ${ctx.show('Schema', object.spec.schema)} has no field ${name}`
          : `${name} is ${field.type}`;
      ctx.report(
        keyOf(object),
        'SR2016',
        `spec.encodeRfc3339[${index}]`,
        `${label(object)}: ENCODE ${name} AS RFC3339 needs a DATETIME field of schema ${ctx.show('Schema', object.spec.schema)}, but ${found}`,
      );
    });
  }
}

// A JAQ ingestion program that can yield null for a field its schema does not mark OPTIONAL (SR2010).
// Conservative by design (docs/compiler.md): only what the last stage's object construction plainly sets
// to null is flagged — `key: null`, `key: … // null`, an `if … end` with a null branch. A plain path
// such as `.x` may be null at run time too; that is the runtime's schema check, not this one.
import type { GraphObject } from '../api/index.js';
import { keyOf, label, type CompileContext } from './context.js';
import { nullableOutputKeys } from './jaq-outline.js';

export function checkJaqNulls(ctx: CompileContext, objects: readonly GraphObject[]): void {
  for (const object of objects) {
    if (object.kind !== 'Codec' || object.spec.jaq === undefined) continue;
    const fields = ctx.schemaFields(object.spec.schema);
    if (fields === undefined) continue;
    for (const { key, why } of nullableOutputKeys(object.spec.jaq.ingestion)) {
      const field = fields.get(key);
      if (field === undefined || field.optional) continue;
      ctx.report(
        keyOf(object),
        'SR2010',
        'spec.jaq.ingestion',
        `${label(object)}: the ON INGESTION program can yield null for ${key} (${why}), but schema ${ctx.show('Schema', object.spec.schema)} declares ${key} ${field.type} without OPTIONAL; declare it OPTIONAL or give a non-null default`,
      );
    }
  }
}

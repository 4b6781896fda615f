// The one comparison of two sets of schema fields, for every check that needs one: junction inputs
// (SR2063), a correlator's timeout target (SR2022) and an emitter's codec against its relay (SR2019).
import type { SchemaField } from './context.js';

/** Fields and what to call them in a message: `relay orders`, `schema line`. */
export interface FieldSet {
  what: string;
  fields: ReadonlyMap<string, SchemaField>;
}

/**
 * - `same-types`: the same field names with the same types; optionality and sensitivity may differ
 *   (a junction's inputs, merged into one `input.`).
 * - `same-shapes`: the same names, types and optionality (a timeout target gets the records unchanged).
 * - `carries`: the second carries what the first needs: each field of the first is in the second with
 *   its type, and not OPTIONAL there where it is not OPTIONAL in the first; an OPTIONAL one may be missing
 *   (an emitter's relay for its codec's schema).
 */
export type Likeness = 'same-types' | 'same-shapes' | 'carries';

/** `I64`, `STRING OPTIONAL`. */
export function shapeText(shape: { type: string; optional: boolean }): string {
  return `${shape.type}${shape.optional ? ' OPTIONAL' : ''}`;
}

/** How `b` fails to be like `a`, in words; undefined when it is like it. */
export function schemaDifference(a: FieldSet, b: FieldSet, likeness: Likeness): string | undefined {
  for (const field of a.fields.values()) {
    const problem = fieldDifference(field, a, b, likeness);
    if (problem !== undefined) return problem;
  }
  if (likeness === 'carries') return undefined;
  const extra = [...b.fields.keys()].find((name) => !a.fields.has(name));
  return extra === undefined ? undefined : `${a.what} has no field ${extra}`;
}

function fieldDifference(
  field: SchemaField,
  a: FieldSet,
  b: FieldSet,
  likeness: Likeness,
): string | undefined {
  const other = b.fields.get(field.name);
  if (other === undefined) {
    if (likeness === 'carries' && field.optional) return undefined;
    return `${b.what} has no field ${field.name}${likeness === 'carries' ? `, which ${a.what} requires` : ''}`;
  }
  if (other.type === field.type && OPTIONALITY_FITS[likeness](field.optional, other.optional))
    return undefined;
  const text = likeness === 'same-types' ? (f: SchemaField) => f.type : shapeText;
  return `${field.name} is ${text(field)} in ${a.what} but ${text(other)} in ${b.what}`;
}

/** Whether a field's optionality in the second set fits its optionality in the first. */
const OPTIONALITY_FITS: Record<Likeness, (first: boolean, second: boolean) => boolean> = {
  'same-types': () => true,
  'same-shapes': (first, second) => first === second,
  carries: (first, second) => first || !second,
};

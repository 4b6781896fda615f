// A JAQ ingestion program whose objects plainly put a value of the wrong kind under a key its schema
// declares (SR2066): `amount: (.x | tostring)` into an I64, `placed_at: true` into a DATETIME. Read from
// the program's tree when it is in the compiled subset (decision 0028); a kind that depends on the input
// (`.x`) is never flagged, and null is SR2010's. Every record would fail at run time (SR3005), so the
// codec is refused now.
import type { GraphObject } from '../api/index.js';
import { keyOf, label, type CompileContext } from './context.js';
import { outputKeyKinds } from '../../dataplane/codecs/jaq/compiled/jq-output-kinds.js';
import { parseJq, Outside } from '../../dataplane/codecs/jaq/compiled/jq-parser.js';
import type { Kind } from '../../dataplane/codecs/jaq/compiled/jq-values.js';
import type { Ast } from '../../dataplane/codecs/jaq/compiled/jq-ast.js';

/** The kinds of JSON view value each field type takes from an output (docs/codecs.md, "JAQ codecs"). */
function accepted(type: string): readonly Kind[] {
  switch (type) {
    case 'STRING':
    case 'BYTES':
      return ['string'];
    case 'BOOL':
      return ['boolean'];
    case 'DATETIME':
      return ['string', 'number'];
    default:
      return ['number']; // the integer types and F64
  }
}

export function checkJaqTypes(ctx: CompileContext, objects: readonly GraphObject[]): void {
  for (const object of objects) {
    if (object.kind !== 'Codec' || object.spec.jaq === undefined) continue;
    const fields = ctx.schemaFields(object.spec.schema);
    const ast = fields === undefined ? undefined : treeOf(object.spec.jaq.ingestion);
    if (fields === undefined || ast === undefined) continue;
    for (const { key, kinds } of outputKeyKinds(ast)) {
      const field = fields.get(key);
      const given = [...(kinds ?? [])].filter((kind) => kind !== 'null');
      if (field === undefined || kinds === undefined || given.length === 0) continue;
      const takes = accepted(field.type);
      if (given.some((kind) => takes.includes(kind))) continue;
      ctx.report(
        keyOf(object),
        'SR2066',
        'spec.jaq.ingestion',
        `${label(object)}: the ON INGESTION program yields ${given.map(article).join(' or ')} for ${key}, but schema ${ctx.show('Schema', object.spec.schema)} declares ${key} ${field.type}, which takes ${takes.map(article).join(' or ')}`,
      );
    }
  }
}

function treeOf(program: string): Ast | undefined {
  try {
    return parseJq(program).ast;
  } catch (error: unknown) {
    if (error instanceof Outside || error instanceof RangeError) return undefined;
    throw error;
  }
}

function article(kind: Kind): string {
  return kind === 'array' || kind === 'object' ? `an ${kind}` : `a ${kind}`;
}

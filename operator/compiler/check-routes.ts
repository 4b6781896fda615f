// Routes and error handlers against their target relay's schema: SET names a field of it (SR2003), INHERIT
// ALL copies only fields of the same type (SR2002), every expression types (SR1015, SR2003–SR2008), every
// value fits its field (SR2005) and is never null where the field is not OPTIONAL (SR2007), and every
// required field is assigned or inherited (SR2004). Typed expressions are kept for lowering.
import type { GraphObject } from '../api/index.js';
import type { Assignment } from '../api/common.js';
import { keyOf, type CompileContext, type RelaySchema, type SchemaField } from './context.js';
import { assignable, describeType, type Typing } from './expression-types.js';
import { routeSites, type RouteSite } from './route-sites.js';
import type { ScopeField } from './type-expression.js';
import { typeField } from './type-field.js';

const ROUTED_KINDS = [
  'HttpIngestor',
  'SyslogIngestor',
  'TopicIngestor',
  'Junction',
  'Correlator',
  'Emitter',
] as const;

export function checkRoutes(ctx: CompileContext, objects: readonly GraphObject[]): void {
  for (const object of objects) {
    if (!(ROUTED_KINDS as readonly string[]).includes(object.kind)) continue;
    for (const site of routeSites(ctx, object)) {
      const target = ctx.relaySchema(site.target);
      if (target !== undefined && site.scopes !== undefined) checkSite(ctx, site, target);
    }
  }
}

interface Built {
  site: RouteSite;
  target: RelaySchema;
  /** `output.` so far: the fields inherited or assigned, with the nullability of what went in. */
  output: Map<string, ScopeField>;
  /** Inherited fields whose source may be null, until a SET overrides them. */
  nullableInherited: Set<string>;
}

function checkSite(ctx: CompileContext, site: RouteSite, target: RelaySchema): void {
  const built: Built = { site, target, output: new Map(), nullableInherited: new Set() };
  if (site.inheritAll) inherit(ctx, built);
  site.set.forEach((assignment, index) => assign(ctx, built, assignment, index));
  for (const name of built.nullableInherited) {
    ctx.report(
      keyOf(site.object),
      'SR2007',
      `${site.path}.inheritAll`,
      `${site.describe}: INHERIT ALL copies input.${name}, which may be null, into field ${name} of relay ${target.shown.relay}, which is not OPTIONAL; SET ${name} = coalesce(input.${name}, …) or declare ${name} OPTIONAL in schema ${target.shown.schema}`,
    );
  }
  for (const field of target.fields.values()) {
    if (field.optional || built.output.has(field.name)) continue;
    ctx.report(
      keyOf(site.object),
      'SR2004',
      site.path,
      `${site.describe} leaves field ${field.name} (${field.type}) of relay ${target.shown.relay} unassigned; it is not OPTIONAL in schema ${target.shown.schema}, so SET it${site.isCorrelatorRoute ? '' : ' or INHERIT ALL from an input that has it'}`,
    );
  }
}

function inherit(ctx: CompileContext, built: Built): void {
  const { site, target } = built;
  const source = site.inheritFrom;
  if (source === undefined) return; // correlator routes: INHERIT is SR2020, reported by the object's rule
  for (const field of target.fields.values()) {
    const from = source.fields.get(field.name);
    if (from === undefined) continue;
    if (from.type !== field.type) {
      ctx.report(
        keyOf(site.object),
        'SR2002',
        `${site.path}.inheritAll`,
        `${site.describe}: INHERIT ALL copies input.${field.name} (${from.type}) into field ${field.name} of relay ${target.shown.relay}, which is ${field.type}; the types must match`,
      );
      continue;
    }
    built.output.set(field.name, { type: field.type, nullable: from.nullable, sensitive: field.sensitive });
    if (from.nullable && !field.optional) built.nullableInherited.add(field.name);
  }
}

function assign(ctx: CompileContext, built: Built, assignment: Assignment, index: number): void {
  const { site, target } = built;
  const key = keyOf(site.object);
  const at = `${site.path}.set[${index}]`;
  const field = target.fields.get(assignment.field);
  const subject = `${site.describe}, SET ${assignment.field}`;
  if (field === undefined) {
    ctx.report(
      key,
      'SR2003',
      `${at}.field`,
      `${subject}: relay ${target.shown.relay} (schema ${target.shown.schema}) has no field ${assignment.field}; its fields are ${[...target.fields.keys()].join(', ')}`,
    );
  }
  const scopes = {
    ...site.scopes,
    output: { what: 'output (the fields assigned so far)', fields: built.output },
  };
  const typed = typeField(ctx, key, { path: `${at}.value`, text: assignment.value, subject }, scopes);
  if (typed === undefined || field === undefined) return;
  built.nullableInherited.delete(field.name);
  built.output.set(field.name, {
    type: field.type,
    nullable: typed.typing.nullable,
    sensitive: field.sensitive,
  });
  if (typed.problems.length === 0)
    checkFit(ctx, built, `${at}.value`, { subject, field, typing: typed.typing });
}

/** A well-typed value against its field: of a type the field takes (SR2005), never null where not OPTIONAL (SR2007). */
function checkFit(
  ctx: CompileContext,
  { site, target }: Built,
  path: string,
  { subject, field, typing }: { subject: string; field: SchemaField; typing: Typing },
): void {
  const key = keyOf(site.object);
  const where = `field ${field.name} of relay ${target.shown.relay}`;
  if (!assignable(typing, field.type)) {
    ctx.report(
      key,
      'SR2005',
      path,
      typing.constant === undefined
        ? `${subject}: the value is ${describeType(typing)}, but ${where} is ${field.type}; expected a ${field.type} value`
        : `${subject}: the value ${typing.constant} does not fit ${where}, which is ${field.type}`,
    );
  } else if (typing.nullable && !field.optional) {
    ctx.report(
      key,
      'SR2007',
      path,
      `${subject}: the value may be null, but ${where} is not OPTIONAL; wrap it in coalesce(…, <default>) or declare ${field.name} OPTIONAL in schema ${target.shown.schema}`,
    );
  }
}

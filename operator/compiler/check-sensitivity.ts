// SENSITIVE propagation (docs/language.md, "Sensitivity"). A field fed from a SENSITIVE value — by SET (any
// expression that reads one), INHERIT ALL, a junction, a correlator output or a timeout forward — must itself
// be SENSITIVE (SR2050). An emitter sends out the fields of its codec's schema, and a Kafka emitter also
// what its KEY reads; those that are SENSITIVE (in the codec's schema or on the relay) must be named in
// ALLOW SENSITIVE (SR2051), and ALLOW SENSITIVE names only such fields (SR2052).
import { displayName } from '../api/display-names.js';
import type { Expr } from '../../dataplane/graph/expression.js';
import type { GraphObject } from '../api/index.js';
import { keyOf, label, type CompileContext, type RelaySchema } from './context.js';
import { routeSites, type RouteSite } from './route-sites.js';
import type { Scopes } from './type-expression.js';

export function checkSensitivity(ctx: CompileContext, objects: readonly GraphObject[]): void {
  for (const object of objects) {
    for (const site of routeSites(ctx, object)) {
      const target = ctx.relaySchema(site.target);
      if (target !== undefined && site.scopes !== undefined) checkSite(ctx, site, target, site.scopes);
    }
    if (object.kind === 'Correlator') checkTimeouts(ctx, object);
    if (object.kind === 'Emitter') checkEmitter(ctx, object);
  }
}

function checkSite(ctx: CompileContext, site: RouteSite, target: RelaySchema, scopes: Scopes): void {
  const report = (path: string, field: string, from: string): void =>
    ctx.report(
      keyOf(site.object),
      'SR2050',
      path,
      `${site.describe}: field ${field} of relay ${target.shown.relay} is fed from SENSITIVE ${from}, so it must be SENSITIVE too; declare ${field} SENSITIVE in schema ${target.shown.schema}`,
    );
  for (const field of target.fields.values()) {
    if (!site.inheritAll || field.sensitive) continue;
    if (site.inheritFrom?.fields.get(field.name)?.sensitive === true)
      report(`${site.path}.inheritAll`, field.name, `input.${field.name}`);
  }
  site.set.forEach((assignment, index) => {
    const field = target.fields.get(assignment.field);
    const expr = ctx.parse(assignment.value).expr;
    if (field === undefined || field.sensitive || expr === undefined) return;
    const read = fieldReads(expr).find(({ scope, name }) =>
      scope === 'output'
        ? target.fields.get(name)?.sensitive === true
        : scopes[scope]?.fields.get(name)?.sensitive === true,
    );
    if (read !== undefined)
      report(`${site.path}.set[${index}].value`, field.name, `${read.scope}.${read.name}`);
  });
}

function fieldReads(expr: Expr): Extract<Expr, { kind: 'field' }>[] {
  switch (expr.kind) {
    case 'field':
      return [expr];
    case 'unary':
    case 'is-null':
      return fieldReads(expr.operand);
    case 'binary':
      return [...fieldReads(expr.left), ...fieldReads(expr.right)];
    case 'call':
      return expr.args.flatMap(fieldReads);
    case 'literal':
      return [];
  }
}

/** The `input.` fields a Kafka emitter's KEY reads (none when it has no KEY or the KEY does not parse). */
function keyReads(ctx: CompileContext, emitter: GraphObject<'Emitter'>): string[] {
  const { key } = emitter.spec.to;
  const expr = key === undefined ? undefined : ctx.parse(key).expr;
  if (expr === undefined) return [];
  const names = fieldReads(expr)
    .filter((read) => read.scope === 'input')
    .map((read) => read.name);
  return [...new Set(names)];
}

function checkTimeouts(ctx: CompileContext, correlator: GraphObject<'Correlator'>): void {
  for (const side of ['left', 'right'] as const) {
    const source = ctx.relaySchema(correlator.spec[side]);
    const relay = correlator.spec.onTimeout[side].relay;
    const target = relay === undefined ? undefined : ctx.relaySchema(relay);
    if (source === undefined || target === undefined) continue;
    for (const field of source.fields.values()) {
      if (!field.sensitive || target.fields.get(field.name)?.sensitive !== false) continue;
      ctx.report(
        keyOf(correlator),
        'SR2050',
        `spec.onTimeout.${side}.relay`,
        `${label(correlator)}: ON CORRELATION TIMEOUT forwards SENSITIVE field ${field.name} of relay ${source.shown.relay} to relay ${target.shown.relay}, where it is not SENSITIVE; declare it SENSITIVE in schema ${target.shown.schema}`,
      );
    }
  }
}

function checkEmitter(ctx: CompileContext, emitter: GraphObject<'Emitter'>): void {
  const codec = ctx.accepted('Codec', emitter.spec.codec);
  const fields = codec && ctx.schemaFields(codec.spec.schema);
  const relay = ctx.relaySchema(emitter.spec.from);
  if (codec === undefined || fields === undefined || relay === undefined) return;
  const encoded = [...fields.values()]
    .filter((field) => field.sensitive || relay.fields.get(field.name)?.sensitive === true)
    .map((field) => field.name);
  const inKey = keyReads(ctx, emitter).filter((name) => relay.fields.get(name)?.sensitive === true);
  const allowed = emitter.spec.allowSensitive ?? [];
  const unallowed = (names: string[]): string[] => names.filter((name) => !allowed.includes(name));
  const missing = unallowed(encoded);
  if (missing.length > 0) {
    ctx.report(
      keyOf(emitter),
      'SR2051',
      'spec.codec',
      `${label(emitter)} would send SENSITIVE fields ${missing.join(', ')} out through codec ${displayName(codec)}; name them in ALLOW SENSITIVE (${missing.join(', ')}) to allow it`,
    );
  }
  const keyMissing = unallowed(inKey);
  if (keyMissing.length > 0) {
    ctx.report(
      keyOf(emitter),
      'SR2051',
      'spec.to.key',
      `${label(emitter)}: KEY reads SENSITIVE fields ${keyMissing.join(', ')} and would send them out as the message key; name them in ALLOW SENSITIVE (${keyMissing.join(', ')}) to allow it`,
    );
  }
  const sensitive = [...new Set([...encoded, ...inKey])];
  allowed.forEach((name, index) => {
    if (sensitive.includes(name)) return;
    ctx.report(
      keyOf(emitter),
      'SR2052',
      `spec.allowSensitive[${index}]`,
      `${label(emitter)}: ALLOW SENSITIVE names ${name}, which is not a SENSITIVE field of schema ${ctx.show('Schema', codec.spec.schema)} (codec ${displayName(codec)})${inKey.length > 0 ? ' nor read by its KEY' : ''}${sensitive.length > 0 ? `; the SENSITIVE fields are ${sensitive.join(', ')}` : ''}`,
    );
  });
}

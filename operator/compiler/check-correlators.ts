// Correlators: CORRELATE WHERE is a BOOL over left. and right. (SR1015, SR2003–SR2008); every relay it
// reads or writes shares the correlator's branch (SR2021); a timeout SEND TO target carries exactly the
// fields, types and optionality of that side, since the record is forwarded unchanged (SR2022).
// Routes (set-only, required fields) are check-routes'; INHERIT is the kind's own rule (SR2020).
import type { GraphObject } from '../api/index.js';
import { keyOf, label, type CompileContext, type RelaySchema } from './context.js';
import { schemaScope } from './expression-scopes.js';
import { typeExpression } from './type-expression.js';

export function checkCorrelators(ctx: CompileContext, objects: readonly GraphObject[]): void {
  for (const object of objects) {
    if (object.kind !== 'Correlator') continue;
    checkBranches(ctx, object);
    const left = ctx.relaySchema(object.spec.left);
    const right = ctx.relaySchema(object.spec.right);
    if (left === undefined || right === undefined) continue;
    checkWhere(ctx, object, left, right);
    for (const [side, schema] of [
      ['left', left],
      ['right', right],
    ] as const) {
      const action = object.spec.onTimeout[side];
      const target = action.relay === undefined ? undefined : ctx.relaySchema(action.relay);
      const problem = target && timeoutProblem(schema, target);
      if (problem === undefined) continue;
      ctx.report(
        keyOf(object),
        'SR2022',
        `spec.onTimeout.${side}.relay`,
        `${label(object)}: ON CORRELATION TIMEOUT forwards ${side} records of relay ${schema.relay} unchanged to relay ${target?.relay ?? ''}, so its schema must have the same fields, types and optionality: ${problem}`,
      );
    }
  }
}

function checkWhere(
  ctx: CompileContext,
  object: GraphObject<'Correlator'>,
  left: RelaySchema,
  right: RelaySchema,
): void {
  const key = keyOf(object);
  const parsed = ctx.parse(object.spec.where);
  if (parsed.expr === undefined) {
    const why = parsed.diagnostics.map((d) => d.message).join('; ');
    ctx.report(key, 'SR1015', 'spec.where', `${label(object)}: CORRELATE WHERE does not parse: ${why}`);
    return;
  }
  const typed = typeExpression(parsed.expr, {
    left: schemaScope(`left (relay ${left.relay})`, left.fields),
    right: schemaScope(`right (relay ${right.relay})`, right.fields),
  });
  for (const problem of typed.problems) {
    ctx.report(key, problem.code, 'spec.where', `${label(object)}: CORRELATE WHERE: ${problem.message}`);
  }
  ctx.setTyped(key, 'spec.where', typed.expr);
  if (typed.problems.length === 0 && typed.typing.type !== 'BOOL') {
    ctx.report(
      key,
      'SR2005',
      'spec.where',
      `${label(object)}: CORRELATE WHERE is ${typed.typing.type}; expected a BOOL condition`,
    );
  }
}

function checkBranches(ctx: CompileContext, object: GraphObject<'Correlator'>): void {
  const { spec } = object;
  const branching: string = spec.branching;
  const uses: [string, string | undefined][] = [
    ['spec.left', spec.left],
    ['spec.right', spec.right],
    ['spec.onTimeout.left.relay', spec.onTimeout.left.relay],
    ['spec.onTimeout.right.relay', spec.onTimeout.right.relay],
    ...spec.routes.map((route, index): [string, string] => [`spec.routes[${index}].to`, route.to]),
  ];
  for (const [path, name] of uses) {
    const relay = name === undefined ? undefined : ctx.accepted('Relay', name);
    const relayBranching: string | undefined = relay?.spec.branching;
    if (relay === undefined || relayBranching === branching) continue;
    ctx.report(
      keyOf(object),
      'SR2021',
      path,
      `${label(object)} is ${branching}, but relay ${relay.metadata.name} is ${relayBranching}; a correlator's relays and timeout targets must share its branch`,
    );
  }
}

function timeoutProblem(side: RelaySchema, target: RelaySchema): string | undefined {
  for (const field of side.fields.values()) {
    const other = target.fields.get(field.name);
    if (other === undefined) return `${target.relay} has no field ${field.name}`;
    if (other.type !== field.type || other.optional !== field.optional) {
      const shape = (f: { type: string; optional: boolean }): string =>
        `${f.type}${f.optional ? ' OPTIONAL' : ''}`;
      return `${field.name} is ${shape(field)} in ${side.relay} but ${shape(other)} in ${target.relay}`;
    }
  }
  for (const field of target.fields.values()) {
    if (!side.fields.has(field.name))
      return `${target.relay} has field ${field.name}, which ${side.relay} lacks`;
  }
  return undefined;
}

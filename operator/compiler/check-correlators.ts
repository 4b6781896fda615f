// Correlators: CORRELATE WHERE is a BOOL over left. and right. (SR1015, SR2003–SR2008); every relay it
// reads or writes shares the correlator's branch (SR2021); a timeout SEND TO target carries exactly the
// fields, types and optionality of that side, since the record is forwarded unchanged (SR2022).
// Routes (set-only, required fields) are check-routes'; INHERIT is the kind's own rule (SR2020).
import { displayName } from '../api/display-names.js';
import type { GraphObject } from '../api/index.js';
import { keyOf, label, type CompileContext, type RelaySchema } from './context.js';
import { relayFields, schemaScope } from './expression-scopes.js';
import { schemaDifference } from './schema-difference.js';
import { typeField } from './type-field.js';

export function checkCorrelators(ctx: CompileContext, objects: readonly GraphObject[]): void {
  for (const object of objects) {
    if (object.kind !== 'Correlator') continue;
    checkBranches(ctx, object);
    const left = ctx.relaySchema(object.spec.left);
    const right = ctx.relaySchema(object.spec.right);
    if (left === undefined || right === undefined) continue;
    checkWhere(ctx, object, left, right);
    checkTimeout(ctx, object, 'left', left);
    checkTimeout(ctx, object, 'right', right);
  }
}

/** A timeout SEND TO target gets that side's records unchanged: the same fields, types and optionality. */
function checkTimeout(
  ctx: CompileContext,
  object: GraphObject<'Correlator'>,
  side: 'left' | 'right',
  schema: RelaySchema,
): void {
  const { relay } = object.spec.onTimeout[side];
  const target = relay === undefined ? undefined : ctx.relaySchema(relay);
  if (target === undefined) return;
  const problem = schemaDifference(relayFields(schema), relayFields(target), 'same-shapes');
  if (problem === undefined) return;
  ctx.report(
    keyOf(object),
    'SR2022',
    `spec.onTimeout.${side}.relay`,
    `${label(object)}: ON CORRELATION TIMEOUT forwards ${side} records of relay ${schema.shown.relay} unchanged to relay ${target.shown.relay}, so its schema must have the same fields, types and optionality: ${problem}`,
  );
}

function checkWhere(
  ctx: CompileContext,
  object: GraphObject<'Correlator'>,
  left: RelaySchema,
  right: RelaySchema,
): void {
  const subject = `${label(object)}: CORRELATE WHERE`;
  const typed = typeField(
    ctx,
    keyOf(object),
    { path: 'spec.where', text: object.spec.where, subject },
    {
      left: schemaScope(`left (relay ${left.shown.relay})`, left.fields),
      right: schemaScope(`right (relay ${right.shown.relay})`, right.fields),
    },
  );
  if (typed === undefined || typed.problems.length > 0 || typed.typing.type === 'BOOL') return;
  ctx.report(
    keyOf(object),
    'SR2005',
    'spec.where',
    `${subject} is ${typed.typing.type}; expected a BOOL condition`,
  );
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
      `${label(object)} is ${branching}, but relay ${displayName(relay)} is ${relayBranching}; a correlator's relays and timeout targets must share its branch`,
    );
  }
}

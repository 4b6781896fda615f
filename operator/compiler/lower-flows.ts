// Junctions, correlators and emitters lowered: durations in milliseconds, defaults filled in, and a
// correlator's WHERE with its `left.a = right.b` conjuncts extracted as hash-index keys.
import type { Expr } from '../../dataplane/graph/expression.js';
import { isIntegerType } from '../../dataplane/graph/field-types.js';
import type {
  GraphCorrelator,
  GraphEmitter,
  GraphJunction,
  GraphTimeoutAction,
} from '../../dataplane/graph/types.js';
import type { GraphObject } from '../api/index.js';
import { DEFAULT_MAX_PENDING } from '../api/kinds/correlator.js';
import { durationToMs } from '../api/literals.js';
import { keyOf, type CompileContext } from './context.js';
import { lowerEmitterPolicy, lowerRoutes, stripSpans } from './lower-routes.js';
import { defined } from './lower-sources.js';
import { lowerKafkaTarget } from './lower-kafka.js';
import { required } from './internal-error.js';

export function lowerJunction(ctx: CompileContext, junction: GraphObject<'Junction'>): GraphJunction {
  return {
    from: junction.spec.from,
    routes: lowerRoutes(ctx, junction),
    onGeneralError: junction.spec.onGeneralError ?? 'LOG',
  };
}

function timeout(action: { action: 'DROP' | 'SEND_TO'; relay?: string }): GraphTimeoutAction {
  return action.action === 'SEND_TO' && action.relay !== undefined
    ? { action: 'SEND_TO', relay: action.relay }
    : { action: 'DROP' };
}

export function lowerCorrelator(ctx: CompileContext, correlator: GraphObject<'Correlator'>): GraphCorrelator {
  const { spec } = correlator;
  const where = stripSpans(
    required(ctx.getTyped(keyOf(correlator), 'spec.where'), correlator, 'its typed WHERE'),
  );
  return {
    left: spec.left,
    right: spec.right,
    where,
    keys: hashKeys(where),
    match: spec.match,
    maxTimeMs: milliseconds(spec.maxTime, correlator),
    maxPending: spec.maxPending ?? DEFAULT_MAX_PENDING,
    onTimeout: { left: timeout(spec.onTimeout.left), right: timeout(spec.onTimeout.right) },
    branching: spec.branching,
    routes: lowerRoutes(ctx, correlator),
  };
}

/** A duration the checks accepted (SR1003 otherwise), in milliseconds. */
function milliseconds(text: string, object: GraphObject): number {
  return required(durationToMs(text), object, `the milliseconds of duration ${text}`);
}

/**
 * Equality conjuncts of the top-level AND chain that compare a left field with a right field of the same
 * type (or two integer types, which the runtime compares as integers): the runtime indexes pending
 * records by them and still evaluates the whole WHERE on each candidate.
 */
export function hashKeys(where: Expr): { left: string; right: string }[] {
  const conjuncts = (expr: Expr): Expr[] =>
    expr.kind === 'binary' && expr.op === 'AND'
      ? [...conjuncts(expr.left), ...conjuncts(expr.right)]
      : [expr];
  const keys: { left: string; right: string }[] = [];
  for (const conjunct of conjuncts(where)) {
    if (conjunct.kind !== 'binary' || conjunct.op !== '=') continue;
    const sides = [conjunct.left, conjunct.right];
    const left = sides.find((side) => side.kind === 'field' && side.scope === 'left');
    const right = sides.find((side) => side.kind === 'field' && side.scope === 'right');
    if (left?.kind !== 'field' || right?.kind !== 'field' || !sameKeyType(left, right)) continue;
    if (!keys.some((key) => key.left === left.name && key.right === right.name))
      keys.push({ left: left.name, right: right.name });
  }
  return keys;
}

function sameKeyType(a: Expr, b: Expr): boolean {
  if (a.type === undefined || b.type === undefined || a.type === 'NULL' || b.type === 'NULL') return false;
  return a.type === b.type || (isIntegerType(a.type) && isIntegerType(b.type));
}

export function lowerEmitter(ctx: CompileContext, emitter: GraphObject<'Emitter'>): GraphEmitter {
  const { spec } = emitter;
  return defined({
    from: spec.from,
    client: spec.to.client,
    kafka: lowerKafkaTarget(ctx, emitter),
    codec: spec.codec,
    mode: spec.mode,
    retry: {
      backoffMs: milliseconds(spec.retry.backoff, emitter),
      maxMs: milliseconds(spec.retry.max, emitter),
    },
    batch: spec.batch && {
      maxSize: spec.batch.maxSize,
      maxTimeMs: milliseconds(spec.batch.maxTime, emitter),
    },
    flush: spec.flush,
    onMessageError: lowerEmitterPolicy(ctx, emitter),
    onGeneralError: spec.onGeneralError,
  });
}

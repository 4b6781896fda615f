// Routes and ON MESSAGE ERROR handlers as the runtime runs them: the fields INHERIT ALL copies, spelled
// out, and every SET value as a typed expression tree (spans dropped).
import type { Expr } from '../../dataplane/graph/expression.js';
import type { GraphAssignment, GraphMessageErrorPolicy, GraphRoute } from '../../dataplane/graph/types.js';
import type { GraphObject } from '../api/index.js';
import type { MessageErrorPolicy } from '../api/common.js';
import { keyOf, type CompileContext } from './context.js';
import { routeSites, type RouteSite } from './route-sites.js';

export function stripSpans(expr: Expr): Expr {
  const { span: _span, ...node } = expr;
  switch (node.kind) {
    case 'unary':
    case 'is-null':
      return { ...node, operand: stripSpans(node.operand) };
    case 'binary':
      return { ...node, left: stripSpans(node.left), right: stripSpans(node.right) };
    case 'call':
      return { ...node, args: node.args.map(stripSpans) };
    default:
      return node;
  }
}

export function lowerRoutes(ctx: CompileContext, object: GraphObject): GraphRoute[] {
  const sites = new Map(routeSites(ctx, object).map((site) => [site.path, site]));
  const routes = 'routes' in object.spec ? object.spec.routes : [];
  return routes.map((route, index) => {
    const path = `spec.routes[${index}]`;
    const site = sites.get(path);
    return {
      to: route.to,
      inherit: site ? inherited(ctx, site) : [],
      set: site ? assignments(ctx, site) : [],
      branching: route.branching,
      flush: route.flush,
      onMessageError: lowerPolicy(ctx, route.onMessageError, sites.get(`${path}.onMessageError`)),
    };
  });
}

export function lowerEmitterPolicy(
  ctx: CompileContext,
  emitter: GraphObject<'Emitter'>,
): GraphMessageErrorPolicy {
  const site = routeSites(ctx, emitter).find((candidate) => candidate.path === 'spec.onMessageError');
  return lowerPolicy(ctx, emitter.spec.onMessageError, site);
}

function lowerPolicy(
  ctx: CompileContext,
  policy: MessageErrorPolicy,
  site: RouteSite | undefined,
): GraphMessageErrorPolicy {
  if (policy.action !== 'SEND_TO' || policy.relay === undefined || site === undefined)
    return { action: 'LOG' };
  return {
    action: 'SEND_TO',
    relay: policy.relay,
    inherit: inherited(ctx, site),
    set: assignments(ctx, site),
  };
}

/** Target fields INHERIT ALL copies: those the input has too, in the target schema's order. */
function inherited(ctx: CompileContext, site: RouteSite): string[] {
  const target = ctx.relaySchema(site.target);
  if (!site.inheritAll || target === undefined || site.inheritFrom === undefined) return [];
  const source = site.inheritFrom.fields;
  return [...target.fields.keys()].filter((name) => source.has(name));
}

function assignments(ctx: CompileContext, site: RouteSite): GraphAssignment[] {
  const found: GraphAssignment[] = [];
  site.set.forEach((assignment, index) => {
    const typed = ctx.getTyped(keyOf(site.object), `${site.path}.set[${index}].value`);
    if (typed !== undefined) found.push({ field: assignment.field, value: stripSpans(typed) });
  });
  return found;
}

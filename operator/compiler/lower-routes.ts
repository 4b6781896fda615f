// Routes and ON MESSAGE ERROR handlers as the runtime runs them: the fields INHERIT ALL copies, spelled
// out, and every SET value as a typed expression tree (spans dropped).
import type { Expr } from '../../dataplane/graph/expression.js';
import type { GraphAssignment, GraphMessageErrorPolicy, GraphRoute } from '../../dataplane/graph/types.js';
import type { GraphObject } from '../api/index.js';
import type { MessageErrorPolicy } from '../api/common.js';
import { keyOf, type CompileContext } from './context.js';
import { required } from './internal-error.js';
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
    const site = required(sites.get(path), object, `the scopes of ${path}`);
    return {
      to: route.to,
      inherit: inherited(ctx, site),
      set: assignments(ctx, site),
      branching: route.branching,
      flush: route.flush,
      onMessageError: lowerPolicy(ctx, object, route.onMessageError, sites.get(`${path}.onMessageError`)),
    };
  });
}

export function lowerEmitterPolicy(
  ctx: CompileContext,
  emitter: GraphObject<'Emitter'>,
): GraphMessageErrorPolicy {
  const site = routeSites(ctx, emitter).find((candidate) => candidate.path === 'spec.onMessageError');
  return lowerPolicy(ctx, emitter, emitter.spec.onMessageError, site);
}

function lowerPolicy(
  ctx: CompileContext,
  object: GraphObject,
  policy: MessageErrorPolicy,
  site: RouteSite | undefined,
): GraphMessageErrorPolicy {
  if (policy.action === 'LOG') return { action: 'LOG' };
  const handler = required(site, object, 'the scopes of its ON MESSAGE ERROR handler');
  return {
    action: 'SEND_TO',
    relay: handler.target,
    inherit: inherited(ctx, handler),
    set: assignments(ctx, handler),
  };
}

/** Target fields INHERIT ALL copies: those the input has too, in the target schema's order. */
function inherited(ctx: CompileContext, site: RouteSite): string[] {
  if (!site.inheritAll) return [];
  const target = required(ctx.relaySchema(site.target), site.object, `the schema of relay ${site.target}`);
  const source = required(site.inheritFrom, site.object, `what ${site.describe} inherits from`).fields;
  return [...target.fields.keys()].filter((name) => source.has(name));
}

function assignments(ctx: CompileContext, site: RouteSite): GraphAssignment[] {
  return site.set.map((assignment, index) => {
    const path = `${site.path}.set[${index}].value`;
    const typed = required(ctx.getTyped(keyOf(site.object), path), site.object, `the typed value at ${path}`);
    return { field: assignment.field, value: stripSpans(typed) };
  });
}

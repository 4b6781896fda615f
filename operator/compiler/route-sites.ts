// Every place that builds a record for a relay — routes and ON MESSAGE ERROR SEND TO handlers of
// ingestors, junctions, correlators and emitters — with the scopes its expressions read.
import type { GraphObject } from '../api/index.js';
import type { Assignment, MessageErrorPolicy, Route } from '../api/common.js';
import { label, type CompileContext, type SchemaField } from './context.js';
import { codecInput, errorScope, junctionInput, metadataScope, schemaScope } from './expression-scopes.js';
import type { ScopeFields, Scopes } from './type-expression.js';

export interface RouteSite {
  object: GraphObject;
  /** `spec.routes[0]`, `spec.routes[0].onMessageError` or `spec.onMessageError`. */
  path: string;
  /** For messages: `route 1 of HttpIngestor orders-in`. */
  describe: string;
  target: string;
  inheritAll: boolean;
  set: readonly Assignment[];
  /** Undefined while something the scopes come from is not accepted (the object waits). */
  scopes: Scopes | undefined;
  /** What INHERIT ALL copies from (`input.`); undefined for correlator routes. */
  inheritFrom: ScopeFields | undefined;
  isCorrelatorRoute: boolean;
}

interface SiteScopes {
  route: Scopes | undefined;
  handler: Scopes | undefined;
}

export function routeSites(ctx: CompileContext, object: GraphObject): RouteSite[] {
  const scopes = siteScopes(ctx, object);
  const sites: RouteSite[] = [];
  const routes: readonly Route[] = 'routes' in object.spec ? object.spec.routes : [];
  routes.forEach((route, index) => {
    const path = `spec.routes[${index}]`;
    const describe = `route ${index + 1} of ${label(object)}`;
    sites.push({
      object,
      path,
      describe,
      target: route.to,
      inheritAll: route.inheritAll === true,
      set: route.set ?? [],
      scopes: scopes.route,
      inheritFrom: scopes.route?.input,
      isCorrelatorRoute: object.kind === 'Correlator',
    });
    const handler = handlerSite(object, route.onMessageError, `${path}.onMessageError`, scopes.handler);
    if (handler) sites.push({ ...handler, describe: `the ON MESSAGE ERROR handler of ${describe}` });
  });
  if (object.kind === 'Emitter') {
    const handler = handlerSite(object, object.spec.onMessageError, 'spec.onMessageError', scopes.handler);
    if (handler) sites.push(handler);
  }
  return sites;
}

function handlerSite(
  object: GraphObject,
  policy: MessageErrorPolicy,
  path: string,
  scopes: Scopes | undefined,
): RouteSite | undefined {
  if (policy.action !== 'SEND_TO' || policy.relay === undefined) return undefined;
  return {
    object,
    path,
    describe: `the ON MESSAGE ERROR handler of ${label(object)}`,
    target: policy.relay,
    inheritAll: policy.inheritAll === true,
    set: policy.set ?? [],
    scopes,
    inheritFrom: scopes?.input,
    isCorrelatorRoute: false,
  };
}

function siteScopes(ctx: CompileContext, object: GraphObject): SiteScopes {
  switch (object.kind) {
    case 'HttpIngestor':
    case 'SyslogIngestor':
    case 'TopicIngestor':
      return ingestorScopes(ctx, object);
    case 'Junction':
      return inputScopes(
        junctionInput(ctx, object),
        `input (relays ${object.spec.from.map((relay) => ctx.show('Relay', relay)).join(', ')})`,
      );
    case 'Emitter':
      return inputScopes(
        ctx.relaySchema(object.spec.from)?.fields,
        `input (relay ${ctx.show('Relay', object.spec.from)})`,
      );
    case 'Correlator': {
      const left = ctx.relaySchema(object.spec.left);
      const right = ctx.relaySchema(object.spec.right);
      if (left === undefined || right === undefined) return { route: undefined, handler: undefined };
      const sides = {
        left: schemaScope(`left (relay ${left.shown.relay})`, left.fields),
        right: schemaScope(`right (relay ${right.shown.relay})`, right.fields),
      };
      return { route: sides, handler: { ...sides, error: errorScope() } };
    }
    default:
      return { route: undefined, handler: undefined };
  }
}

/** An ingestor's: its codec's records as `input.`, what its source knows as `metadata.`. */
function ingestorScopes(
  ctx: CompileContext,
  object: GraphObject<'HttpIngestor' | 'SyslogIngestor' | 'TopicIngestor'>,
): SiteScopes {
  const fields = codecInput(ctx, object.spec.codec);
  if (fields === undefined) return { route: undefined, handler: undefined };
  const what = `input (schema of codec ${ctx.show('Codec', object.spec.codec)})`;
  const metadata = metadataScope(object.kind);
  return {
    route: { input: schemaScope(what, fields), metadata },
    handler: { input: schemaScope(what, fields, true), metadata, error: errorScope() },
  };
}

function inputScopes(fields: ReadonlyMap<string, SchemaField> | undefined, what: string): SiteScopes {
  if (fields === undefined) return { route: undefined, handler: undefined };
  const input = schemaScope(what, fields);
  return { route: { input }, handler: { input, error: errorScope() } };
}

// The operator's aggregated API, `live.streamroute.io/v1alpha1` (decision 0019): what a domain's nodes
// see live, served to users through the kube-apiserver with their own identity and their own RBAC in the
// domain's namespace. The API server authenticates the user, checks RBAC for the request (as for any
// resource) and proxies it here with the user's identity (front-proxy.ts); this server believes that
// identity only from the API server, and asks again with a SubjectAccessReview (access-review.ts) before
// it answers, so a rule of ours never widens what RBAC grants.
//
//   GET /apis/live.streamroute.io/v1alpha1/namespaces/<domain>/relays/<relay>/log        records, NDJSON
//       RBAC: get relays/log (a subresource, so the API server keeps the stream open: it cuts other
//       requests at its --request-timeout, 60 s by default)
//   GET /apis/live.streamroute.io/v1alpha1/namespaces/<domain>/<kind>/<name>/describe    describe
//       kind: httpingestors, syslogingestors, topicingestors, emitters; RBAC: get <kind>/describe
// and the discovery documents the API server reads (/apis, /apis/<group>, /apis/<group>/<version>).
// Every resource here is a subresource: discovery lists no top-level `relays` or `httpingestors`, so
// `kubectl get httpingestors` still means the streamroute.io kind (kubectl resolves a plural to the group
// of highest priority that lists it as a resource).
import { createServer, type Server } from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import type { LiveMetrics, RequestOutcome, StreamEnd } from './live-metrics.js';
import { AccessReview, describeAttributes, type ResourceAttributes } from './access-review.js';
import { proxiedCaller, type Caller, type FrontProxyConfig } from './front-proxy.js';
import { DEFAULT_MAX_STREAM_MS, DEFAULT_REAUTHORIZE_MS } from './live-api-defaults.js';

export const LIVE_GROUP = 'live.streamroute.io';
export const LIVE_VERSION = 'v1alpha1';
export const DESCRIBED_KINDS = ['httpingestors', 'syslogingestors', 'topicingestors', 'emitters'] as const;
export type DescribedKind = (typeof DESCRIBED_KINDS)[number];

/** What the routes do once the caller is allowed (the subscription fan-out, the nodes' describe). */
export interface LiveHandlers {
  /** Streams the relay's records to `response` until either side ends; headers not yet sent. */
  relayLog(request: RelayLogRequest, response: ServerResponse): Promise<void>;
  describe(request: {
    caller: Caller;
    namespace: string;
    kind: DescribedKind;
    name: string;
  }): Promise<unknown>;
}

export interface RelayLogRequest {
  caller: Caller;
  namespace: string;
  relay: string;
  query: URLSearchParams;
  /** Aborted when the client goes away. */
  signal: AbortSignal;
}

export interface AggregatedApiOptions {
  /** The serving certificate (for `<service>.<namespace>.svc`, the name the API server dials). */
  serving: { cert: string | Buffer; key: string | Buffer };
  frontProxy: FrontProxyConfig;
  review: AccessReview;
  handlers: LiveHandlers;
  logger: Logger;
  metrics?: LiveMetrics;
  /** How often an open stream's access is reviewed again (default 60 s; answers are cached 10 s). */
  reauthorizeMs?: number;
  /** How long one stream may stay open before it must be opened, and so authenticated, again (1 h). */
  maxStreamMs?: number;
}

const NAME = /^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/;

export function createAggregatedApi(options: AggregatedApiOptions): Server {
  const server = createServer(
    {
      cert: options.serving.cert,
      key: options.serving.key,
      // the API server's front-proxy certificate is checked per request (proxiedCaller); a connection
      // without one is answered 401, not dropped in the handshake, so the caller learns why
      requestCert: true,
      rejectUnauthorized: false,
      ca: options.frontProxy.clientCa,
    },
    (request, response) => void route(options, request, response),
  );
  // longer than the API server's idle pooled connections, so it is never the one to close them mid-request
  server.keepAliveTimeout = 65_000;
  return server;
}

async function route(
  options: AggregatedApiOptions,
  request: IncomingMessage,
  response: ServerResponse,
): Promise<void> {
  try {
    const url = new URL(request.url ?? '/', 'https://localhost');
    const discovery = discoveryDocument(url.pathname);
    const who = proxiedCaller(request, options.frontProxy);
    const target = targetOf(url.pathname);
    const routeName = target === undefined ? 'other' : target.kind === 'relayLog' ? 'log' : 'describe';
    const count = (outcome: RequestOutcome): void => options.metrics?.request(routeName, outcome);
    if (!who.ok) {
      count('unauthenticated');
      return status(response, 401, 'Unauthorized', who.reason);
    }
    if (request.method !== 'GET')
      return status(response, 405, 'MethodNotAllowed', `${request.method} is not served`);
    if (discovery !== undefined) return json(response, 200, discovery);
    if (target === undefined) {
      count('not_found');
      return status(response, 404, 'NotFound', `no such path in ${LIVE_GROUP}/${LIVE_VERSION}`);
    }
    const decision = await options.review.decide(who.caller, target.attributes);
    if (!decision.allowed) {
      count('forbidden');
      return status(
        response,
        403,
        'Forbidden',
        `user "${who.caller.user}" may not ${describeAttributes(target.attributes)}`,
      );
    }
    count('allowed');
    if (target.kind === 'relayLog') {
      const aborted = new AbortController();
      response.on('close', () => aborted.abort('client' satisfies StreamEnd));
      const stopWatching = watchAccess(options, who.caller, target.attributes, aborted);
      response.on('close', stopWatching);
      await options.handlers.relayLog(
        {
          caller: who.caller,
          namespace: target.attributes.namespace,
          relay: target.name,
          query: url.searchParams,
          signal: aborted.signal,
        },
        response,
      );
      return;
    }
    const body = await options.handlers.describe({
      caller: who.caller,
      namespace: target.attributes.namespace,
      kind: target.kind,
      name: target.name,
    });
    json(response, 200, body);
  } catch (error: unknown) {
    options.logger.error(
      { event: 'live_api_failed', error: error instanceof Error ? error.name : 'unknown' },
      'live API request failed',
    );
    if (!response.headersSent)
      status(response, 500, 'InternalError', 'the request failed; see the operator log');
    else response.destroy();
  }
}

/**
 * Ends a stream (aborting with a StreamEnd reason) when a review of its access says no, asked every
 * `reauthorizeMs`, or when it has been open `maxStreamMs`: the API server authenticated the user once, at
 * the start, so a role taken away or credentials that expired must not keep a stream open for ever.
 * Returns the function that stops watching.
 */
function watchAccess(
  options: AggregatedApiOptions,
  caller: Caller,
  attributes: ResourceAttributes,
  stream: AbortController,
): () => void {
  const recheck = setInterval(() => {
    void options.review
      .decide(caller, attributes)
      .then((decision) => {
        if (!decision.allowed) stream.abort('revoked' satisfies StreamEnd);
      })
      .catch(() => undefined); // a review that fails keeps the stream; the next one decides
  }, options.reauthorizeMs ?? DEFAULT_REAUTHORIZE_MS).unref();
  const lifetime = setTimeout(
    () => stream.abort('lifetime' satisfies StreamEnd),
    options.maxStreamMs ?? DEFAULT_MAX_STREAM_MS,
  ).unref();
  return () => {
    clearInterval(recheck);
    clearTimeout(lifetime);
  };
}

type Target =
  | { kind: 'relayLog'; name: string; attributes: ResourceAttributes }
  | { kind: DescribedKind; name: string; attributes: ResourceAttributes };

function targetOf(path: string): Target | undefined {
  const prefix = `/apis/${LIVE_GROUP}/${LIVE_VERSION}/namespaces/`;
  if (!path.startsWith(prefix)) return undefined;
  const parts = path.slice(prefix.length).split('/');
  const [namespace = '', resource = '', name = '', subresource] = parts;
  if (!NAME.test(namespace) || !NAME.test(name) || parts.length > 4) return undefined;
  const attributes = { namespace, verb: 'get', group: LIVE_GROUP, resource, name };
  if (resource === 'relays' && subresource === 'log')
    return { kind: 'relayLog', name, attributes: { ...attributes, subresource: 'log' } };
  const kind = DESCRIBED_KINDS.find((described) => described === resource);
  if (kind !== undefined && subresource === 'describe')
    return { kind, name, attributes: { ...attributes, subresource: 'describe' } };
  return undefined;
}

/** The discovery documents the API server (and kubectl) read; undefined for any other path. */
function discoveryDocument(path: string): unknown {
  const groupVersion = `${LIVE_GROUP}/${LIVE_VERSION}`;
  const version = { groupVersion, version: LIVE_VERSION };
  const group = { name: LIVE_GROUP, versions: [version], preferredVersion: version };
  if (path === '/apis' || path === '/apis/')
    return { kind: 'APIGroupList', apiVersion: 'v1', groups: [group] };
  if (path === `/apis/${LIVE_GROUP}`) return { kind: 'APIGroup', apiVersion: 'v1', ...group };
  if (path !== `/apis/${groupVersion}`) return undefined;
  const resource = (name: string, kind: string) => ({
    name,
    singularName: '',
    namespaced: true,
    kind,
    verbs: ['get'],
  });
  return {
    kind: 'APIResourceList',
    apiVersion: 'v1',
    groupVersion,
    resources: [
      resource('relays/log', 'RelayLog'),
      resource('httpingestors/describe', 'ComponentDescription'),
      resource('syslogingestors/describe', 'ComponentDescription'),
      resource('topicingestors/describe', 'ComponentDescription'),
      resource('emitters/describe', 'ComponentDescription'),
    ],
  };
}

function json(response: ServerResponse, code: number, body: unknown): void {
  response.writeHead(code, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

/** A Kubernetes Status object, as kubectl and client libraries expect an error. */
function status(response: ServerResponse, code: number, reason: string, message: string): void {
  json(response, code, { kind: 'Status', apiVersion: 'v1', status: 'Failure', message, reason, code });
}

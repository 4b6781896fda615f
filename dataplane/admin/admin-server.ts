// The node's admin HTTP API (`--admin-listen-addr`, default 127.0.0.1:8081): subscriptions to relays,
// DESCRIBE of ingestors and emitters, liveness, readiness and Prometheus metrics, over node:http. It knows
// the node only through AdminBackend. Binding goes through a RetryingListener, so an address in use makes
// the server Retrying with a backoff, never a crash; a route or control hook that throws is a 500 (or a cut
// stream), logged by error name, and the server keeps serving. docs/admin-api.md is the reference.
//
// Its connections come out of the descriptors the ingestion listeners leave free (docs/runtime.md,
// "Connection limits"): at most `maxConnections`, and one that has not started a request within
// `firstRequestTimeoutMs` is closed; a subscription stream, once requested, is never timed out by it.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { TLSSocket } from 'node:tls';
import type { Logger } from 'pino';
import { systemClock, type Clock } from '../core/clock.js';
import {
  RetryingListener,
  type ListenAddress,
  type ListenerStatus,
  type RetryPolicy,
} from '../net/retrying-listener.js';
import { sendError, sendFailure, sendJson, sendText } from './admin-errors.js';
import { ALLOWED_METHODS, matchRoute, requestUrl, type AdminRoute } from './admin-routes.js';
import { AdminTelemetry } from './admin-telemetry.js';
import type { AdminBackend } from './backend.js';
import { HostPolicy } from './host-check.js';
import { SubscriptionHub } from './subscription-hub.js';
import type { SubscriptionLimits } from './subscription-limits.js';
import { ConnectionGate } from '../net/connection-gate.js';
import { ConnectionTelemetry } from '../net/connection-telemetry.js';
import { connectionDefaults } from '../net/fd-limit.js';
import { guardHttpServer } from '../net/guard-http-server.js';
import { serveSubscription } from './subscription-route.js';

export { DEFAULT_ADMIN_LISTEN_ADDR } from './admin-defaults.js';
/** How long `stop()` lets subscription streams write what they hold before their connections are cut. */
export const DEFAULT_ADMIN_STOP_GRACE_MS = 5_000;
/** A connection that has not started a request by then is closed. */
export const DEFAULT_ADMIN_FIRST_REQUEST_TIMEOUT_MS = 10_000;

/**
 * Tried for every request no built-in route matched (the embedded node adds statement execution here).
 * Returns whether it took the request; false is answered 404. A throw or rejection is answered 500.
 */
export type AdminControl = (
  request: IncomingMessage,
  response: ServerResponse,
  url: URL,
) => boolean | Promise<boolean>;

export interface AdminServerOptions {
  address: ListenAddress;
  /**
   * Host names the API answers for besides `localhost`, `*.localhost`, IP addresses and the listen
   * address: exact names, or `.example` for a domain and every name under it. Any other Host is refused
   * (421 `host_not_allowed`), which stops DNS rebinding (docs/admin-api.md, "Security").
   */
  allowedHosts?: readonly string[];
  backend: AdminBackend;
  logger: Logger;
  control?: AdminControl;
  /** Drives bind retries and the drop-log interval (default: the system clock). */
  clock?: Clock;
  /** Bind retry backoff (default 1 s doubling to 30 s). */
  retry?: RetryPolicy;
  /** Drops of one subscription are logged at most once per this interval (default 10 s). */
  dropLogIntervalMs?: number;
  /** Subscriber streams and buffered bytes the node allows (docs/admin-api.md, "Buffer limits"). */
  subscriptionLimits?: Partial<SubscriptionLimits>;
  /** Every listener state change. */
  statusChanged?: (status: ListenerStatus) => void;
  /** Connections held at once (default: from the descriptor limit, see fd-limit.ts). */
  maxConnections?: number | undefined;
  /** Default 10 s. */
  firstRequestTimeoutMs?: number;
  /** The operator's channel (decision 0019): a second listener, off unless given. */
  internal?: InternalListenerOptions;
}

/**
 * The admin API for the operator on a cluster: TLS on the pod's address, answering only a client whose
 * certificate the internal CA signed and whose common name is `clientName` (the operator's); anyone else
 * gets no TLS session or 403. Statements (the control hook) are never served here.
 */
export interface InternalListenerOptions {
  address: ListenAddress;
  cert: Buffer;
  key: Buffer;
  /** The CA that signs the operator's client certificate (the chart's internal CA). */
  clientCa: Buffer;
  clientName: string;
}

export class AdminServer {
  readonly #backend: AdminBackend;
  readonly #control: AdminControl | undefined;
  readonly #telemetry: AdminTelemetry;
  readonly #hub: SubscriptionHub;
  readonly #server: Server;
  readonly #listener: RetryingListener;
  readonly #internal: { listener: RetryingListener; clientName: string } | undefined;
  readonly #hosts: HostPolicy;
  readonly #gate: ConnectionGate;
  #stopping = false;

  constructor(options: AdminServerOptions) {
    const clock = options.clock ?? systemClock;
    this.#backend = options.backend;
    this.#control = options.control;
    this.#hosts = new HostPolicy({
      listenHost: options.address.host,
      ...(options.allowedHosts === undefined ? {} : { allowedHosts: options.allowedHosts }),
    });
    this.#telemetry = new AdminTelemetry(options.logger);
    this.#hub = new SubscriptionHub({
      backend: options.backend,
      logger: options.logger,
      clock,
      ...(options.dropLogIntervalMs === undefined ? {} : { dropLogIntervalMs: options.dropLogIntervalMs }),
      ...(options.subscriptionLimits === undefined ? {} : { limits: options.subscriptionLimits }),
    });
    this.#server = createServer(
      { noDelay: true, connectionsCheckingInterval: 2_000 },
      (request, response) => void this.#handle(request, response),
    );
    const connections = new ConnectionTelemetry('admin', {
      registry: options.backend.registry,
      logger: options.logger,
      clock,
    });
    this.#gate = new ConnectionGate(
      { maxConnections: options.maxConnections ?? connectionDefaults().admin },
      connections,
    );
    this.#listener = this.#listen(this.#server, options.address, options, clock);
    const internal = options.internal;
    if (internal !== undefined) {
      const server = createHttpsServer(
        {
          cert: internal.cert,
          key: internal.key,
          ca: internal.clientCa,
          // a client without a valid certificate gets a 401 that says why, not a failed handshake
          requestCert: true,
          rejectUnauthorized: false,
          minVersion: 'TLSv1.3',
          noDelay: true,
          connectionsCheckingInterval: 2_000,
        },
        (request, response) => void this.#handle(request, response, internal.clientName),
      );
      const listener = this.#listen(server, internal.address, options, clock);
      this.#internal = { listener, clientName: internal.clientName };
    }
  }

  /** Guards `server` with the shared connection gate and binds it through a RetryingListener. */
  #listen(
    server: Server,
    address: ListenAddress,
    options: AdminServerOptions,
    clock: Clock,
  ): RetryingListener {
    guardHttpServer(server, {
      gate: this.#gate,
      firstRequestTimeoutMs: options.firstRequestTimeoutMs ?? DEFAULT_ADMIN_FIRST_REQUEST_TIMEOUT_MS,
    });
    const telemetry = this.#telemetry;
    const listener: RetryingListener = new RetryingListener(server, address, {
      clock,
      ...(options.retry === undefined ? {} : { retry: options.retry }),
      hooks: {
        listening: (bound) => telemetry.listening(bound, listener.status.port),
        listenFailed: (bound, code, retryInMs) => telemetry.listenFailed(bound, code, retryInMs),
        serverError: (code) => telemetry.serverError(code),
        stopped: () => telemetry.stopped(),
        statusChanged: (status) => {
          if (server === this.#server) options.statusChanged?.(status);
        },
      },
    });
    return listener;
  }

  /** The listener: state, bound port while Running, error and backoff while Retrying. */
  get status(): ListenerStatus {
    return this.#listener.status;
  }

  /** The operator's listener, when there is one. */
  get internalStatus(): ListenerStatus | undefined {
    return this.#internal?.listener.status;
  }

  /** The subscriptions this server holds (for DESCRIBE-like reports and tests). */
  get subscriptions(): SubscriptionHub {
    return this.#hub;
  }

  /** Binds (or starts retrying); resolves after the first attempt, Running or Retrying. */
  async start(): Promise<ListenerStatus> {
    this.#stopping = false;
    this.#hub.reopen();
    await this.#internal?.listener.start();
    return this.#listener.start();
  }

  /**
   * Ends every subscription stream (after writing what it holds), releases every backend subscription and
   * stops listening; connections still busy after `graceMs` are cut, their queued records counted as
   * dropped (`stopped`).
   */
  async stop(graceMs = DEFAULT_ADMIN_STOP_GRACE_MS): Promise<void> {
    this.#stopping = true;
    this.#hub.endAll('the admin server is stopping');
    await Promise.all([this.#listener.stop(graceMs), this.#internal?.listener.stop(graceMs)]);
    // Streams cut by the stop report their last drops on 'close'; let those run, then report them now.
    await new Promise<void>((resolve) => setImmediate(resolve));
    this.#hub.flushDrops();
  }

  /**
   * Never rejects: whatever fails is answered 500 (or the stream is cut) and logged. `clientName` is set
   * on the internal listener: the common name the (already CA-verified) client certificate must carry.
   */
  async #handle(request: IncomingMessage, response: ServerResponse, clientName?: string): Promise<void> {
    let route = 'request';
    try {
      if (clientName !== undefined) {
        const refusal = clientRefusal(request, clientName);
        if (refusal !== undefined) return sendError(response, refusal.code, refusal.message);
      }
      // Before anything else, the control hook included: a rebound page must learn nothing.
      if (!this.#hosts.allows(request.headers.host, request.url)) return hostNotAllowed(response);
      const url = requestUrl(request.url);
      if (url === undefined) return sendError(response, 'invalid_path', 'the request target is not a path');
      const match = matchRoute(url.pathname);
      if (match.kind === 'none') {
        if (clientName !== undefined) return notFound(request, response, url);
        return await this.#offerToControl(request, response, url);
      }
      if (request.method !== 'GET') return methodNotAllowed(request, response);
      if (match.kind === 'invalid') return sendError(response, match.code, match.message);
      route = match.route.route;
      await this.#serve(match.route, request, response, url);
    } catch (error: unknown) {
      this.#telemetry.routeFailed(route, error);
      sendFailure(response);
    }
  }

  async #serve(
    route: AdminRoute,
    request: IncomingMessage,
    response: ServerResponse,
    url: URL,
  ): Promise<void> {
    switch (route.route) {
      case 'healthz':
        return sendText(response, 200, 'text/plain; charset=utf-8', 'ok\n');
      case 'readyz': {
        const checks = this.#backend.readiness();
        const ready = checks.every((check) => check.ok);
        return sendJson(response, ready ? 200 : 503, { ready, checks });
      }
      case 'metrics': {
        const registry = this.#backend.registry;
        return sendText(response, 200, registry.contentType, await registry.metrics());
      }
      case 'subscription': {
        const { domain, relay, subscription } = route;
        const options = { hub: this.#hub, closingConnections: () => this.#stopping };
        return serveSubscription(options, request, response, { key: { domain, relay, subscription }, url });
      }
      case 'describe': {
        const description = await this.#backend.describe(route.domain, route.kind, route.name);
        if (description !== undefined) return sendJson(response, 200, description);
        const message = `domain ${route.domain} has no ${route.kind} ${route.name} on this node`;
        return sendError(response, 'unknown_component', message);
      }
    }
  }

  async #offerToControl(request: IncomingMessage, response: ServerResponse, url: URL): Promise<void> {
    try {
      const taken = this.#control === undefined ? false : await this.#control(request, response, url);
      if (!taken && !response.headersSent) notFound(request, response, url);
    } catch (error: unknown) {
      this.#telemetry.controlFailed(error);
      sendFailure(response);
    }
  }
}

function notFound(request: IncomingMessage, response: ServerResponse, url: URL): void {
  sendError(response, 'not_found', `no route for ${request.method ?? ''} ${brief(url.pathname)}`);
}

/**
 * Why a request on the internal listener is refused: no valid certificate of the internal CA (401, with
 * OpenSSL's reason), or one with another common name than the operator's (403); undefined when served.
 */
function clientRefusal(
  request: IncomingMessage,
  clientName: string,
): { code: 'unauthenticated' | 'forbidden'; message: string } | undefined {
  const socket = request.socket as TLSSocket;
  if (!socket.authorized) {
    // Node gives OpenSSL's reason as a string (CERT_HAS_EXPIRED), though it is typed as an Error
    const reason: unknown = socket.authorizationError;
    const presented = Object.keys(socket.getPeerCertificate()).length > 0;
    const why = !presented
      ? 'no client certificate'
      : reason instanceof Error
        ? reason.message
        : String(reason);
    return {
      code: 'unauthenticated',
      message: `a client certificate of the internal CA is required (${why})`,
    };
  }
  const name = socket.getPeerCertificate().subject?.CN;
  if (name === clientName) return undefined;
  return {
    code: 'forbidden',
    message: `only the operator's client certificate (${clientName}) is served here`,
  };
}

function hostNotAllowed(response: ServerResponse): void {
  const message =
    'the request names a host this admin API does not answer for: use localhost or an IP address, or add the name to the allowed hosts';
  sendError(response, 'host_not_allowed', message);
}

function methodNotAllowed(request: IncomingMessage, response: ServerResponse): void {
  const message = `method ${request.method ?? ''} is not allowed here: expected ${ALLOWED_METHODS}`;
  sendError(response, 'method_not_allowed', message, { Allow: ALLOWED_METHODS });
}

/** At most 100 characters of a path, for a response body. */
function brief(path: string): string {
  return path.length > 100 ? `${path.slice(0, 100)}…` : path;
}

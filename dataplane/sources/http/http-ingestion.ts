// HTTP ingestion on one node: the HTTP listener (`--http-listen-addr`) for plain vhosts and the HTTPS
// listener (`--https-listen-addr`) for TLS vhosts, each with its routing table. `setRoutes` swaps both
// tables at once; the listening sockets and open keep-alive connections are untouched. The HTTPS listener
// opens the first time a TLS vhost is routed (a node without TLS vhosts binds no HTTPS port) and stays
// open until `stop`. Each listener binds, fails and retries on its own (see RetryingListener).
import { createServer as createHttpServer, type Server as HttpServer, type ServerOptions } from 'node:http';
import { createServer as createHttpsServer, type Server as HttpsServer } from 'node:https';
import type { SecureContext } from 'node:tls';
import { systemClock, type Clock } from '../../core/clock.js';
import {
  RetryingListener,
  type ListenAddress,
  type ListenerStatus,
  type RetryPolicy,
} from '../../net/retrying-listener.js';
import { DEFAULT_SERVER_LIMITS, type HttpErrorBody, type ServerLimits } from './config.js';
import { IngestHandler } from './ingest-handler.js';
import { buildRoutingTables, type RoutingProblem } from './routing-table.js';
import type { HttpRoute } from './target.js';
import { guardHttpServer } from '../../net/guard-http-server.js';
import { ingestConnections, ingestGate, type IngestConnections } from '../../net/ingest-connections.js';
import type { HttpTelemetry, ListenerName } from './telemetry.js';
import type { TlsMaterialSource } from '../../net/tls-contexts.js';

export interface HttpIngestionOptions {
  httpAddress: ListenAddress;
  httpsAddress: ListenAddress;
  tls: TlsMaterialSource;
  telemetry: HttpTelemetry;
  clock?: Clock;
  retry?: RetryPolicy;
  limits?: Partial<ServerLimits>;
  /** What a refused request's body says: `empty` (the default) or `explain` (one line of why). */
  errorBody?: HttpErrorBody;
  /**
   * The node's ingestion connection pool and per-peer share (default: a pool of its own, sized from the
   * descriptor limit, counted in a registry of its own).
   */
  connections?: IngestConnections;
  /** Called on every listener state change (for DESCRIBE and the node report). */
  statusChanged?: (listener: ListenerName, status: ListenerStatus) => void;
}

export interface RoutingReport {
  /** Hostnames served by each listener after the swap. */
  plainHosts: number;
  secureHosts: number;
  /** Routes (or hosts of routes) not served, each naming its target. */
  problems: RoutingProblem[];
}

export class HttpIngestion {
  readonly http: RetryingListener;
  readonly https: RetryingListener;
  readonly #plain: IngestHandler;
  readonly #secure: IngestHandler;
  readonly #tls: TlsMaterialSource;
  readonly #telemetry: HttpTelemetry;
  readonly #servers: { http: HttpServer; https: HttpsServer };
  #started = false;
  #wantsHttps = false;

  constructor(options: HttpIngestionOptions) {
    const limits = { ...DEFAULT_SERVER_LIMITS, ...options.limits };
    const clock = options.clock ?? systemClock;
    this.#tls = options.tls;
    this.#telemetry = options.telemetry;
    const explain = options.errorBody === 'explain';
    this.#plain = new IngestHandler('http', options.telemetry, {
      explain,
      otherTable: () => this.#secure.table,
    });
    this.#secure = new IngestHandler('https', options.telemetry, {
      explain,
      otherTable: () => this.#plain.table,
    });
    const secure = this.#secure;
    const sniCallback = (
      servername: string,
      cb: (error: Error | null, context?: SecureContext) => void,
    ): void => {
      const context = secure.table.secureContext(servername);
      if (context !== undefined) cb(null, context);
      else
        cb(
          Object.assign(new Error('no certificate for this server name'), {
            code: 'ERR_SR_UNKNOWN_SERVER_NAME',
          }),
        );
    };
    this.#servers = {
      http: createHttpServer(serverOptions(limits)),
      https: createHttpsServer({
        ...serverOptions(limits),
        handshakeTimeout: limits.tlsHandshakeTimeoutMs,
        SNICallback: sniCallback,
        ALPNProtocols: ['http/1.1'],
      }),
    };
    wire(this.#servers.http, this.#plain, limits);
    wire(this.#servers.https, this.#secure, limits);
    const connections = options.connections ?? ingestConnections({}, { clock });
    const firstRequestTimeoutMs = limits.firstRequestTimeoutMs;
    guardHttpServer(this.#servers.http, { gate: ingestGate(connections, 'http'), firstRequestTimeoutMs });
    guardHttpServer(this.#servers.https, { gate: ingestGate(connections, 'https'), firstRequestTimeoutMs });
    // https.Server passes failed TLS handshakes on as `clientError`, so they are counted there.
    const listener = (name: ListenerName, server: HttpServer | HttpsServer, address: ListenAddress) =>
      new RetryingListener(server, address, {
        clock,
        ...(options.retry === undefined ? {} : { retry: options.retry }),
        hooks: {
          listening: (label) => options.telemetry.listening(name, label, this[name].status.port),
          listenFailed: (label, code, retryInMs) =>
            options.telemetry.listenFailed(name, label, code, retryInMs),
          serverError: (code) => options.telemetry.serverError(name, code),
          stopped: () => options.telemetry.stopped(name),
          statusChanged: (status) => options.statusChanged?.(name, status),
        },
      });
    this.http = listener('http', this.#servers.http, options.httpAddress);
    this.https = listener('https', this.#servers.https, options.httpsAddress);
  }

  /**
   * Opens the HTTP listener (and the HTTPS one when TLS vhosts are routed); resolves after the first
   * attempt of both, with the HTTP listener's status.
   */
  async start(): Promise<ListenerStatus> {
    this.#started = true;
    const [http] = await Promise.all([this.http.start(), this.#wantsHttps ? this.https.start() : undefined]);
    return http;
  }

  /** Whether the HTTPS listener is meant to be open: a TLS vhost has been routed. */
  get wantsHttps(): boolean {
    return this.#wantsHttps;
  }

  /** Builds and swaps both routing tables. Never throws: what cannot be served is in `problems`. */
  setRoutes(routes: readonly HttpRoute[]): RoutingReport {
    const tables = buildRoutingTables(routes, this.#tls);
    this.#plain.table = tables.plain;
    this.#secure.table = tables.secure;
    const report = {
      plainHosts: tables.plain.hostnames.length,
      secureHosts: tables.secure.hostnames.length,
      problems: tables.problems,
    };
    this.#telemetry.routesApplied(report.plainHosts, report.secureHosts, report.problems);
    if (report.secureHosts > 0) this.#wantsHttps = true;
    if (this.#wantsHttps && this.#started) void this.https.start();
    return report;
  }

  /** Stops both listeners; requests still running after `graceMs` are cut off. */
  async stop(graceMs?: number): Promise<void> {
    this.#started = false;
    await Promise.all([this.http.stop(graceMs), this.https.stop(graceMs)]);
  }
}

function serverOptions(limits: ServerLimits): ServerOptions {
  return {
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    headersTimeout: limits.headersTimeoutMs,
    requestTimeout: limits.requestTimeoutMs,
    maxHeaderSize: limits.maxHeaderBytes,
    connectionsCheckingInterval: limits.timeoutCheckIntervalMs,
    noDelay: true,
  };
}

function wire(server: HttpServer | HttpsServer, handler: IngestHandler, limits: ServerLimits): void {
  server.keepAliveTimeout = limits.keepAliveTimeoutMs;
  server.on('request', handler.onRequest);
  server.on('checkContinue', handler.onCheckContinue);
  server.on('clientError', handler.onClientError);
}

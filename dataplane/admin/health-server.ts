// The probe and metrics endpoint (node:http) of the operator and of the data plane
// (`--health-listen-addr`): `/healthz` answers 200 while the process runs, `/readyz` 200 once ready (503
// before), `/metrics` the Prometheus text format. It carries no record data, so it may listen where the
// kubelet and Prometheus reach it while the data plane's admin API stays on loopback.
//
// Its connections are its own: at most `maxConnections` (default 64), and one that has not started a
// request within `firstRequestTimeoutMs` (default 10 s) is closed; refusals and timeouts count as
// `listener="health"` (docs/runtime.md, "Connection limits"). Probes and scrapes open a connection or two.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import type { ListenAddress } from '../net/retrying-listener.js';
import { systemClock, type Clock } from '../core/clock.js';
import { ConnectionGate } from '../net/connection-gate.js';
import { ConnectionTelemetry } from '../net/connection-telemetry.js';
import { DEFAULT_HEALTH_MAX_CONNECTIONS } from '../net/fd-limit.js';
import { guardHttpServer } from '../net/guard-http-server.js';

export const DEFAULT_HEALTH_FIRST_REQUEST_TIMEOUT_MS = 10_000;

export { DEFAULT_HEALTH_LISTEN_ADDR } from './admin-defaults.js';

/** Readiness with a JSON body (the data plane's checks), answered as `application/json`. */
export interface ReadyReport {
  ready: boolean;
  body: unknown;
}

export interface HealthServerOptions {
  address: ListenAddress;
  /** The operator: every initial list is done. The data plane: its checks, as the admin API's /readyz. */
  ready: () => boolean | ReadyReport;
  registry: Registry;
  logger?: Logger;
  /** Default 64. */
  maxConnections?: number;
  /** Default 10 s. */
  firstRequestTimeoutMs?: number;
  /** The refusal log's interval (default: the system clock). */
  clock?: Clock;
}

export interface HealthServer {
  /** The bound port (the asked one, or the system's pick for port 0). */
  port: number;
  close(): Promise<void>;
}

export async function startHealthServer(options: HealthServerOptions): Promise<HealthServer> {
  const server = createServer({ connectionsCheckingInterval: 2_000 }, (request, response) => {
    void answer(options, request, response);
  });
  const telemetry = new ConnectionTelemetry('health', {
    registry: options.registry,
    logger: options.logger,
    clock: options.clock ?? systemClock,
  });
  const gate = new ConnectionGate(
    { maxConnections: options.maxConnections ?? DEFAULT_HEALTH_MAX_CONNECTIONS },
    telemetry,
  );
  guardHttpServer(server, {
    gate,
    firstRequestTimeoutMs: options.firstRequestTimeoutMs ?? DEFAULT_HEALTH_FIRST_REQUEST_TIMEOUT_MS,
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.address.port, options.address.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  options.logger?.info({ host: options.address.host, port }, 'health server listening');
  return {
    port,
    close: async () => {
      await close(server);
      gate.detach();
    },
  };
}

async function answer(
  options: HealthServerOptions,
  request: IncomingMessage,
  response: ServerResponse,
): Promise<void> {
  const path = (request.url ?? '/').split('?')[0];
  if (request.method !== 'GET' && request.method !== 'HEAD')
    return send(response, 405, 'method not allowed\n');
  if (path === '/healthz') return send(response, 200, 'ok\n');
  if (path === '/readyz') return sendReady(response, options.ready());
  if (path === '/metrics') {
    try {
      const text = await options.registry.metrics();
      return send(response, 200, text, options.registry.contentType);
    } catch (error: unknown) {
      options.logger?.error({ error: String(error) }, 'metrics collection failed');
      return send(response, 500, 'metrics collection failed\n');
    }
  }
  send(response, 404, 'not found\n');
}

function sendReady(response: ServerResponse, ready: boolean | ReadyReport): void {
  if (typeof ready === 'boolean') {
    return ready ? send(response, 200, 'ok\n') : send(response, 503, 'caches not synced\n');
  }
  const type = 'application/json; charset=utf-8';
  send(response, ready.ready ? 200 : 503, JSON.stringify(ready.body), type);
}

function send(
  response: ServerResponse,
  status: number,
  body: string,
  type = 'text/plain; charset=utf-8',
): void {
  response.writeHead(status, { 'content-type': type, 'content-length': Buffer.byteLength(body) });
  response.end(body);
}

function close(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}

// The probe and metrics endpoint (node:http) of the operator and of the data plane
// (`--health-listen-addr`): `/healthz` answers 200 while the process runs, `/readyz` 200 once ready (503
// before), `/metrics` the Prometheus text format. It carries no record data, so it may listen where the
// kubelet and Prometheus reach it while the data plane's admin API stays on loopback.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import type { ListenAddress } from '../net/retrying-listener.js';

export const DEFAULT_HEALTH_LISTEN_ADDR = '0.0.0.0:8082';

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
}

export interface HealthServer {
  /** The bound port (the asked one, or the system's pick for port 0). */
  port: number;
  close(): Promise<void>;
}

export async function startHealthServer(options: HealthServerOptions): Promise<HealthServer> {
  const server = createServer((request, response) => {
    void answer(options, request, response);
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
  return { port, close: () => close(server) };
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

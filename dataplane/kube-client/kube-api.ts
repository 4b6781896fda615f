// A small Kubernetes API client over node:https: JSON requests and watch streams, every request behind a
// client-side rate limit. In a pod the service account is read directly (in-cluster-config.ts); a
// kubeconfig (a file given, $KUBECONFIG, ~/.kube/config: exec plugins, OIDC, client certificates) is read
// by client-node's KubeConfig, loaded only then — it costs ~70 MB and ~0.4 s, which the data plane on
// every node does not pay. The requests are ours, so that rate limits, watches and server-side apply stay
// in view.
import type { KubeConfig } from '@kubernetes/client-node';
import { existsSync } from 'node:fs';
import { request, type RequestOptions } from 'node:https';
import type { IncomingMessage } from 'node:http';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { systemClock, type Clock } from '../core/clock.js';
import { inCluster, inClusterConnection, SERVICE_ACCOUNT_DIR, type Connection } from './in-cluster-config.js';
import { TokenBucket, type RateLimit } from './token-bucket.js';

export interface KubeApiOptions {
  /**
   * A kubeconfig file; without one (and without a context), as client-node's loadFromDefault: $KUBECONFIG,
   * else ~/.kube/config, else the in-cluster service account.
   */
  kubeconfig?: string;
  context?: string;
  rateLimit: RateLimit;
  userAgent: string;
  clock?: Clock;
  /** Tests: the environment and the service-account directory (default: the process's, the pod's). */
  env?: Readonly<Record<string, string | undefined>>;
  serviceAccountDir?: string;
}

/** A failed API call: the HTTP status and the Status object's reason and message. */
export class KubeApiError extends Error {
  readonly status: number;
  readonly reason: string;
  /** The Status object's message alone. */
  readonly detail: string;
  /** The request's path (no query). */
  readonly path: string;

  constructor(failure: { status: number; reason: string; message: string; method: string; path: string }) {
    super(`${failure.method} ${failure.path}: ${failure.status} ${failure.reason}: ${failure.message}`);
    this.name = 'KubeApiError';
    this.status = failure.status;
    this.reason = failure.reason;
    this.detail = failure.message;
    this.path = failure.path;
  }
}

/**
 * `<plural>.streamroute.io` when the API answered 404 because that CRD is not installed: any 404 of a
 * collection, or of an object when the answer is not a NotFound Status (the server's plain
 * "404 page not found" for a resource it does not serve).
 */
export function missingCrd(error: unknown): string | undefined {
  if (!(error instanceof KubeApiError) || error.status !== 404) return undefined;
  const match = /^\/apis\/streamroute\.io\/[^/]+\/(?:namespaces\/[^/]+\/)?([a-z]+)(\/[^/]+)?/.exec(
    error.path,
  );
  if (match === null) return undefined;
  const isObject = match[2] !== undefined;
  return isObject && error.reason === 'NotFound' ? undefined : `${match[1]!}.streamroute.io`;
}

/** What to do about a CRD that is not installed. */
export function missingCrdText(crd: string): string {
  return `the CustomResourceDefinition ${crd} is not installed: install the chart's CRDs (helm install without --skip-crds, or kubectl apply -f charts/streamroute/crds/)`;
}

/** How long a plain request (not a watch or stream) may take, body included. */
export const REQUEST_TIMEOUT_MS = 30_000;

/**
 * A failed request as text for logs and node reports: for a KubeApiError the method, path, status,
 * reason and the API's message; bounded, and never a request or response body.
 */
export function errorText(error: unknown): string {
  return error instanceof Error ? error.message.slice(0, 500) : 'unknown error';
}

export function isStatus(error: unknown, status: number): boolean {
  return error instanceof KubeApiError && error.status === status;
}

export interface RequestSpec {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  query?: Record<string, string | number | boolean | undefined>;
  body?: unknown;
  /** Default `application/json`; server-side apply sends `application/apply-patch+yaml`. */
  contentType?: string;
  accept?: string;
}

export interface WatchEvent<T> {
  type: 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR';
  object: T;
}

/** client-node, loaded on first use (synchronously: KubeApi's constructor and its callers are). */
const requireModule = createRequire(import.meta.url);
function clientNode(): typeof import('@kubernetes/client-node') {
  return requireModule('@kubernetes/client-node') as typeof import('@kubernetes/client-node');
}

export function loadKubeConfig(kubeconfig: string | undefined, context: string | undefined): KubeConfig {
  const config = new (clientNode().KubeConfig)();
  if (kubeconfig !== undefined) config.loadFromFile(kubeconfig);
  else config.loadFromDefault();
  if (context !== undefined) config.setCurrentContext(context);
  if (config.getCurrentCluster() === null) throw new Error('kubeconfig: no current cluster');
  return config;
}

/**
 * The connection the options name. The order is client-node's loadFromDefault: a kubeconfig found
 * anywhere wins over the pod's service account, so a pod given a kubeconfig behaves as before. With none
 * of them, client-node would fall back to http://localhost:8080 and the caller would retry it forever;
 * this says so instead.
 */
export function connectionOf(
  options: Pick<KubeApiOptions, 'kubeconfig' | 'context' | 'env' | 'serviceAccountDir'>,
): Connection {
  const env = options.env ?? process.env;
  const serviceAccountDir = options.serviceAccountDir ?? SERVICE_ACCOUNT_DIR;
  if (usesServiceAccount(options)) return inClusterConnection(env, serviceAccountDir);
  if (options.kubeconfig === undefined && !kubeconfigFound(env)) {
    throw new Error(
      `no Kubernetes API server: not in a pod (no ${join(serviceAccountDir, 'token')}), $KUBECONFIG is not set ` +
        `and ~/.kube/config does not exist; pass --kubeconfig`,
    );
  }
  const config = loadKubeConfig(options.kubeconfig, options.context);
  return {
    server: new URL(config.getCurrentCluster()?.server ?? ''),
    namespace: config.getContextObject(config.getCurrentContext())?.namespace,
    authorize: (requestOptions) => config.applyToHTTPSOptions(requestOptions),
  };
}

/** In a pod, and no kubeconfig named or found ($KUBECONFIG, else ~/.kube/config as client-node finds it). */
export function usesServiceAccount(
  options: Pick<KubeApiOptions, 'kubeconfig' | 'context' | 'env' | 'serviceAccountDir'>,
): boolean {
  if (options.kubeconfig !== undefined || options.context !== undefined) return false;
  if (kubeconfigFound(options.env ?? process.env)) return false;
  return inCluster(options.serviceAccountDir ?? SERVICE_ACCOUNT_DIR);
}

/** $KUBECONFIG is set, or ~/.kube/config exists. */
function kubeconfigFound(env: Readonly<Record<string, string | undefined>>): boolean {
  if ((env['KUBECONFIG'] ?? '') !== '') return true;
  const home = env['HOME'];
  return home !== undefined && home !== '' && existsSync(join(home, '.kube', 'config'));
}

export class KubeApi {
  readonly #connection: Connection;
  readonly #server: URL;
  readonly #bucket: TokenBucket;
  readonly #userAgent: string;
  /** Requests sent, by method: the scale benchmark reads API writes from it. */
  readonly sent = new Map<string, number>();

  constructor(options: KubeApiOptions) {
    this.#connection = connectionOf(options);
    this.#server = this.#connection.server;
    this.#bucket = new TokenBucket(options.rateLimit, options.clock ?? systemClock);
    this.#userAgent = options.userAgent;
  }

  /** The current context's namespace, if the kubeconfig names one; in a pod, the pod's. */
  get defaultNamespace(): string | undefined {
    return this.#connection.namespace;
  }

  /**
   * One JSON request; resolves with the parsed body, rejects with KubeApiError on a status ≥ 300, and
   * gives up after REQUEST_TIMEOUT_MS (a connection that died silently must not stall a sync, a report
   * or a stop forever).
   */
  async request<T>(spec: RequestSpec): Promise<T> {
    const signal = AbortSignal.timeout(REQUEST_TIMEOUT_MS);
    const response = await this.#send(spec, signal);
    const body = await readBody(response);
    const method = spec.method ?? 'GET';
    if ((response.statusCode ?? 0) >= 300) throw apiError(response.statusCode ?? 0, body, method, spec.path);
    return (body.length === 0 ? undefined : JSON.parse(body)) as T;
  }

  /**
   * One streaming request (a pod-proxied subscription): resolves with the response, whatever its status,
   * once its head arrives; the caller reads the body as it comes.
   */
  stream(spec: RequestSpec, signal: AbortSignal): Promise<IncomingMessage> {
    return this.#send(spec, signal);
  }

  /**
   * Opens a watch (`watch=true` is added) and calls `onEvent` per line until the server ends the stream
   * or `signal` aborts. Resolves when the stream ends; rejects on a failed request.
   */
  async watch<T>(
    spec: RequestSpec,
    onEvent: (event: WatchEvent<T>) => void,
    signal: AbortSignal,
  ): Promise<void> {
    const response = await this.#send({ ...spec, query: { ...spec.query, watch: true } }, signal);
    if ((response.statusCode ?? 0) >= 300) {
      throw apiError(response.statusCode ?? 0, await readBody(response), 'GET', spec.path);
    }
    await new Promise<void>((resolve, reject) => {
      let pending = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        pending += chunk;
        let newline = pending.indexOf('\n');
        while (newline >= 0) {
          const line = pending.slice(0, newline);
          pending = pending.slice(newline + 1);
          newline = pending.indexOf('\n');
          if (line.trim() === '') continue;
          try {
            onEvent(JSON.parse(line) as WatchEvent<T>);
          } catch (error: unknown) {
            // A line that is not JSON (or a handler that throws) ends this watch; the caller retries.
            response.destroy();
            reject(error instanceof Error ? error : new Error('watch event failed'));
            return;
          }
        }
      });
      response.on('end', resolve);
      response.on('error', (error) => (signal.aborted ? resolve() : reject(error)));
      response.on('close', resolve);
    });
  }

  async #send(spec: RequestSpec, signal?: AbortSignal): Promise<IncomingMessage> {
    await this.#bucket.take();
    const method = spec.method ?? 'GET';
    this.sent.set(method, (this.sent.get(method) ?? 0) + 1);
    const url = new URL(this.#server.pathname.replace(/\/$/, '') + spec.path, this.#server);
    for (const [key, value] of Object.entries(spec.query ?? {})) {
      if (value !== undefined) url.searchParams.set(key, String(value));
    }
    const headers: Record<string, string> = {
      accept: spec.accept ?? 'application/json',
      'user-agent': this.#userAgent,
    };
    const body = spec.body === undefined ? undefined : JSON.stringify(spec.body);
    if (body !== undefined) headers['content-type'] = spec.contentType ?? 'application/json';
    const options: RequestOptions = { method, headers };
    await this.#connection.authorize(options);
    options.headers = { ...(options.headers as Record<string, string>), ...headers };
    return new Promise((resolve, reject) => {
      const req = request(url, { ...options, ...(signal === undefined ? {} : { signal }) }, resolve);
      req.on('error', reject);
      req.end(body);
    });
  }
}

function readBody(response: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    response.on('data', (chunk: Buffer) => chunks.push(chunk));
    response.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    response.on('error', reject);
  });
}

function apiError(status: number, body: string, method: string, path: string): KubeApiError {
  let reason = 'Unknown';
  let message = body.slice(0, 500);
  try {
    const parsed = JSON.parse(body) as { reason?: string; message?: string };
    reason = parsed.reason ?? reason;
    message = parsed.message ?? message;
  } catch {
    // not a Status object: keep the start of the body
  }
  return new KubeApiError({ status, reason, message, method, path });
}

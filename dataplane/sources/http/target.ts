// What the HTTP listener hands bodies to, and the routes the runtime gives it. The listener knows nothing
// of codecs or relays: a target is anything with a name, a body limit and a fire-and-forget `deliver`
// (the runtime's ingestor entry, wrapped for ON QUIESCE by `createIngestTarget`).
import type { GraphHttpIngestor } from '../../graph/types.js';
import type { Value } from '../../core/values.js';
import type { HttpTls } from '../../net/tls-contexts.js';

/** `metadata.*` of an HTTP ingestor's routes (docs/compiler.md, "Scopes"). */
export type HttpMetadata = {
  /** The connection's peer `ip:port` (`[ip]:port` for IPv6); null when the socket is already gone. */
  remote_addr: string | null;
  /** The host the vhost matched: lower-cased, port and trailing dot stripped. */
  host: string;
  /** The path the endpoint matched, without the query string. */
  path: string;
  /** The Content-Type header as sent, null when absent. */
  content_type: string | null;
} & Record<string, Value>;

export interface HttpTarget {
  /** Stable, unique per node (e.g. `<domain>/<ingestor>`); used in logs, metrics and problems. */
  readonly name: string;
  /**
   * The graph's HTTP ingestor behind the target: the `domain` and `name` labels of its per-ingestor
   * counters on `/metrics` (a target without one, a listener test's, is counted for DESCRIBE only).
   */
  readonly component?: { readonly domain: string; readonly name: string };
  /** Larger bodies are answered 413 and never delivered. */
  readonly maxBodyBytes: number;
  /**
   * Takes one complete body. Fire-and-forget: decode failures are the target's business, never the
   * client's; a throw here is a bug and is answered 500.
   */
  deliver(body: Uint8Array, metadata: HttpMetadata): void;
}

export interface HttpRoute {
  /** The graph domain of the target: its TLS files and Secrets are that domain's. */
  domain: string;
  /** Lower-case hostnames (the vhost's). */
  hostnames: readonly string[];
  /** Exact request path, starting with `/`. */
  path: string;
  /** Present for a TLS vhost: served on the HTTPS listener only. */
  tls?: HttpTls;
  target: HttpTarget;
}

/** The route of one graph ingestor of `domain`. */
export function httpRouteOf(domain: string, ingestor: GraphHttpIngestor, target: HttpTarget): HttpRoute {
  const route: HttpRoute = { domain, hostnames: ingestor.hostnames, path: ingestor.path, target };
  if (ingestor.tls !== undefined) route.tls = ingestor.tls;
  return route;
}

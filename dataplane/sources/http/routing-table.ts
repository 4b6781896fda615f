// The routing table: host → path → target, one for the HTTP listener and one (with a TLS context per
// host, for SNI) for the HTTPS listener. A table is immutable; `setRoutes` builds new ones and the
// listeners swap a reference, so a request sees one table from start to end.
//
// The compiler already rejects two ingestors on one host and path within a domain (SR2041); across
// domains, or when a vhost's certificate cannot be used, building reports a problem naming the target
// that loses and keeps serving everything else. The route given first keeps a contested host and path.
import type { SecureContext } from 'node:tls';
import { normalizeHost } from './request-target.js';
import type { HttpRoute, HttpTarget } from './target.js';
import type { HttpTls } from '../../net/tls-contexts.js';
import {
  buildTlsContext,
  tlsMaterialKey,
  type TlsContextResult,
  type TlsMaterialSource,
} from '../../net/tls-contexts.js';

export type RouteLookup = HttpTarget | 'unknown_host' | 'unknown_path';

export class RoutingTable {
  static readonly EMPTY = new RoutingTable(new Map(), new Map());

  readonly #hosts: ReadonlyMap<string, ReadonlyMap<string, HttpTarget>>;
  readonly #contexts: ReadonlyMap<string, SecureContext>;

  constructor(
    hosts: ReadonlyMap<string, ReadonlyMap<string, HttpTarget>>,
    contexts: ReadonlyMap<string, SecureContext>,
  ) {
    this.#hosts = hosts;
    this.#contexts = contexts;
  }

  /** `host` is canonical (`normalizeHost`); `path` is compared exactly. */
  lookup(host: string, path: string): RouteLookup {
    const paths = this.#hosts.get(host);
    if (paths === undefined) return 'unknown_host';
    return paths.get(path) ?? 'unknown_path';
  }

  /** The TLS context for an SNI server name, undefined for a name we hold no certificate for. */
  secureContext(servername: string): SecureContext | undefined {
    const host = normalizeHost(servername);
    return host === undefined ? undefined : this.#contexts.get(host);
  }

  /** The paths served on a canonical host (none when the host is not served). */
  pathsOf(host: string): string[] {
    return [...(this.#hosts.get(host)?.keys() ?? [])];
  }

  get hostnames(): string[] {
    return [...this.#hosts.keys()];
  }

  get targets(): HttpTarget[] {
    return [...new Set([...this.#hosts.values()].flatMap((paths) => [...paths.values()]))];
  }
}

export const ROUTING_PROBLEM_CODES = [
  'route_conflict',
  'tls_conflict',
  'tls_unavailable',
  'tls_invalid',
] as const;
export type RoutingProblemCode = (typeof ROUTING_PROBLEM_CODES)[number];

/** A route, or part of one, that is not served. The target's other hosts and paths still are. */
export interface RoutingProblem {
  code: RoutingProblemCode;
  target: string;
  message: string;
}

export interface RoutingTables {
  plain: RoutingTable;
  secure: RoutingTable;
  problems: RoutingProblem[];
}

type MutableHosts = Map<string, Map<string, HttpTarget>>;

interface Building {
  plain: MutableHosts;
  secure: MutableHosts;
  contexts: Map<string, { key: string; context: SecureContext }>;
  material: Map<string, TlsContextResult>;
  problems: RoutingProblem[];
}

export function buildRoutingTables(routes: readonly HttpRoute[], tls: TlsMaterialSource): RoutingTables {
  const b: Building = {
    plain: new Map(),
    secure: new Map(),
    contexts: new Map(),
    material: new Map(),
    problems: [],
  };
  for (const route of routes) {
    if (route.tls === undefined) addPaths(b, b.plain, route, route.hostnames);
    else addSecure(b, route, route.tls, tls);
  }
  const contexts = new Map([...b.contexts].map(([host, entry]) => [host, entry.context]));
  return {
    plain: new RoutingTable(b.plain, new Map()),
    secure: new RoutingTable(b.secure, contexts),
    problems: b.problems,
  };
}

function addSecure(b: Building, route: HttpRoute, tls: HttpTls, source: TlsMaterialSource): void {
  const key = tlsMaterialKey(tls, route.domain);
  let built = b.material.get(key);
  if (built === undefined) {
    built = buildTlsContext(tls, route.domain, source);
    b.material.set(key, built);
  }
  if ('problem' in built) {
    b.problems.push({ code: built.problem.code, target: route.target.name, message: built.problem.message });
    return;
  }
  const served: string[] = [];
  for (const hostname of route.hostnames) {
    const host = canonical(hostname);
    const held = b.contexts.get(host);
    if (held !== undefined && held.key !== key) {
      b.problems.push({
        code: 'tls_conflict',
        target: route.target.name,
        message: `hostname ${host} already has a certificate from another vhost; ${route.target.name} is not served on it over HTTPS`,
      });
      continue;
    }
    b.contexts.set(host, { key, context: built.context });
    served.push(hostname);
  }
  addPaths(b, b.secure, route, served);
}

function addPaths(b: Building, hosts: MutableHosts, route: HttpRoute, hostnames: readonly string[]): void {
  for (const hostname of hostnames) {
    const host = canonical(hostname);
    let paths = hosts.get(host);
    if (paths === undefined) {
      paths = new Map();
      hosts.set(host, paths);
    }
    const holder = paths.get(route.path);
    if (holder !== undefined && holder !== route.target) {
      b.problems.push({
        code: 'route_conflict',
        target: route.target.name,
        message: `POST ${host}${route.path} is already received by ${holder.name}; ${route.target.name} does not receive it`,
      });
      continue;
    }
    paths.set(route.path, route.target);
  }
}

function canonical(hostname: string): string {
  return normalizeHost(hostname) ?? hostname.toLowerCase();
}

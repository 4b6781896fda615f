// Readiness of the node, as a plain function of its state: the HTTP listener runs, the HTTPS listener runs
// when some TLS vhost is routed, and every domain the node was given runs a graph. A domain whose newest
// graph was refused still runs the one before, so it stays ready (the check says which version was
// refused); a domain whose first graph was refused (also when it is restored at start) runs nothing, so
// it is not ready until a graph of it is applied or it is removed.
import type { HealthCheck } from '../core/status.js';
import type { ListenerStatus } from '../net/retrying-listener.js';

export interface DomainReadiness {
  domain: string;
  /** The version it runs; undefined when none runs (its first graph was refused). */
  version: number | undefined;
  /** The newest version refused since `version` was applied (or since the domain was given), and why. */
  refused: { version: number; errors: readonly string[] } | undefined;
}
export interface ReadinessInput {
  http: ListenerStatus;
  https: ListenerStatus;
  /** Some TLS vhost is in the routing table (the HTTPS listener is needed). */
  httpsRouted: boolean;
  domains: readonly DomainReadiness[];
}

export function readinessChecks(input: ReadinessInput): HealthCheck[] {
  const checks = [listenerCheck('http-listener', input.http)];
  if (input.httpsRouted) checks.push(listenerCheck('https-listener', input.https));
  for (const domain of input.domains) checks.push(graphCheck(domain));
  return checks;
}

function listenerCheck(name: string, status: ListenerStatus): HealthCheck {
  const where = status.port === undefined ? status.address : `${status.address} (port ${status.port})`;
  if (status.state === 'Running') return { name, ok: true, detail: `listening on ${where}` };
  if (status.state === 'Retrying') {
    const error = status.error === undefined ? 'an error' : `${status.error.code} (${status.error.message})`;
    const next = status.backoffMs === undefined ? '' : `; next attempt in ${status.backoffMs} ms`;
    return { name, ok: false, detail: `cannot listen on ${where}: ${error}${next}` };
  }
  return { name, ok: false, detail: `${status.state} (${where})` };
}

function graphCheck({ domain, version, refused }: DomainReadiness): HealthCheck {
  const name = `graph:${domain}`;
  if (version === undefined) {
    const why =
      refused === undefined
        ? 'no graph was applied'
        : `version ${refused.version} refused: ${reasons(refused.errors)}`;
    return { name, ok: false, detail: `${why}; nothing runs` };
  }
  const note = refused === undefined ? '' : `; version ${refused.version} was refused`;
  return { name, ok: true, detail: `graph version ${version} applied${note}` };
}

/** The first reason, and how many more there are. */
function reasons(errors: readonly string[]): string {
  const [first = 'no reason given', ...rest] = errors;
  return rest.length === 0 ? first : `${first} (and ${rest.length} more)`;
}

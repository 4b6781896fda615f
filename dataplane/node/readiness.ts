// Readiness of the node, as a plain function of its state: the HTTP listener runs, the HTTPS listener runs
// when some TLS vhost is routed, and every domain has an applied graph. A domain whose newest graph was
// refused still runs the one before, so it stays ready; the check says which version was refused.
import type { HealthCheck } from '../admin/backend.js';
import type { ListenerStatus } from '../sources/retrying-listener.js';

export interface DomainReadiness {
  domain: string;
  version: number;
  /** The newest version refused since `version` was applied. */
  refusedVersion: number | undefined;
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

function graphCheck({ domain, version, refusedVersion }: DomainReadiness): HealthCheck {
  const refused = refusedVersion === undefined ? '' : `; version ${refusedVersion} was refused`;
  return { name: `graph:${domain}`, ok: true, detail: `graph version ${version} applied${refused}` };
}

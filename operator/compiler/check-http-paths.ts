// One HTTP ingestor per endpoint (SR2042), and one per host and path across endpoints and vhosts that
// share a hostname (SR2041): a request must reach exactly one ingestor. The older ingestor keeps it.
import { displayName } from '../api/display-names.js';
import type { GraphObject } from '../api/index.js';
import { keyOf, label, type CompileContext } from './context.js';
import { oldestFirst } from './precedence.js';

export function checkHttpPaths(ctx: CompileContext, objects: readonly GraphObject[]): void {
  const byEndpoint = new Map<string, GraphObject>();
  const byHostPath = new Map<string, GraphObject>();
  for (const ingestor of oldestFirst(ctx, objects)) {
    if (ingestor.kind !== 'HttpIngestor') continue;
    const endpoint = ctx.accepted('Endpoint', ingestor.spec.endpoint);
    const vhost = endpoint && ctx.accepted('Vhost', endpoint.spec.vhost);
    if (endpoint === undefined || vhost === undefined) continue;
    const reader = byEndpoint.get(endpoint.metadata.name);
    if (reader !== undefined) {
      ctx.report(
        keyOf(ingestor),
        'SR2042',
        'spec.endpoint',
        `${label(ingestor)} reads endpoint ${displayName(endpoint)}, which ${label(reader)} already reads; an endpoint has one ingestor`,
      );
      continue;
    }
    const taken = vhost.spec.hostnames
      .map((host) => ({ host, holder: byHostPath.get(`${host} ${endpoint.spec.path}`) }))
      .find((claim) => claim.holder !== undefined);
    if (taken?.holder !== undefined) {
      ctx.report(
        keyOf(ingestor),
        'SR2041',
        'spec.endpoint',
        `${label(ingestor)} would receive POST ${taken.host}${endpoint.spec.path} (endpoint ${displayName(endpoint)}), which ${label(taken.holder)} already receives; use another path or hostname`,
      );
      continue;
    }
    byEndpoint.set(endpoint.metadata.name, ingestor);
    for (const host of vhost.spec.hostnames) byHostPath.set(`${host} ${endpoint.spec.path}`, ingestor);
  }
}

// Two syslog listeners may not bind the same socket (SR2040). tcp and tls are both TCP sockets, so they
// conflict on one port; udp and tcp on one port do not. Hosts conflict when equal or when either is a
// wildcard (0.0.0.0, ::), since a wildcard bind takes the port on every address. The older ingestor keeps
// the address. Host names are compared as written (no DNS lookups at compile time).
import { displayName } from '../api/display-names.js';
import type { GraphObject } from '../api/index.js';
import { keyOf, label, type CompileContext } from './context.js';
import { splitAddr } from './check-syslog-clients.js';
import { oldestFirst } from './precedence.js';

interface Claim {
  ingestor: GraphObject;
  client: string;
  protocol: string;
  socket: 'udp' | 'tcp';
  host: string;
  port: number;
}

const WILDCARDS = new Set(['0.0.0.0', '::', '']);

function overlaps(a: Claim, b: Claim): boolean {
  if (a.socket !== b.socket || a.port !== b.port) return false;
  return a.host === b.host || WILDCARDS.has(a.host) || WILDCARDS.has(b.host);
}

export function checkListeners(ctx: CompileContext, objects: readonly GraphObject[]): void {
  const claims: Claim[] = [];
  for (const ingestor of oldestFirst(ctx, objects)) {
    if (ingestor.kind !== 'SyslogIngestor') continue;
    const client = ctx.accepted('SyslogClient', ingestor.spec.client);
    if (client === undefined) continue;
    const { protocol, addr } = client.spec.config;
    const { host, port } = splitAddr(addr);
    const claim: Claim = {
      ingestor,
      client: displayName(client),
      protocol,
      socket: protocol === 'udp' ? 'udp' : 'tcp',
      host: host.toLowerCase(),
      port,
    };
    const holder = claims.find((other) => overlaps(other, claim));
    if (holder === undefined) {
      claims.push(claim);
      continue;
    }
    const both =
      holder.protocol !== claim.protocol
        ? ` (${holder.protocol} and ${claim.protocol} both use TCP sockets)`
        : '';
    ctx.report(
      keyOf(ingestor),
      'SR2040',
      'spec.client',
      `${label(ingestor)} would listen on ${claim.protocol} ${addr} (client ${claim.client}), but ${label(holder.ingestor)} already listens on ${holder.protocol} port ${holder.port} (client ${holder.client})${both}; use another port`,
    );
  }
}

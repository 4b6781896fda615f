// Syslog client configuration beyond the Kind's own rules (docs/syslog-wire.md, "Clients"): an address whose
// host is a real IPv4/IPv6 address or DNS name (SR2031), and a TLS listener's server identity — a SYSLOG
// LISTENER INGESTOR on a tls client needs tls_cert_file and tls_key_file (SR2033, reported on the ingestor).
// Unknown protocol (SR2030), framing (SR2032), half an identity (SR2034) and TLS keys on udp/tcp (SR2035)
// are rules of the SyslogClient kind; mounted files are check-mounts'.
import { displayName } from '../api/display-names.js';
import { isIPv4, isIPv6 } from 'node:net';
import type { GraphObject } from '../api/index.js';
import { keyOf, label, type CompileContext } from './context.js';

export function splitAddr(addr: string): { host: string; port: number } {
  const cut = addr.lastIndexOf(':');
  const host = addr.slice(0, cut);
  return { host: host.startsWith('[') ? host.slice(1, -1) : host, port: Number(addr.slice(cut + 1)) };
}

export function addrProblem(addr: string): string | undefined {
  const { host } = splitAddr(addr);
  if (addr.startsWith('[')) return isIPv6(host) ? undefined : `${host} is not an IPv6 address`;
  if (/^[0-9.]+$/.test(host)) return isIPv4(host) ? undefined : `${host} is not an IPv4 address`;
  if (host.length > 253) return 'the host name is longer than 253 characters';
  if (host.split('.').some((part) => part.length > 63 || part.length === 0)) {
    return `${host} is not a DNS name (labels of 1 to 63 characters)`;
  }
  return undefined;
}

export function checkSyslogClients(ctx: CompileContext, objects: readonly GraphObject[]): void {
  for (const object of objects) {
    // An addr its kind's rule already refused (a rejected client is still judged) is not split again.
    if (object.kind === 'SyslogClient' && !ctx.hasDiagnosticAt(keyOf(object), 'spec.config.addr')) {
      const problem = addrProblem(object.spec.config.addr);
      if (problem !== undefined) {
        ctx.report(
          keyOf(object),
          'SR2031',
          'spec.config.addr',
          `${label(object)}: addr ${object.spec.config.addr} is malformed: ${problem}; expected host:port`,
        );
      }
    }
    if (object.kind === 'SyslogIngestor') checkServerIdentity(ctx, object);
  }
}

function checkServerIdentity(ctx: CompileContext, ingestor: GraphObject<'SyslogIngestor'>): void {
  const client = ctx.accepted('SyslogClient', ingestor.spec.client);
  if (client === undefined || client.spec.config.protocol !== 'tls') return;
  const missing = [
    client.spec.config.tlsCertFile === undefined ? 'tls_cert_file' : undefined,
    client.spec.config.tlsKeyFile === undefined ? 'tls_key_file' : undefined,
  ].filter((setting) => setting !== undefined);
  if (missing.length === 0) return;
  ctx.report(
    keyOf(ingestor),
    'SR2033',
    'spec.client',
    `${label(ingestor)} listens with TLS on client ${displayName(client)}, which has no server identity: set ${missing.join(' and ')} (a TLS listener needs both a certificate and its key)`,
  );
}

// TLS files of a syslog client (docs/syslog-wire.md, "Clients"), read from the mounted resource version and
// checked before a listener or emitter uses them. A failure keeps its cause beneath the client's error: which
// setting, which file (`{{ pki }}/server.key`, resource and version) and why (the errno or OpenSSL code) —
// never the file's content. The caller shows it as the component's transient error and tries again on its
// backoff (in Kubernetes mode a resource version can arrive after the graph that mounts it).
import { createSecureContext } from 'node:tls';
import { X509Certificate } from 'node:crypto';
import type { GraphSyslogClient, MountedFile } from '../graph/types.js';
import type { TlsMaterialSource } from './tls-contexts.js';
import { errorCode } from '../core/error-code.js';

export interface SyslogTlsFiles {
  cert?: Buffer;
  key?: Buffer;
  ca?: Buffer;
}

/** Why the files cannot be used; `cause` is logged as a structured field. */
export interface SyslogTlsProblem {
  code: 'tls_unavailable' | 'tls_invalid';
  message: string;
  cause: { setting: string; file: string; reason: string };
}

export type SyslogTlsResult = { files: SyslogTlsFiles | undefined } | { problem: SyslogTlsProblem };

type Setting = 'tls_cert_file' | 'tls_key_file' | 'tls_ca_file';

const SETTINGS: readonly [Setting, 'certFile' | 'keyFile' | 'caFile', keyof SyslogTlsFiles][] = [
  ['tls_cert_file', 'certFile', 'cert'],
  ['tls_key_file', 'keyFile', 'key'],
  ['tls_ca_file', 'caFile', 'ca'],
];

/** How the client and its resources are named in problems (the graph's display names, decision 0025). */
export interface TlsNames {
  client: string;
  resources?: Readonly<Record<string, string>> | undefined;
}

/** The client's display name (a syslog client's, or a Kafka client's) and its resources' from `names`. */
export function tlsNames(
  names:
    | {
        clients?: Record<string, string>;
        kafkaClients?: Record<string, string>;
        resources?: Record<string, string>;
      }
    | undefined,
  client: string,
  record: 'clients' | 'kafkaClients' = 'clients',
): TlsNames {
  return { client: names?.[record]?.[client] ?? client, resources: names?.resources };
}

/** The files of a `tls` client (undefined for udp and tcp), or the first problem found. Never throws. */
export function readSyslogTls(
  name: TlsNames,
  client: GraphSyslogClient,
  domain: string,
  source: TlsMaterialSource | undefined,
): SyslogTlsResult {
  if (client.protocol !== 'tls' || client.tls === undefined) return { files: undefined };
  const files: SyslogTlsFiles = {};
  for (const [setting, field, slot] of SETTINGS) {
    const file = client.tls[field];
    if (file === undefined) continue;
    try {
      if (source === undefined) throw Object.assign(new Error('no resources'), { code: 'ENORESOURCES' });
      files[slot] = source.readMountedFile(file, domain);
    } catch (error: unknown) {
      return problem(name, 'tls_unavailable', { setting, file }, `cannot be read (${codeOf(error)})`);
    }
  }
  return check(name, client, files);
}

/** Each file parses, and the certificate and key belong together. */
function check(name: TlsNames, client: GraphSyslogClient, files: SyslogTlsFiles): SyslogTlsResult {
  const tls = client.tls ?? {};
  const checks: [Setting, MountedFile | undefined, () => unknown, string][] = [
    ['tls_ca_file', tls.caFile, () => new X509Certificate(files.ca!), 'a PEM CA certificate'],
    ['tls_cert_file', tls.certFile, () => new X509Certificate(files.cert!), 'a PEM certificate'],
    [
      'tls_key_file',
      files.cert === undefined ? undefined : tls.keyFile,
      () => createSecureContext({ cert: files.cert, key: files.key }),
      'the PEM private key of tls_cert_file',
    ],
  ];
  for (const [setting, file, use, expected] of checks) {
    if (file === undefined) continue;
    try {
      use();
    } catch (error: unknown) {
      return problem(
        name,
        'tls_invalid',
        { setting, file },
        `cannot be used (${codeOf(error)}); expected ${expected}`,
      );
    }
  }
  return { files };
}

function problem(
  name: TlsNames,
  code: SyslogTlsProblem['code'],
  { setting, file }: { setting: Setting; file: MountedFile },
  reason: string,
): { problem: SyslogTlsProblem } {
  return {
    problem: mountedFileProblem(
      { what: `syslog client ${name.client}: TLS configuration failed`, names: name },
      code,
      { setting, file },
      reason,
    ),
  };
}

/**
 * Why a file of a client's mounted resource cannot be used: `what` (the client and what failed), the
 * setting, the file as statements write it, the resource version and the reason — never the file's content.
 */
export function mountedFileProblem<Code extends string>(
  { what, names: name }: { what: string; names: TlsNames },
  code: Code,
  { setting, file }: { setting: string; file: MountedFile },
  reason: string,
): { code: Code; message: string; cause: { setting: string; file: string; reason: string } } {
  const resources = name.resources;
  const resource =
    resources !== undefined && Object.hasOwn(resources, file.resource)
      ? (resources[file.resource] ?? file.resource)
      : file.resource;
  const label = `{{ ${resource} }}/${file.file}`;
  return {
    code,
    message: `${what}: ${setting} ${label} (resource ${resource} version ${file.version}) ${reason}`,
    cause: { setting, file: label, reason },
  };
}

/** The error's code, or its name: never its message, which may quote file content. */
export function codeOf(error: unknown): string {
  return errorCode(error, error instanceof Error ? error.name : 'unknown error');
}

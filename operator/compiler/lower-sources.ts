// Clients and ingestors lowered: addr split into host and port, sizes in bytes, defaults filled in
// (max_message_size 131072, octet-counting framing on tcp and tls), LATEST bound to a version number,
// and HTTP ingestors carrying their endpoint's hostnames, path and TLS inline.
import type {
  GraphHttpIngestor,
  GraphQuiesce,
  GraphSyslogClient,
  GraphSyslogIngestor,
  MountedFile,
} from '../../dataplane/graph/types.js';
import type { GraphObject } from '../api/index.js';
import type { Quiesce, ResourceVersionRef } from '../api/common.js';
import { DEFAULT_MAX_MESSAGE_SIZE } from '../api/kinds/syslog-client.js';
import { DEFAULT_MAX_BODY_SIZE } from '../api/kinds/http-ingestor.js';
import { sizeToBytes } from '../language/literals.js';
import { splitAddr } from './check-syslog-clients.js';
import type { CompileContext } from './context.js';
import { lowerRoutes } from './lower-routes.js';
import { bindVersion, parseMountedPath } from './resource-versions.js';

function mountVersion(ctx: CompileContext, mount: ResourceVersionRef | undefined): number | undefined {
  const version = mount === undefined ? undefined : bindVersion(ctx, mount);
  return typeof version === 'number' ? version : undefined;
}

function mountedFile(value: string | undefined, version: number | undefined): MountedFile | undefined {
  const path = value === undefined ? undefined : parseMountedPath(value);
  return path === undefined || version === undefined
    ? undefined
    : { resource: path.resource, version, file: path.file };
}

/** `{ a: X | undefined }` → `{ a?: X }`. */
type Defined<T> = { [K in keyof T as undefined extends T[K] ? never : K]: T[K] } & {
  [K in keyof T as undefined extends T[K] ? K : never]?: Exclude<T[K], undefined>;
};

/** Copies the defined entries only (the Graph never holds `undefined`). */
export function defined<T extends object>(entries: T): Defined<T> {
  return Object.fromEntries(Object.entries(entries).filter(([, value]) => value !== undefined)) as Defined<T>;
}

export function lowerClient(ctx: CompileContext, client: GraphObject<'SyslogClient'>): GraphSyslogClient {
  const { config, mount } = client.spec;
  const version = mountVersion(ctx, mount);
  const tls = defined({
    certFile: mountedFile(config.tlsCertFile, version),
    keyFile: mountedFile(config.tlsKeyFile, version),
    caFile: mountedFile(config.tlsCaFile, version),
  });
  return defined({
    protocol: config.protocol,
    ...splitAddr(config.addr),
    maxMessageSize: config.maxMessageSize ?? DEFAULT_MAX_MESSAGE_SIZE,
    framing: config.protocol === 'udp' ? undefined : (config.framing ?? 'octet-counting'),
    mount: mount && version !== undefined ? { resource: mount.resource, version } : undefined,
    tls: Object.keys(tls).length > 0 ? tls : undefined,
  });
}

export function lowerQuiesce(quiesce: Quiesce): GraphQuiesce {
  if (quiesce.action !== 'BUFFER') return { action: quiesce.action };
  return {
    action: 'BUFFER',
    maxBytes: sizeToBytes(quiesce.maxSize ?? '') ?? 1,
    onOverflow: quiesce.onOverflow ?? 'DROP_NEWEST',
  };
}

export function lowerHttpIngestor(
  ctx: CompileContext,
  ingestor: GraphObject<'HttpIngestor'>,
): GraphHttpIngestor | undefined {
  const endpoint = ctx.accepted('Endpoint', ingestor.spec.endpoint);
  const vhost = endpoint && ctx.accepted('Vhost', endpoint.spec.vhost);
  if (endpoint === undefined || vhost === undefined) return undefined;
  const { spec } = ingestor;
  return defined({
    endpoint: endpoint.metadata.name,
    vhost: vhost.metadata.name,
    hostnames: vhost.spec.hostnames,
    path: endpoint.spec.path,
    tls: vhostTls(ctx, vhost),
    mode: spec.mode,
    quiesce: lowerQuiesce(spec.quiesce),
    codec: spec.codec,
    maxBodyBytes: sizeToBytes(spec.maxBodySize ?? DEFAULT_MAX_BODY_SIZE) ?? 1,
    routes: lowerRoutes(ctx, ingestor),
    onGeneralError: spec.onGeneralError,
  });
}

function vhostTls(ctx: CompileContext, vhost: GraphObject<'Vhost'>): GraphHttpIngestor['tls'] {
  const tls = vhost.spec.tls;
  if (tls === undefined) return undefined;
  if (tls.secretName !== undefined) return { secretName: tls.secretName };
  const version = mountVersion(ctx, tls.mount);
  const certFile = mountedFile(tls.certFile, version);
  const keyFile = mountedFile(tls.keyFile, version);
  return certFile && keyFile ? { certFile, keyFile } : undefined;
}

export function lowerSyslogIngestor(
  ctx: CompileContext,
  ingestor: GraphObject<'SyslogIngestor'>,
): GraphSyslogIngestor {
  const { spec } = ingestor;
  return {
    client: spec.client,
    mode: spec.mode,
    quiesce: lowerQuiesce(spec.quiesce),
    codec: spec.codec,
    routes: lowerRoutes(ctx, ingestor),
    onGeneralError: spec.onGeneralError,
  };
}

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
import { sizeToBytes } from '../api/literals.js';
import { splitAddr } from './check-syslog-clients.js';
import type { CompileContext } from './context.js';
import { required } from './internal-error.js';
import { lowerRoutes } from './lower-routes.js';
import { bindVersion, parseMountedPath } from './resource-versions.js';

/** The bound version of an accepted object's mount (SR2064 rejects one that cannot be bound). */
export function mountVersion(
  ctx: CompileContext,
  object: GraphObject,
  mount: ResourceVersionRef | undefined,
): number | undefined {
  if (mount === undefined) return undefined;
  const version = bindVersion(ctx, mount);
  return required(typeof version === 'number' ? version : undefined, object, 'its mounted version');
}

/** A TLS file of an accepted object: written `{{ <mount> }}/<file>` with a bound version (SR2036, SR2064). */
export function mountedFile(
  object: GraphObject,
  value: string | undefined,
  version: number | undefined,
): MountedFile | undefined {
  if (value === undefined) return undefined;
  const { resource, file } = required(parseMountedPath(value), object, `the mounted file of ${value}`);
  return { resource, version: required(version, object, 'the version of its mount'), file };
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
  const version = mountVersion(ctx, client, mount);
  const tls = defined({
    certFile: mountedFile(client, config.tlsCertFile, version),
    keyFile: mountedFile(client, config.tlsKeyFile, version),
    caFile: mountedFile(client, config.tlsCaFile, version),
  });
  return defined({
    protocol: config.protocol,
    ...splitAddr(config.addr),
    maxMessageSize: config.maxMessageSize ?? DEFAULT_MAX_MESSAGE_SIZE,
    framing: config.protocol === 'udp' ? undefined : (config.framing ?? 'octet-counting'),
    mount: mount && { resource: mount.resource, version: required(version, client, 'its mounted version') },
    tls: Object.keys(tls).length > 0 ? tls : undefined,
  });
}

/** A size the checks accepted (SR1004 otherwise), in bytes. */
function bytes(text: string, object: GraphObject): number {
  return required(sizeToBytes(text), object, `the bytes of size ${text}`);
}

export function lowerQuiesce(quiesce: Quiesce, object: GraphObject): GraphQuiesce {
  if (quiesce.action !== 'BUFFER') return { action: quiesce.action };
  return {
    action: 'BUFFER',
    maxBytes: bytes(required(quiesce.maxSize, object, 'its BUFFER MAX SIZE'), object),
    onOverflow: quiesce.onOverflow ?? 'DROP_NEWEST',
  };
}

export function lowerHttpIngestor(
  ctx: CompileContext,
  ingestor: GraphObject<'HttpIngestor'>,
): GraphHttpIngestor {
  const { spec } = ingestor;
  const endpoint = required(ctx.accepted('Endpoint', spec.endpoint), ingestor, `endpoint ${spec.endpoint}`);
  const vhostName = endpoint.spec.vhost;
  const vhost = required(ctx.accepted('Vhost', vhostName), ingestor, `vhost ${vhostName}`);
  return defined({
    endpoint: endpoint.metadata.name,
    vhost: vhost.metadata.name,
    hostnames: vhost.spec.hostnames,
    path: endpoint.spec.path,
    tls: vhostTls(ctx, vhost),
    mode: spec.mode,
    quiesce: lowerQuiesce(spec.quiesce, ingestor),
    codec: spec.codec,
    maxBodyBytes: bytes(spec.maxBodySize ?? DEFAULT_MAX_BODY_SIZE, ingestor),
    routes: lowerRoutes(ctx, ingestor),
    onGeneralError: spec.onGeneralError,
  });
}

function vhostTls(ctx: CompileContext, vhost: GraphObject<'Vhost'>): GraphHttpIngestor['tls'] {
  const tls = vhost.spec.tls;
  if (tls === undefined) return undefined;
  if (tls.secretName !== undefined) return { secretName: tls.secretName };
  const version = mountVersion(ctx, vhost, tls.mount);
  const certFile = mountedFile(vhost, tls.certFile, version);
  const keyFile = mountedFile(vhost, tls.keyFile, version);
  return {
    certFile: required(certFile, vhost, 'its tls_cert_file'),
    keyFile: required(keyFile, vhost, 'its tls_key_file'),
  };
}

export function lowerSyslogIngestor(
  ctx: CompileContext,
  ingestor: GraphObject<'SyslogIngestor'>,
): GraphSyslogIngestor {
  const { spec } = ingestor;
  return {
    client: spec.client,
    mode: spec.mode,
    quiesce: lowerQuiesce(spec.quiesce, ingestor),
    codec: spec.codec,
    routes: lowerRoutes(ctx, ingestor),
    onGeneralError: spec.onGeneralError,
  };
}

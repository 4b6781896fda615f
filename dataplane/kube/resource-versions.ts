// The files a graph mounts, held in memory: each resource version (`streamroute-resource-<r>-v<N>`, an
// immutable ConfigMap, or a Secret when a file holds a private key) is read once and kept, and the
// kubernetes.io/tls Secrets vhosts name are read with each graph version that names them. The cache is
// the DataPlane's TlsMaterialSource: reads are synchronous, so everything is fetched before `apply`.
// Errors and logs name resources, versions and paths — never file contents.
import { ANNOTATION_FILES, resourceFileKey } from './contract.js';
import type { KubeObject } from '../kube-client/list-watch.js';

/** A resource version a graph mounts. */
export interface ResourceRef {
  resource: string;
  version: number;
}

/** What a graph needs read before it can run: resource versions, and TLS Secrets by name. */
export interface GraphMounts {
  resources: ResourceRef[];
  secrets: string[];
}

/** A ConfigMap or Secret as the API returns it (Secret `data` is base64; ConfigMap `data` is text). */
export interface DataObject extends KubeObject {
  type?: string;
  data?: Record<string, string>;
  binaryData?: Record<string, string>;
}

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The object values of a record (entries that are not objects are skipped). */
function entries(record: unknown): Json[] {
  return isObject(record) ? Object.values(record).filter(isObject) : [];
}

function refOf(value: unknown): ResourceRef | undefined {
  if (!isObject(value)) return undefined;
  const { resource, version } = value;
  return typeof resource === 'string' && Number.isSafeInteger(version)
    ? { resource, version: version as number }
    : undefined;
}

/**
 * Every resource version the graph JSON mounts (clients' `mount` and TLS files, vhosts' TLS files) and
 * every Secret a vhost names. Reads the JSON defensively: the loader checks it afterwards.
 */
export function mountsOf(graph: unknown): GraphMounts {
  const resources = new Map<string, ResourceRef>();
  const secrets = new Set<string>();
  const add = (value: unknown): void => {
    const ref = refOf(value);
    if (ref !== undefined) resources.set(`${ref.resource}@${ref.version}`, ref);
  };
  const json = isObject(graph) ? graph : {};
  for (const client of entries(json.clients)) {
    add(client.mount);
    const tls = isObject(client.tls) ? client.tls : {};
    for (const file of [tls.certFile, tls.keyFile, tls.caFile]) add(file);
  }
  for (const ingestor of entries(json.httpIngestors)) {
    const tls = isObject(ingestor.tls) ? ingestor.tls : {};
    if (typeof tls.secretName === 'string') secrets.add(tls.secretName);
    for (const file of [tls.certFile, tls.keyFile]) add(file);
  }
  return { resources: [...resources.values()], secrets: [...secrets] };
}

/** The files of a resource-version object by path; throws naming the object when it is malformed. */
export function decodeResourceVersion(object: DataObject, kind: 'ConfigMap' | 'Secret'): Map<string, Buffer> {
  const what = `${kind} ${object.metadata.namespace ?? ''}/${object.metadata.name}`;
  let paths: unknown;
  try {
    paths = JSON.parse(object.metadata.annotations?.[ANNOTATION_FILES] ?? 'null');
  } catch {
    paths = undefined;
  }
  if (!Array.isArray(paths) || !paths.every((path) => typeof path === 'string'))
    throw new Error(`${what}: annotation ${ANNOTATION_FILES} is not a JSON array of paths`);
  const files = new Map<string, Buffer>();
  paths.forEach((path: string, index) => {
    const key = resourceFileKey(index);
    const text = object.data?.[key];
    const binary = object.binaryData?.[key];
    if (kind === 'Secret' && text !== undefined) files.set(path, Buffer.from(text, 'base64'));
    else if (text !== undefined) files.set(path, Buffer.from(text, 'utf8'));
    else if (binary !== undefined) files.set(path, Buffer.from(binary, 'base64'));
    else throw new Error(`${what} has no key ${key} (file ${path})`);
  });
  return files;
}

/** `tls.crt` and `tls.key` of a kubernetes.io/tls Secret; throws naming the Secret when one is missing. */
export function decodeTlsSecret(object: DataObject): { cert: Buffer; key: Buffer } {
  const what = `Secret ${object.metadata.namespace ?? ''}/${object.metadata.name}`;
  const cert = object.data?.['tls.crt'];
  const key = object.data?.['tls.key'];
  if (cert === undefined || key === undefined) throw new Error(`${what} has no tls.crt and tls.key`);
  return { cert: Buffer.from(cert, 'base64'), key: Buffer.from(key, 'base64') };
}

const notFound = (message: string): Error => Object.assign(new Error(message), { code: 'ENOENT' });

/** The files and Secrets read so far, by domain; the DataPlane's TlsMaterialSource. */
export class ResourceCache {
  readonly #versions = new Map<string, Map<string, Buffer>>();
  readonly #secrets = new Map<string, { cert: Buffer; key: Buffer }>();

  static versionKey(domain: string, ref: ResourceRef): string {
    return `${domain}/${ref.resource}@${ref.version}`;
  }

  hasVersion(domain: string, ref: ResourceRef): boolean {
    return this.#versions.has(ResourceCache.versionKey(domain, ref));
  }

  putVersion(domain: string, ref: ResourceRef, files: Map<string, Buffer>): void {
    this.#versions.set(ResourceCache.versionKey(domain, ref), files);
  }

  putSecret(domain: string, name: string, material: { cert: Buffer; key: Buffer }): void {
    this.#secrets.set(`${domain}/${name}`, material);
  }

  /** Forgets what a removed domain held. */
  dropDomain(domain: string): void {
    for (const key of [...this.#versions.keys(), ...this.#secrets.keys()]) {
      if (!key.startsWith(`${domain}/`)) continue;
      this.#versions.delete(key);
      this.#secrets.delete(key);
    }
  }

  /** Total bytes held (logged with loads). */
  get bytes(): number {
    let total = 0;
    for (const files of this.#versions.values()) for (const file of files.values()) total += file.length;
    return total;
  }

  readMountedFile(file: { resource: string; version: number; file: string }, domain: string): Buffer {
    const files = this.#versions.get(ResourceCache.versionKey(domain, file));
    const what = `resource ${file.resource} version ${file.version} of domain ${domain}`;
    if (files === undefined) throw notFound(`${what} has not been read (missing or not yet published)`);
    const bytes = files.get(file.file);
    if (bytes === undefined) throw notFound(`${what} has no file ${file.file}`);
    return bytes;
  }

  readSecret(name: string, domain: string): { cert: Buffer; key: Buffer } {
    const material = this.#secrets.get(`${domain}/${name}`);
    if (material === undefined) throw notFound(`Secret ${domain}/${name} has not been read`);
    return material;
  }
}

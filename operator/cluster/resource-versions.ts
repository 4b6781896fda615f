// UPLOAD RESOURCE on a cluster (decision 0015): each version is an immutable ConfigMap — a Secret when a
// file holds a PEM private key — named `streamroute-resource-<r>-v<N>`, labelled with the resource and the
// version, its paths in the `streamroute.io/files` annotation and file i under key `file-<i>` (binaryData
// when it is not UTF-8). Pure: building the object, choosing N, and reading versions for the compiler.
import { createHash } from 'node:crypto';
import { resourceVersionIndex } from '../controller/resource-files.js';
import type { ResourceFiles } from '../compiler/index.js';
import {
  ANNOTATION_FILES,
  ANNOTATION_SHA256,
  LABEL_RESOURCE,
  LABEL_RESOURCE_VERSION,
  MANAGED_BY,
  resourceFileKey,
  resourceVersionObjectName,
} from '../../dataplane/kube/contract.js';
import type { VersionObject } from './cluster-objects.js';

export interface VersionFile {
  path: string;
  content: Buffer;
}

const PRIVATE_KEY = /-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----/;
/** Key stores and key files that are binary (DER, PKCS#12, Java key stores) go by their name. */
const KEY_FILE = /\.(?:key|p12|pfx|jks|keystore|p8)$/i;
/**
 * Passwords (a Kafka client's `sasl_password_file`, docs/language.md, "Kafka clients") have no format to
 * recognise, so they go by their name: a file whose name holds `password`, `passwd` or `secret`.
 */
const SECRET_FILE = /(?:password|passwd|secret)[^/]*$/i;

/**
 * Whether any file holds private key material or a password: a PEM private key block (`PRIVATE KEY`,
 * `RSA PRIVATE KEY`, `EC PRIVATE KEY`, `ENCRYPTED PRIVATE KEY`, `PGP PRIVATE KEY BLOCK`, …), or a key
 * file or password file by its name.
 */
export function holdsPrivateKey(files: readonly VersionFile[]): boolean {
  return files.some(
    (file) =>
      KEY_FILE.test(file.path) ||
      SECRET_FILE.test(file.path) ||
      PRIVATE_KEY.test(file.content.toString('latin1')),
  );
}

/** The version number of a resource-version object, from its label; undefined when it has none. */
export function versionOf(object: VersionObject): number | undefined {
  const text = object.object.metadata.labels?.[LABEL_RESOURCE_VERSION] ?? '';
  return /^[1-9][0-9]{0,9}$/.test(text) ? Number(text) : undefined;
}

/** The next version after the highest existing one (the first is 1). */
export function nextVersion(objects: readonly VersionObject[]): number {
  return Math.max(0, ...objects.map((object) => versionOf(object) ?? 0)) + 1;
}

/** The highest version of each resource. */
export function latestVersions(objects: readonly VersionObject[]): Map<string, number> {
  const latest = new Map<string, number>();
  for (const object of objects) {
    const resource = object.object.metadata.labels?.[LABEL_RESOURCE];
    const version = versionOf(object);
    if (resource === undefined || version === undefined) continue;
    latest.set(resource, Math.max(version, latest.get(resource) ?? 0));
  }
  return latest;
}

/** Over every path and its bytes, in path order (as the embedded node's resource store hashes). */
export function digestFiles(files: readonly VersionFile[]): string {
  const hash = createHash('sha256');
  for (const file of [...files].sort((a, b) => (a.path < b.path ? -1 : 1))) {
    hash.update(`${file.path}\0${file.content.length}\0`);
    hash.update(file.content);
  }
  return hash.digest('hex');
}

function isUtf8(bytes: Buffer): boolean {
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return true;
  } catch {
    return false;
  }
}

/** The immutable object holding version `version` of `resource`. */
export function buildVersionObject(
  namespace: string,
  resource: string,
  version: number,
  files: readonly VersionFile[],
): Record<string, unknown> {
  const secret = holdsPrivateKey(files);
  const metadata = {
    name: resourceVersionObjectName(resource, version),
    namespace,
    labels: { ...MANAGED_BY, [LABEL_RESOURCE]: resource, [LABEL_RESOURCE_VERSION]: String(version) },
    annotations: {
      [ANNOTATION_FILES]: JSON.stringify(files.map((file) => file.path)),
      [ANNOTATION_SHA256]: digestFiles(files),
    },
  };
  const data: Record<string, string> = {};
  const binaryData: Record<string, string> = {};
  files.forEach((file, index) => {
    const key = resourceFileKey(index);
    if (secret) data[key] = file.content.toString('base64');
    else if (isUtf8(file.content)) data[key] = file.content.toString('utf8');
    else binaryData[key] = file.content.toString('base64');
  });
  if (secret) return { apiVersion: 'v1', kind: 'Secret', type: 'Opaque', metadata, immutable: true, data };
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata,
    immutable: true,
    data,
    ...(Object.keys(binaryData).length === 0 ? {} : { binaryData }),
  };
}

/**
 * Versions as the compiler reads them — the operator's own index (controller/resource-files.ts), so the
 * CLI and the operator judge mounts and protobuf files alike (a Secret's files exist, with no content:
 * key material is never read) — plus the uploads this script is about to make.
 */
export function resourceFilesOf(
  objects: readonly VersionObject[],
  pending: ReadonlyMap<string, { version: number; files: readonly VersionFile[] }> = new Map(),
): ResourceFiles {
  const index = resourceVersionIndex(objects.map(({ kind, object }) => ({ ...object, kind })));
  const uploads = new Map(
    [...pending].map(([resource, upload]) => [
      `${resource}@${upload.version}`,
      textOf(new Map(upload.files.map((f) => [f.path, f.content]))),
    ]),
  );
  return {
    latestVersion: (resource) =>
      Math.max(pending.get(resource)?.version ?? 0, index.latestVersion(resource) ?? 0) || undefined,
    files: (resource, version) => uploads.get(`${resource}@${version}`) ?? index.files(resource, version),
  };
}

function textOf(files: ReadonlyMap<string, Buffer>): Map<string, string> {
  return new Map([...files].map(([path, bytes]) => [path, bytes.toString('utf8')]));
}

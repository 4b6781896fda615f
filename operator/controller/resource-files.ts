// Uploaded resource versions as the compiler and the Resource status see them, from the domain's
// version objects (docs/decisions/0015-kubernetes-objects.md): a ConfigMap carries its files (`file-<i>`,
// paths in the `streamroute.io/files` annotation); a Secret is known by its metadata only, so its paths
// exist with empty content — enough for the compiler's mount checks, never key material.
import {
  ANNOTATION_FILES,
  ANNOTATION_SHA256,
  LABEL_RESOURCE,
  LABEL_RESOURCE_VERSION,
  resourceFileKey,
} from '../../dataplane/kube/contract.js';
import type { KubeObject } from '../../dataplane/kube-client/list-watch.js';
import type { ResourceFiles } from '../compiler/index.js';

interface DataObject extends KubeObject {
  type?: string;
  data?: Record<string, string>;
  binaryData?: Record<string, string>;
}

/** One uploaded version, as Resource `status.versions` lists it. */
export interface UploadedVersion {
  version: number;
  objectKind: 'ConfigMap' | 'Secret';
  objectName: string;
  files: string[];
  sha256: string;
  uploadedAt: string;
}

export interface ResourceVersionIndex extends ResourceFiles {
  /** Every version of a resource, oldest first. */
  versions(resource: string): UploadedVersion[];
}

const EPOCH = '1970-01-01T00:00:00Z';

function isSecret(object: DataObject): boolean {
  return object.kind === 'Secret' || object.kind === 'PartialObjectMetadata' || object.type !== undefined;
}

function pathsOf(object: KubeObject): string[] {
  try {
    const paths: unknown = JSON.parse(object.metadata.annotations?.[ANNOTATION_FILES] ?? '[]');
    return Array.isArray(paths) ? paths.filter((path): path is string => typeof path === 'string') : [];
  } catch {
    return [];
  }
}

function contentsOf(object: DataObject, paths: readonly string[]): Map<string, string> {
  const secret = isSecret(object);
  const files = new Map<string, string>();
  paths.forEach((path, index) => {
    const key = resourceFileKey(index);
    if (secret) files.set(path, '');
    else if (object.data?.[key] !== undefined) files.set(path, object.data[key]);
    else if (object.binaryData?.[key] !== undefined)
      files.set(path, Buffer.from(object.binaryData[key], 'base64').toString('utf8'));
  });
  return files;
}

function labelsOf(object: KubeObject): { resource: string | undefined; version: number } {
  const labels = object.metadata.labels ?? {};
  const version = Number(labels[LABEL_RESOURCE_VERSION]);
  const valid = Number.isSafeInteger(version) && version >= 1;
  return { resource: valid ? labels[LABEL_RESOURCE] : undefined, version };
}

function uploadedVersion(object: DataObject, version: number): UploadedVersion {
  return {
    version,
    objectKind: isSecret(object) ? 'Secret' : 'ConfigMap',
    objectName: object.metadata.name,
    files: pathsOf(object),
    sha256: object.metadata.annotations?.[ANNOTATION_SHA256] ?? '',
    uploadedAt: object.metadata.creationTimestamp ?? EPOCH,
  };
}

/** The versions and files of every resource of the domain; objects without valid labels are ignored. */
export function resourceVersionIndex(objects: readonly KubeObject[]): ResourceVersionIndex {
  const byResource = new Map<string, Map<number, { meta: UploadedVersion; files: Map<string, string> }>>();
  for (const object of objects as readonly DataObject[]) {
    const { resource, version } = labelsOf(object);
    if (resource === undefined) continue;
    const meta = uploadedVersion(object, version);
    const paths = meta.files;
    let versions = byResource.get(resource);
    if (versions === undefined) {
      versions = new Map();
      byResource.set(resource, versions);
    }
    versions.set(version, { meta, files: contentsOf(object, paths) });
  }
  return {
    latestVersion: (resource) => {
      const versions = byResource.get(resource);
      return versions === undefined || versions.size === 0 ? undefined : Math.max(...versions.keys());
    },
    files: (resource, version) => byResource.get(resource)?.get(version)?.files,
    versions: (resource) =>
      [...(byResource.get(resource)?.values() ?? [])]
        .map((v) => v.meta)
        .sort((a, b) => a.version - b.version),
  };
}

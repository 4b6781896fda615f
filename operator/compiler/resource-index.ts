// What the compiler knows about uploaded resource versions: the files the caller hands in (CLI
// `--resource`, the controller's view of the version objects) and, failing that, the Resource objects'
// status (version numbers and file names, no contents).
import { isPlainObject } from '../api/validate.js';
import type { ResourceFiles } from './index.js';

export interface ResourceIndex {
  /** The highest uploaded version, if any is known. */
  latest(resource: string): number | undefined;
  /** Whether anything at all is known about the resource's versions. */
  knows(resource: string): boolean;
  /** Whether the version is known to exist; undefined when nothing is known about the resource. */
  hasVersion(resource: string, version: number): boolean | undefined;
  /** File names of a version, when known. */
  fileNames(resource: string, version: number): ReadonlySet<string> | undefined;
  /** File contents of a version, when the caller handed them in. */
  files(resource: string, version: number): ReadonlyMap<string, string> | undefined;
}

interface StatusVersions {
  latest: number | undefined;
  versions: Map<number, Set<string>>;
}

/**
 * `objects` may hold anything the caller was given; only well-formed Resource objects of the domain (no
 * namespace, or the domain's) are read.
 */
export function resourceIndex(
  objects: readonly unknown[],
  domain: string,
  given?: ResourceFiles,
): ResourceIndex {
  const fromStatus = new Map<string, StatusVersions>();
  for (const object of objects) {
    if (!isPlainObject(object) || object.kind !== 'Resource') continue;
    const { metadata } = object;
    if (!isPlainObject(metadata) || typeof metadata.name !== 'string') continue;
    if (metadata.namespace !== undefined && metadata.namespace !== domain) continue;
    fromStatus.set(metadata.name, statusVersions(object.status));
  }
  const statusOf = (resource: string): StatusVersions | undefined => fromStatus.get(resource);
  const latest = (resource: string): number | undefined =>
    given?.latestVersion(resource) ?? statusOf(resource)?.latest;
  return {
    latest,
    knows: (resource) => latest(resource) !== undefined,
    hasVersion: (resource, version) => {
      if (given?.files(resource, version) !== undefined) return true;
      const status = statusOf(resource);
      if (status?.versions.has(version) === true) return true;
      if (status?.versions.size === 0 && version <= (status.latest ?? 0)) return true;
      return latest(resource) === undefined ? undefined : false;
    },
    fileNames: (resource, version) => {
      const files = given?.files(resource, version);
      return files ? new Set(files.keys()) : statusOf(resource)?.versions.get(version);
    },
    files: (resource, version) => given?.files(resource, version),
  };
}

/** Reads `status.latestVersion` and `status.versions[].files` defensively (it comes from the API server). */
function statusVersions(status: unknown): StatusVersions {
  const found: StatusVersions = { latest: undefined, versions: new Map() };
  if (!isPlainObject(status)) return found;
  if (Number.isInteger(status.latestVersion)) found.latest = status.latestVersion as number;
  const versions = Array.isArray(status.versions) ? (status.versions as unknown[]) : [];
  for (const version of versions) {
    if (!isPlainObject(version) || !Number.isInteger(version.version)) continue;
    const files = Array.isArray(version.files) ? version.files.filter((f) => typeof f === 'string') : [];
    found.versions.set(version.version as number, new Set(files));
  }
  if (found.latest === undefined && found.versions.size > 0)
    found.latest = Math.max(...found.versions.keys());
  return found;
}

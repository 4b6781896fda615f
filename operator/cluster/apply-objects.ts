// Writing a planned change: server-side apply of each object (field manager `streamroute`, forced, so
// the CLI takes over fields another manager set), DELETE for drops, and the create of a resource version
// that retries with the next number when another upload took it (409). Each write prints one line, as the
// embedded node's replies do: `created relay orders`, `configured …`, `unchanged …`, `deleted …`.
import type { GraphObject } from '../api/index.js';
import { pluralOf } from '../controller/cluster-objects.js';
import type { ObjectKey } from '../diagnostics/diagnostic.js';
import { displayName } from '../api/display-names.js';
import { FIELD_MANAGER, corePath, customPath } from '../../dataplane/kube/contract.js';
import { isStatus, type KubeApi } from '../../dataplane/kube-client/kube-api.js';
import { KIND_WORDS } from '../node/statement-tag.js';
import { canonicalJson } from '../api/canonical-json.js';
import { idOf, type ListedObject } from './cluster-objects.js';
import { buildVersionObject, type VersionFile } from './resource-versions.js';

export type ApplyResult = 'created' | 'configured' | 'unchanged';

/** `relay orders`, `http endpoint ingestor Orders_In` (an object by its display name, decision 0025). */
export function objectWords(
  key: ObjectKey | { kind: string; metadata: { name: string; annotations?: Record<string, string> } },
): string {
  const word = (KIND_WORDS as Record<string, string>)[key.kind] ?? key.kind;
  const name = 'metadata' in key ? displayName(key) : (key.display ?? key.name);
  return `${word.toLowerCase()} ${name}`;
}

/** Created (not listed before), unchanged (same spec), or configured. */
export function applyResult(object: GraphObject, before: ListedObject | undefined): ApplyResult {
  if (before === undefined) return 'created';
  return canonicalJson(before.spec) === canonicalJson(object.spec) ? 'unchanged' : 'configured';
}

/** The server-side apply body: what the CLI owns of the object, nothing the server writes. */
export function applyBody(object: GraphObject, namespace: string): Record<string, unknown> {
  const { name, labels, annotations } = object.metadata;
  const metadata = {
    name,
    namespace,
    ...(labels === undefined ? {} : { labels }),
    ...(annotations === undefined ? {} : { annotations }),
  };
  return { apiVersion: object.apiVersion, kind: object.kind, metadata, spec: object.spec };
}

export async function applyObject(api: KubeApi, namespace: string, object: GraphObject): Promise<void> {
  await api.request({
    method: 'PATCH',
    path: customPath(pluralOf(object.kind), namespace, object.metadata.name),
    query: { fieldManager: FIELD_MANAGER, force: true },
    contentType: 'application/apply-patch+yaml',
    body: applyBody(object, namespace),
  });
}

/** Deletes the object; false when it was already gone. */
export async function deleteObject(api: KubeApi, namespace: string, key: ObjectKey): Promise<boolean> {
  try {
    await api.request({ method: 'DELETE', path: customPath(pluralOf(key.kind), namespace, key.name) });
    return true;
  } catch (error: unknown) {
    if (isStatus(error, 404)) return false;
    throw error;
  }
}

const MAX_VERSION_ATTEMPTS = 20;

/** Creates version `first` of the resource, or the next free one after a 409; returns the number. */
export async function createVersion(
  api: KubeApi,
  namespace: string,
  upload: { resource: string; files: readonly VersionFile[]; first: number },
): Promise<number> {
  for (let version = upload.first; version < upload.first + MAX_VERSION_ATTEMPTS; version++) {
    const body = buildVersionObject(namespace, upload.resource, version, upload.files);
    const plural = body['kind'] === 'Secret' ? 'secrets' : 'configmaps';
    try {
      await api.request({ method: 'POST', path: corePath(plural, namespace), body });
      return version;
    } catch (error: unknown) {
      if (!isStatus(error, 409)) throw error;
    }
  }
  throw new Error(
    `resource ${upload.resource}: versions ${upload.first}–${upload.first + MAX_VERSION_ATTEMPTS - 1} are all taken`,
  );
}

export { idOf };

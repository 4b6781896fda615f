// `streamroute apply|diff -f DIR|FILE`: the files read with the CLI's loader (statements and resource
// YAML alike, as the embedded node reads --manifests), placed in the command's namespace, and compared
// with what the namespace holds: each object is created, changed or unchanged, and every object the
// namespace holds that the files do not is a candidate for pruning (shown, never deleted).
import type { GraphObject } from '../api/index.js';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import { canonicalJson } from '../api/canonical-json.js';
import { bindLatest } from '../compiler/bind-latest.js';
import { loadInputs, type LoadedInputs } from '../language/inputs.js';
import { idOf, toGraphObject, type DomainObjects, type ListedObject } from './cluster-objects.js';
import { latestVersions } from './resource-versions.js';

export interface LoadedManifests {
  loaded: LoadedInputs;
  /** The objects to apply: in the namespace, `VERSION LATEST` bound to the namespace's latest. */
  objects: GraphObject[];
  /** Problems of the files themselves (and objects placed in another namespace). */
  diagnostics: Diagnostic[];
}

export function loadManifests(paths: readonly string[], namespace: string): LoadedManifests {
  const loaded = loadInputs(paths);
  const diagnostics = [...loaded.diagnostics];
  const objects = loaded.objects.map((object) => {
    const copy = structuredClone(object);
    const own = copy.metadata.namespace;
    if (own !== undefined && own !== namespace) {
      const message = `is in namespace ${own}, but this command works in ${namespace} (-d ${own}, or remove metadata.namespace)`;
      diagnostics.push({
        code: 'SR1017',
        severity: 'error',
        message,
        object: { kind: copy.kind, name: copy.metadata.name },
        path: 'metadata.namespace',
      });
    }
    copy.metadata.namespace = namespace;
    return copy;
  });
  return { loaded, objects, diagnostics };
}

/** The objects with LATEST bound to the namespace's highest versions. */
export function bindToDomain(objects: readonly GraphObject[], domain: DomainObjects): GraphObject[] {
  const latest = latestVersions(domain.versions);
  return objects.map((object) => bindLatest(object, (resource) => latest.get(resource)));
}

export type Comparison =
  | { change: 'created'; object: GraphObject }
  | { change: 'changed' | 'unchanged'; object: GraphObject; before: ListedObject }
  | { change: 'prune-candidate'; before: ListedObject };

/** Each object against the namespace, then the namespace's objects the files do not declare. */
export function compareWithDomain(objects: readonly GraphObject[], domain: DomainObjects): Comparison[] {
  const declared = new Set(objects.map(idOf));
  const compared: Comparison[] = objects.map((object) => {
    const before = domain.listed.get(idOf(object));
    if (before === undefined) return { change: 'created', object };
    const same = canonicalJson(before.spec) === canonicalJson(object.spec);
    return { change: same ? 'unchanged' : 'changed', object, before };
  });
  for (const [id, before] of domain.listed) {
    if (!declared.has(id)) compared.push({ change: 'prune-candidate', before });
  }
  return compared;
}

/** The namespace's objects with the files' objects in their place (or added). */
export function overlay(domain: DomainObjects, objects: readonly GraphObject[]): GraphObject[] {
  const merged = new Map<string, GraphObject>();
  for (const [id, listed] of domain.listed) merged.set(id, toGraphObject(listed));
  for (const object of objects) merged.set(idOf(object), object);
  return [...merged.values()];
}

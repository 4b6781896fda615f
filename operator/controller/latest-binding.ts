// `VERSION LATEST` in objects applied by kubectl (docs/language.md, "Resources"): bound to the highest
// uploaded version at the first reconcile that sees the object's generation, recorded in the object's
// `status.boundVersions`, and kept for that generation afterwards — a later upload does not move it; a new
// generation binds again. The CLI binds before it applies, so its objects carry numbers and need nothing
// here.
import type { GraphObject } from '../api/index.js';
import { bindLatest } from '../compiler/bind-latest.js';

export interface BoundVersion {
  resource: string;
  version: number;
  generation: number;
}

export interface Binding {
  /** The object with every LATEST it could bind replaced by a number. */
  object: GraphObject;
  /** What was bound for this generation (empty when the object names no LATEST). */
  bound: BoundVersion[];
}

/** The resources an object names `VERSION LATEST` of. */
export function latestRefs(object: GraphObject): string[] {
  const spec = (object.spec ?? {}) as Record<string, unknown>;
  const refs: unknown[] = [];
  if (object.kind === 'Codec') refs.push((spec.protobuf as { using?: unknown } | undefined)?.using);
  if (object.kind === 'Vhost') refs.push((spec.tls as { mount?: unknown } | undefined)?.mount);
  if (object.kind === 'SyslogClient' || object.kind === 'KafkaClient') refs.push(spec.mount);
  return refs
    .filter((ref): ref is { resource: string; version: unknown } => typeof ref === 'object' && ref !== null)
    .filter((ref) => ref.version === 'LATEST' && typeof ref.resource === 'string')
    .map((ref) => ref.resource);
}

/** Reads `status.boundVersions` defensively. */
export function recordedBindings(status: unknown): BoundVersion[] {
  const list = (status as { boundVersions?: unknown } | undefined)?.boundVersions;
  if (!Array.isArray(list)) return [];
  return list.filter(
    (item): item is BoundVersion =>
      typeof item === 'object' &&
      item !== null &&
      typeof (item as BoundVersion).resource === 'string' &&
      Number.isSafeInteger((item as BoundVersion).version) &&
      Number.isSafeInteger((item as BoundVersion).generation),
  );
}

/**
 * Binds the object's LATEST references: a binding recorded for its current generation wins; otherwise
 * the highest version known now. A resource with no version keeps LATEST (the compiler reports it).
 */
export function bindObject(
  object: GraphObject,
  recorded: readonly BoundVersion[],
  latestVersion: (resource: string) => number | undefined,
): Binding {
  const resources = latestRefs(object);
  if (resources.length === 0) return { object, bound: [] };
  const generation = object.metadata.generation ?? 0;
  const chosen = new Map<string, number>();
  for (const resource of resources) {
    const kept = recorded.find((b) => b.resource === resource && b.generation === generation);
    const version = kept?.version ?? latestVersion(resource);
    if (version !== undefined) chosen.set(resource, version);
  }
  const bound = [...chosen].map(([resource, version]) => ({ resource, version, generation }));
  return { object: bindLatest(object, (resource) => chosen.get(resource)), bound };
}

// `VERSION LATEST` in a statement is bound when the statement is applied: the highest completed version
// of the resource at that moment is stored in its place, and later uploads do not change it
// (docs/language.md, "Resources"). A resource with no version yet keeps LATEST, and the compiler reports that
// it cannot be bound.
import type { GraphObject } from '../api/index.js';
import type { ResourceVersionRef } from '../api/common.js';

/** A copy of the object with every `LATEST` it can bind replaced by the version number. */
export function bindLatest(
  object: GraphObject,
  latestVersion: (resource: string) => number | undefined,
): GraphObject {
  const copy = structuredClone(object);
  for (const ref of versionRefs(copy)) {
    if (ref.version !== 'LATEST') continue;
    const latest = latestVersion(ref.resource);
    if (latest !== undefined) ref.version = latest;
  }
  return copy;
}

/** The resource versions an object uses: a protobuf codec's resource, a vhost's or a client's mount. */
function versionRefs(object: GraphObject): ResourceVersionRef[] {
  switch (object.kind) {
    case 'Codec':
      return object.spec.protobuf === undefined ? [] : [object.spec.protobuf.using];
    case 'Vhost':
      return object.spec.tls?.mount === undefined ? [] : [object.spec.tls.mount];
    case 'SyslogClient':
    case 'KafkaClient':
      return object.spec.mount === undefined ? [] : [object.spec.mount];
    default:
      return [];
  }
}

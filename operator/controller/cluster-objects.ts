// Objects as the API server returns them, turned into what the compiler reads: apiVersion, kind, the
// identifying part of metadata and spec — never status, managedFields or other server-written fields.
import { isGraphKind, kindDefinition, type GraphObject } from '../api/index.js';
import type { ClusterObject } from './domain-snapshot.js';

/** `Kind/name`, as the compiler's verdicts are keyed. */
export function objectId(object: { kind: string; metadata: { name: string } }): string {
  return `${object.kind}/${object.metadata.name}`;
}

export function generationOf(object: ClusterObject): number {
  return object.metadata.generation ?? 0;
}

/** The compiler's input for one object read from the API (spec as given; status and bookkeeping dropped). */
export function toGraphObject(object: ClusterObject, spec: unknown = object.spec): GraphObject {
  const { name, namespace, labels, annotations, generation } = object.metadata;
  const metadata = {
    name,
    ...(namespace === undefined ? {} : { namespace }),
    ...(labels === undefined ? {} : { labels }),
    ...(annotations === undefined ? {} : { annotations }),
    ...(generation === undefined ? {} : { generation }),
  };
  return { apiVersion: object.apiVersion ?? '', kind: object.kind, metadata, spec } as GraphObject;
}

/** Only objects of the graph kinds take part in a domain (DataplaneNode and strangers are ignored). */
export function graphObjectsOf(objects: readonly ClusterObject[]): ClusterObject[] {
  return objects.filter((object) => isGraphKind(object.kind));
}

/** The plural an object's status subresource is addressed by. */
export function pluralOf(kind: string): string {
  const definition = kindDefinition(kind);
  if (definition === undefined) throw new Error(`unknown kind ${kind}`);
  return definition.plural;
}

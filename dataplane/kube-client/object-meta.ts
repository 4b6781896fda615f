// The metadata of a Kubernetes object as the API server sends and takes it in JSON, the one copy every
// part uses: the graph kinds (operator/api), the objects the reflector lists and watches, the ones the CLI
// lists and the operator's Lease. Field names and JSON types are those of the API's ObjectMeta
// (timestamps are RFC 3339 strings); only the fields streamroute reads or writes are here.
// docs/decisions/0017-object-meta.md says why this is our own type and not a package's.

export interface ObjectMeta {
  /** Required here: every object streamroute reads or writes is named (no `generateName`). */
  name: string;
  namespace?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  generation?: number;
  resourceVersion?: string;
  uid?: string;
  creationTimestamp?: string;
  deletionTimestamp?: string;
  /** Who applied which fields (server-side apply); the CLI shows the managers. */
  managedFields?: ManagedFieldsEntry[];
}

export interface ManagedFieldsEntry {
  manager?: string;
}

// What every resource kind declares: names for the API, the schema of its spec and status, and columns.
import { object, type Schema, type TypeOf } from './openapi.js';
import { statusProperties } from './common.js';

export interface PrinterColumn {
  name: string;
  type: 'string' | 'integer' | 'date' | 'boolean';
  jsonPath: string;
  description?: string;
  priority?: number;
}

export interface KindDefinition<Spec = unknown> {
  kind: string;
  plural: string;
  singular: string;
  shortNames: string[];
  scope: 'Namespaced' | 'Cluster';
  description: string;
  spec: Schema<Spec>;
  status: Schema<unknown>;
  printerColumns: PrinterColumn[];
}

export const acceptedColumn: PrinterColumn = {
  name: 'Accepted',
  type: 'string',
  jsonPath: '.status.conditions[?(@.type=="Accepted")].status',
};
export const reasonColumn: PrinterColumn = {
  name: 'Reason',
  type: 'string',
  jsonPath: '.status.conditions[?(@.type=="Accepted")].reason',
  priority: 1,
};
export const ageColumn: PrinterColumn = {
  name: 'Age',
  type: 'date',
  jsonPath: '.metadata.creationTimestamp',
};

export const defaultStatus = object(statusProperties, 'Observed state, written by the operator.');

export function defineKind<Spec>(
  definition: Omit<KindDefinition<Spec>, 'status' | 'scope'> &
    Partial<Pick<KindDefinition<Spec>, 'status' | 'scope'>>,
): KindDefinition<Spec> {
  return { scope: 'Namespaced', status: defaultStatus, ...definition };
}

export type SpecOf<D> = D extends KindDefinition<infer S> ? S : never;
export type { TypeOf };

// Fixture builders for the controller's unit tests: objects as the API server returns them.
import { API_VERSION } from '../api/index.js';
import type { ClusterObject } from './domain-snapshot.js';

export const DOMAIN = 'shop';

export function cluster(
  kind: string,
  name: string,
  spec: unknown,
  options: {
    generation?: number;
    annotations?: Record<string, string>;
    status?: Record<string, unknown>;
  } = {},
): ClusterObject {
  return {
    apiVersion: API_VERSION,
    kind,
    metadata: {
      name,
      namespace: DOMAIN,
      generation: options.generation ?? 1,
      uid: `uid-${kind}-${name}`,
      resourceVersion: '1',
      ...(options.annotations === undefined ? {} : { annotations: options.annotations }),
    },
    spec,
    ...(options.status === undefined ? {} : { status: options.status }),
  };
}

export const schema = (name = 'orders', generation = 1): ClusterObject =>
  cluster('Schema', name, { fields: [{ name: 'order_id', type: 'STRING' }] }, { generation });

export const relay = (name: string, schemaName = 'orders', generation = 1): ClusterObject =>
  cluster('Relay', name, { schema: schemaName, branching: 'UNBRANCHED' }, { generation });

// Builds a CustomResourceDefinition from a kind definition.
import { GROUP, VERSION } from './common.js';
import type { KindDefinition } from './kind.js';
import type { OpenApiSchema } from './openapi.js';

export interface CustomResourceDefinition {
  apiVersion: 'apiextensions.k8s.io/v1';
  kind: 'CustomResourceDefinition';
  metadata: { name: string; labels: Record<string, string> };
  spec: Record<string, unknown>;
}

export function crdFor(definition: KindDefinition): CustomResourceDefinition {
  const schema: OpenApiSchema = {
    type: 'object',
    description: definition.description,
    properties: {
      apiVersion: { type: 'string' },
      kind: { type: 'string' },
      metadata: { type: 'object' },
      spec: definition.spec.openapi,
      status: definition.status.openapi,
    },
    required: ['spec'],
  };
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: {
      name: `${definition.plural}.${GROUP}`,
      labels: { 'app.kubernetes.io/part-of': 'streamroute' },
    },
    spec: {
      group: GROUP,
      scope: definition.scope,
      names: {
        kind: definition.kind,
        listKind: `${definition.kind}List`,
        plural: definition.plural,
        singular: definition.singular,
        shortNames: definition.shortNames,
        categories: ['streamroute'],
      },
      versions: [
        {
          name: VERSION,
          served: true,
          storage: true,
          schema: { openAPIV3Schema: schema },
          subresources: { status: {} },
          additionalPrinterColumns: definition.printerColumns,
        },
      ],
    },
  };
}

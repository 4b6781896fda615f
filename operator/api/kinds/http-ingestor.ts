// HttpIngestor: POST bodies on an endpoint, decoded and routed to relays
// (docs/language.md, "HTTP endpoint ingestors"; docs/http-ingestion.md).
import {
  generalErrorPolicy,
  ingestMode,
  object,
  optional,
  quiesce,
  ref,
  routes,
  rules,
  size,
} from '../dsl.js';
import { defineKind } from '../kind.js';
import { runtimeColumns, runtimeStatus } from './ingestor-status.js';

export const DEFAULT_MAX_BODY_SIZE = '1MiB';

export const httpIngestorKind = defineKind({
  kind: 'HttpIngestor',
  plural: 'httpingestors',
  singular: 'httpingestor',
  shortNames: ['hing'],
  description: 'CREATE HTTP ENDPOINT INGESTOR: decodes POST bodies on an endpoint and routes the records.',
  spec: object(
    {
      endpoint: ref('Endpoint of TYPE HTTP'),
      mode: ingestMode,
      quiesce: rules(quiesce, [
        {
          rule: "self.action != 'SUSPEND'",
          message: 'an HTTP ingestor quiesces with BUFFER or DROP, not SUSPEND',
          fieldPath: '.action',
          holds: (self) => self.action !== 'SUSPEND',
        },
      ]),
      codec: ref('Codec that decodes each body'),
      maxBodySize: optional(
        size(`Largest accepted body; larger ones get 413 (default ${DEFAULT_MAX_BODY_SIZE}).`),
      ),
      routes,
      onGeneralError: generalErrorPolicy,
    },
    'An HTTP endpoint ingestor.',
  ),
  status: runtimeStatus,
  printerColumns: [
    { name: 'Endpoint', type: 'string', jsonPath: '.spec.endpoint' },
    { name: 'Codec', type: 'string', jsonPath: '.spec.codec' },
    ...runtimeColumns,
  ],
});

// Endpoint: a path on a vhost (docs/language.md, "Vhosts and endpoints").
import { object, oneOf, ref, str } from '../dsl.js';
import { acceptedColumn, ageColumn, defineKind, reasonColumn } from '../kind.js';

export const endpointKind = defineKind({
  kind: 'Endpoint',
  plural: 'endpoints',
  singular: 'endpoint',
  shortNames: ['srep'],
  description: 'CREATE ENDPOINT: a path on a vhost that an HTTP ingestor reads.',
  spec: object(
    {
      vhost: ref('Vhost'),
      path: str('Request path, starting with /.', { pattern: '^/[^?#\\s]*$', maxLength: 2048 }),
      type: oneOf(['HTTP'] as const, 'Endpoint type; only HTTP is supported.'),
    },
    'An endpoint.',
  ),
  printerColumns: [
    { name: 'Vhost', type: 'string', jsonPath: '.spec.vhost' },
    { name: 'Path', type: 'string', jsonPath: '.spec.path' },
    acceptedColumn,
    reasonColumn,
    ageColumn,
  ],
});

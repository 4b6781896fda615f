// Endpoint: a path on a vhost (docs/language.md, "Vhosts and endpoints"). Its plural is `vhostendpoints`,
// not `endpoints`, so that `kubectl get endpoints` keeps meaning the core kind (decision 0021).
import { object, oneOf, ref, str } from '../dsl.js';
import { acceptedColumn, ageColumn, defineKind, reasonColumn } from '../kind.js';

export const endpointKind = defineKind({
  kind: 'Endpoint',
  plural: 'vhostendpoints',
  singular: 'vhostendpoint',
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

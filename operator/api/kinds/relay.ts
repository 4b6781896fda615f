// Relay: a stream of records of one schema (docs/language.md, "Relays").
import { object, oneOf, ref } from '../dsl.js';
import { acceptedColumn, ageColumn, defineKind, reasonColumn } from '../kind.js';

export const relayKind = defineKind({
  kind: 'Relay',
  plural: 'relays',
  singular: 'relay',
  shortNames: ['rly'],
  description: 'CREATE RELAY: a stream of records of one schema.',
  spec: object(
    {
      schema: ref('Schema of the records'),
      branching: oneOf(['UNBRANCHED'] as const, 'Branching; only UNBRANCHED is supported.'),
    },
    'A relay.',
  ),
  printerColumns: [
    { name: 'Schema', type: 'string', jsonPath: '.spec.schema' },
    acceptedColumn,
    reasonColumn,
    ageColumn,
  ],
});

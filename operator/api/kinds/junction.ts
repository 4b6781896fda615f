// Junction: merges several relays into routed output (docs/language.md, "Junctions").
import { generalErrorPolicy, list, object, optional, ref, routes } from '../dsl.js';
import { acceptedColumn, ageColumn, defineKind, reasonColumn } from '../kind.js';

export const junctionKind = defineKind({
  kind: 'Junction',
  plural: 'junctions',
  singular: 'junction',
  shortNames: ['jct'],
  description: 'CREATE JUNCTION: merges relays into one stream and routes it.',
  spec: object(
    {
      from: list(ref('Relay'), 'Relays merged, in any order.', {
        minItems: 1,
        maxItems: 64,
        'x-kubernetes-list-type': 'set',
      }),
      routes,
      onGeneralError: optional(generalErrorPolicy),
    },
    'A junction.',
  ),
  printerColumns: [
    { name: 'From', type: 'string', jsonPath: '.spec.from' },
    acceptedColumn,
    reasonColumn,
    ageColumn,
  ],
});

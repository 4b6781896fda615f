// WireSchema: the shape of a JSON payload on the wire (docs/language.md, "Wire schemas").
import { fieldName, list, object, oneOf } from '../dsl.js';
import { acceptedColumn, ageColumn, defineKind, reasonColumn } from '../kind.js';

export const WIRE_TYPES = ['string', 'integer'] as const;

export const wireSchemaKind = defineKind({
  kind: 'WireSchema',
  plural: 'wireschemas',
  singular: 'wireschema',
  shortNames: ['wsch'],
  description: 'CREATE WIRE JSON SCHEMA: the fields of a JSON payload, checked strictly.',
  spec: object(
    {
      format: oneOf(['JSON'] as const, 'Wire format; only JSON is supported.'),
      mode: oneOf(['STRICT'] as const, 'Validation mode; only STRICT is supported.'),
      fields: list(
        object(
          { name: fieldName('JSON key.'), type: oneOf(WIRE_TYPES, 'Wire type.') },
          'One field of the wire schema.',
        ),
        'The fields.',
        {
          minItems: 1,
          maxItems: 512,
          'x-kubernetes-list-type': 'map',
          'x-kubernetes-list-map-keys': ['name'],
        },
      ),
    },
    'A wire schema.',
  ),
  printerColumns: [
    { name: 'Format', type: 'string', jsonPath: '.spec.format' },
    { name: 'Mode', type: 'string', jsonPath: '.spec.mode' },
    acceptedColumn,
    reasonColumn,
    ageColumn,
  ],
});

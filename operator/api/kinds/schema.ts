// Schema: the typed fields of the records a relay carries (docs/language.md, "Schemas").
import { FIELD_TYPES } from '../field-types.js';
import { fieldName, list, object, oneOf, optional, bool } from '../dsl.js';
import { acceptedColumn, ageColumn, defineKind, reasonColumn } from '../kind.js';

export const schemaField = object(
  {
    name: fieldName('Field name; case is kept, as in JSON keys.'),
    type: oneOf(FIELD_TYPES, 'Field type.'),
    optional: optional(bool('OPTIONAL: the field may be null.')),
    sensitive: optional(bool('SENSITIVE: the value never appears in logs, diagnostics or metrics.')),
  },
  'One field of a schema.',
);

export const schemaKind = defineKind({
  kind: 'Schema',
  plural: 'schemas',
  singular: 'schema',
  shortNames: ['srschema'],
  description: 'CREATE SCHEMA: the typed fields of the records a relay carries.',
  spec: object(
    {
      fields: list(schemaField, 'The fields, in order.', {
        minItems: 1,
        maxItems: 512,
        'x-kubernetes-list-type': 'map',
        'x-kubernetes-list-map-keys': ['name'],
      }),
    },
    'A schema.',
  ),
  printerColumns: [acceptedColumn, reasonColumn, ageColumn],
});

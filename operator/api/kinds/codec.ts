// Codec: decodes payloads into records of a schema and, where it can, encodes them back (docs/language.md,
// "Codecs").
import { fieldName, list, object, oneOf, optional, ref, resourceVersionRef, rules, str } from '../dsl.js';
import { boundVersionsStatus } from './bound-versions-status.js';
import { acceptedColumn, ageColumn, defineKind, reasonColumn } from '../kind.js';

export const CODEC_SOURCES = [
  'WIRE_JSON',
  'JSON',
  'YAML',
  'TOML',
  'XML',
  'CBOR',
  'PROTOBUF',
  'SYSLOG',
] as const;
export const JAQ_FORMATS = ['JSON', 'YAML', 'TOML', 'XML', 'CBOR'] as const;

const program = (when: string) => str(`jq program run ${when}.`, { minLength: 1, maxLength: 65536 });

export const codecKind = defineKind({
  kind: 'Codec',
  plural: 'codecs',
  singular: 'codec',
  shortNames: ['cdc'],
  description: 'CREATE CODEC: how payloads become records of a schema, and back.',
  status: boundVersionsStatus,
  spec: rules(
    object(
      {
        from: oneOf(
          CODEC_SOURCES,
          'Source: WIRE_JSON (a wire schema), a JAQ format, PROTOBUF, or the predefined SYSLOG wire schema.',
        ),
        wireSchema: optional(ref('WireSchema (from WIRE_JSON only)')),
        protobuf: optional(
          object(
            {
              using: resourceVersionRef,
              file: str('The .proto file inside the resource version.', { minLength: 1 }),
              include: str('Import root inside the resource version.', { minLength: 1 }),
              message: str('Fully qualified message name.', {
                pattern: '^[A-Za-z_][A-Za-z0-9_]*(\\.[A-Za-z_][A-Za-z0-9_]*)*$',
              }),
            },
            'USING RESOURCE … CONFIG { file, include } MESSAGE (from PROTOBUF only).',
          ),
        ),
        schema: ref('Schema of the records'),
        jaq: optional(
          object(
            { ingestion: program('on ingestion'), emitting: optional(program('on emitting')) },
            'WITH JAQ TRANSFORMATIONS; without an emitting program the codec cannot encode.',
          ),
        ),
        encodeRfc3339: optional(
          list(
            fieldName('A DATETIME field.'),
            'ENCODE <field> AS RFC3339: DATETIME fields carried as text.',
            {
              minItems: 1,
              'x-kubernetes-list-type': 'set',
            },
          ),
        ),
      },
      'A codec.',
    ),
    [
      {
        rule: "self.from == 'WIRE_JSON' ? has(self.wireSchema) : !has(self.wireSchema)",
        message: 'wireSchema is required with from WIRE_JSON and not allowed otherwise',
        holds: (self) => (self.from === 'WIRE_JSON') === (self.wireSchema !== undefined),
        fieldPath: '.wireSchema',
      },
      {
        rule: "self.from == 'PROTOBUF' ? has(self.protobuf) : !has(self.protobuf)",
        message: 'protobuf is required with from PROTOBUF and not allowed otherwise',
        holds: (self) => (self.from === 'PROTOBUF') === (self.protobuf !== undefined),
        fieldPath: '.protobuf',
      },
      {
        rule: "self.from in ['WIRE_JSON', 'SYSLOG'] || has(self.jaq)",
        message: 'a JSON, YAML, TOML, XML, CBOR or PROTOBUF codec needs WITH JAQ TRANSFORMATIONS',
        holds: (self) => self.from === 'WIRE_JSON' || self.from === 'SYSLOG' || self.jaq !== undefined,
        fieldPath: '.jaq',
      },
      {
        rule: "self.from != 'SYSLOG' || !has(self.jaq)",
        message: 'a SYSLOG codec does not accept WITH JAQ TRANSFORMATIONS',
        code: 'SR2012',
        holds: (self) => self.from !== 'SYSLOG' || self.jaq === undefined,
        fieldPath: '.jaq',
      },
      {
        rule: "self.from != 'SYSLOG' || !has(self.encodeRfc3339)",
        message: 'a SYSLOG codec does not accept ENCODE … AS RFC3339 rules',
        code: 'SR2012',
        holds: (self) => self.from !== 'SYSLOG' || self.encodeRfc3339 === undefined,
        fieldPath: '.encodeRfc3339',
      },
      {
        rule: "self.from != 'WIRE_JSON' || !has(self.jaq)",
        message: 'a wire schema codec does not accept WITH JAQ TRANSFORMATIONS',
        holds: (self) => self.from !== 'WIRE_JSON' || self.jaq === undefined,
        fieldPath: '.jaq',
      },
      {
        rule: "self.from != 'WIRE_JSON' || !has(self.encodeRfc3339)",
        message: 'a wire schema codec does not accept ENCODE … AS RFC3339 rules',
        holds: (self) => self.from !== 'WIRE_JSON' || self.encodeRfc3339 === undefined,
        fieldPath: '.encodeRfc3339',
      },
    ],
  ),
  printerColumns: [
    { name: 'From', type: 'string', jsonPath: '.spec.from' },
    { name: 'Schema', type: 'string', jsonPath: '.spec.schema' },
    acceptedColumn,
    reasonColumn,
    ageColumn,
  ],
});

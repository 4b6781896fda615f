// Emitter: encodes the records of a relay and sends them to a syslog client (spec §2.11, DESIGN.md §5).
import {
  duration,
  fieldName,
  generalErrorPolicy,
  int,
  list,
  messageErrorPolicy,
  object,
  oneOf,
  optional,
  ref,
} from '../dsl.js';
import { defineKind } from '../kind.js';
import { runtimeColumns, runtimeStatus } from './ingestor-status.js';

export const emitterKind = defineKind({
  kind: 'Emitter',
  plural: 'emitters',
  singular: 'emitter',
  shortNames: ['emit'],
  description: 'CREATE EMITTER … TO SYSLOG: encodes the records of a relay and sends them out.',
  spec: object(
    {
      from: ref('Relay whose records are emitted'),
      to: object(
        { type: oneOf(['SYSLOG'] as const, 'Destination type.'), client: ref('SyslogClient') },
        'TO SYSLOG <client>.',
      ),
      mode: oneOf(['NO_ACK'] as const, 'Delivery mode; only NO_ACK is supported.'),
      retry: object(
        { backoff: duration('First retry delay.'), max: duration('Largest retry delay.') },
        'RETRY POLICY BACKOFF <d> MAX <d>.',
      ),
      codec: ref('Codec that encodes each record'),
      allowSensitive: optional(
        list(
          fieldName('A SENSITIVE field.'),
          'ALLOW SENSITIVE (…): SENSITIVE fields this emitter may send out.',
          {
            minItems: 1,
            'x-kubernetes-list-type': 'set',
          },
        ),
      ),
      batch: optional(
        object(
          {
            maxSize: int('Records per batch.', { minimum: 1, maximum: 100000 }),
            maxTime: duration('Longest a batch waits to fill.'),
          },
          'BATCH MAX SIZE <n> MAX TIME <d>.',
        ),
      ),
      flush: oneOf(['IMMEDIATE'] as const, 'Flush policy; only IMMEDIATE is supported.'),
      onMessageError: messageErrorPolicy,
      onGeneralError: generalErrorPolicy,
    },
    'An emitter.',
  ),
  status: runtimeStatus,
  printerColumns: [
    { name: 'From', type: 'string', jsonPath: '.spec.from' },
    { name: 'Client', type: 'string', jsonPath: '.spec.to.client' },
    ...runtimeColumns,
  ],
});

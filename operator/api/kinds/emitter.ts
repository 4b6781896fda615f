// Emitter: encodes the records of a relay and sends them to a syslog client (docs/language.md, "Emitters").
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
  rules,
} from '../dsl.js';
import { defineKind } from '../kind.js';
import { runtimeColumns, runtimeStatus } from './ingestor-status.js';
import { durationToMs } from '../literals.js';

/** A duration literal in milliseconds; throws for one the rule cannot read (the twin then says nothing). */
function milliseconds(text: string): number {
  const ms = durationToMs(text);
  if (ms === undefined) throw new RangeError(`${text} is not a duration`);
  return ms;
}

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
      retry: rules(
        object(
          { backoff: duration('First retry delay.'), max: duration('Largest retry delay.') },
          'RETRY POLICY BACKOFF <d> MAX <d>.',
        ),
        [
          {
            // CEL's duration() reads every unit a duration literal may have (ms, s, m, h).
            rule: 'duration(self.backoff) <= duration(self.max)',
            message: 'RETRY POLICY BACKOFF must not be longer than MAX',
            holds: (self) => milliseconds(self.backoff) <= milliseconds(self.max),
            fieldPath: '.backoff',
          },
        ],
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

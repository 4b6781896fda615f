// Emitter: encodes the records of a relay and sends them to a syslog client, or produces them to a Kafka
// topic (docs/language.md, "Emitters").
import {
  duration,
  expression,
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
import { topicName } from './topic-ingestor.js';

type Target = { type: 'SYSLOG' | 'KAFKA'; topic?: string | undefined; key?: string | undefined };

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
  description: 'CREATE EMITTER … TO SYSLOG | TO KAFKA: encodes the records of a relay and sends them out.',
  spec: rules(
    object(
      {
        from: ref('Relay whose records are emitted'),
        to: rules(
          object(
            {
              type: oneOf(['SYSLOG', 'KAFKA'] as const, 'Destination type.'),
              client: ref('SyslogClient (TO SYSLOG) or KafkaClient (TO KAFKA)'),
              topic: optional(topicName('TO KAFKA: the topic produced to.')),
              key: optional(expression('TO KAFKA: the message key, a STRING over input. (null: no key).')),
            },
            "TO SYSLOG <client>, or TO KAFKA <client> TOPIC '<topic>' [KEY <expression>].",
          ),
          [
            {
              rule: "self.type != 'KAFKA' || has(self.topic)",
              message: 'TO KAFKA needs a TOPIC',
              fieldPath: '.topic',
              holds: (self: Target) => self.type !== 'KAFKA' || self.topic !== undefined,
            },
            {
              rule: "self.type == 'KAFKA' || !has(self.topic) && !has(self.key)",
              message: 'topic and key are only allowed with TO KAFKA',
              holds: (self: Target) =>
                self.type === 'KAFKA' || (self.topic === undefined && self.key === undefined),
            },
          ],
        ),
        mode: oneOf(
          ['ACK', 'NO_ACK'] as const,
          'Delivery mode: NO_ACK, or ACK (TO KAFKA only: a record counts as sent once the brokers acknowledge it).',
        ),
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
    [
      {
        rule: "self.mode != 'ACK' || self.to.type == 'KAFKA'",
        message: 'MODE ACK needs TO KAFKA: a syslog emitter has no acknowledgement, so its mode is NO_ACK',
        fieldPath: '.mode',
        holds: (self) => self.mode !== 'ACK' || self.to.type === 'KAFKA',
      },
    ],
  ),
  status: runtimeStatus,
  printerColumns: [
    { name: 'From', type: 'string', jsonPath: '.spec.from' },
    { name: 'To', type: 'string', jsonPath: '.spec.to.type' },
    { name: 'Client', type: 'string', jsonPath: '.spec.to.client' },
    { name: 'Topic', type: 'string', jsonPath: '.spec.to.topic', priority: 1 },
    ...runtimeColumns,
  ],
});

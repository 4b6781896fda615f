// TopicIngestor: a Kafka consumer on every node, all in one consumer group, decoding each message and
// routing the records (docs/language.md, "Topic ingestors").
import { generalErrorPolicy, object, oneOf, quiesce, ref, routes, rules, str } from '../dsl.js';
import { defineKind } from '../kind.js';
import { runtimeColumns, runtimeStatus } from './ingestor-status.js';

/** The characters Kafka allows in a topic name, at most 249 of them (`.` and `..` alone are refused). */
export const TOPIC_PATTERN = '^[A-Za-z0-9._-]{1,249}$';
/** Consumer groups: the topic characters, at most 255 (Kafka takes more; these never need escaping). */
export const GROUP_PATTERN = '^[A-Za-z0-9._-]{1,255}$';

const TOPIC_REGEX = new RegExp(TOPIC_PATTERN);
const GROUP_REGEX = new RegExp(GROUP_PATTERN);

export function isTopicName(topic: string): boolean {
  return TOPIC_REGEX.test(topic) && topic !== '.' && topic !== '..';
}

export const TOPIC_RULE_MESSAGE =
  "a topic name is 1 to 249 letters, digits, '.', '_' or '-' (and not '.' or '..')";

/** A topic, its SR2076 rule reported at the field holding it. */
export const topicName = (description: string) =>
  rules(str(description, { minLength: 1, maxLength: 1024 }), [
    {
      rule: `self.matches('${TOPIC_PATTERN.replaceAll('\\', '\\\\')}') && self != '.' && self != '..'`,
      message: TOPIC_RULE_MESSAGE,
      code: 'SR2076',
      holds: isTopicName,
    },
  ]);

export const topicIngestorKind = defineKind({
  kind: 'TopicIngestor',
  plural: 'topicingestors',
  singular: 'topicingestor',
  shortNames: ['ting'],
  description: 'CREATE TOPIC INGESTOR: consumes a Kafka topic on every node, in one consumer group.',
  spec: object(
    {
      client: ref('KafkaClient that reaches the brokers'),
      topic: topicName('The topic consumed.'),
      group: rules(str('Consumer group every node joins.', { minLength: 1, maxLength: 1024 }), [
        {
          rule: `self.matches('${GROUP_PATTERN}')`,
          message: "a consumer group name is 1 to 255 letters, digits, '.', '_' or '-'",
          code: 'SR2077',
          holds: (self) => GROUP_REGEX.test(self),
        },
      ]),
      startFrom: oneOf(
        ['EARLIEST', 'LATEST'] as const,
        'Where a group without a committed offset starts: the oldest or the next message.',
      ),
      mode: oneOf(
        ['ACK', 'NO_ACK'] as const,
        'ACK commits an offset once its records are on their relays (at-least-once); NO_ACK auto-commits (at-most-once).',
      ),
      quiesce: rules(quiesce, [
        {
          rule: "self.action != 'BUFFER'",
          message: 'a topic ingestor quiesces with SUSPEND or DROP, not BUFFER',
          fieldPath: '.action',
          holds: (self) => self.action !== 'BUFFER',
        },
      ]),
      codec: ref('Codec that decodes each message'),
      routes,
      onGeneralError: generalErrorPolicy,
    },
    'A Kafka topic ingestor.',
  ),
  status: runtimeStatus,
  printerColumns: [
    { name: 'Client', type: 'string', jsonPath: '.spec.client' },
    { name: 'Topic', type: 'string', jsonPath: '.spec.topic' },
    { name: 'Group', type: 'string', jsonPath: '.spec.group', priority: 1 },
    { name: 'Codec', type: 'string', jsonPath: '.spec.codec' },
    ...runtimeColumns,
  ],
});

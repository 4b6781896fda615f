// Topic ingestors through the whole compiler: the kind's rules (topic, group, quiesce), the metadata.
// scope of a Kafka message in routes and handlers, and the name they share with the other ingestors.
import { httpIngestor, object, route, table } from '../../test/fixtures/compile-cases.js';

const KAFKA = "CREATE CLIENT kafka TYPE KAFKA CONFIG { 'bootstrap_servers' = 'localhost:9092' };";
const METADATA = `CREATE SCHEMA kafka_line (message STRING, topic STRING, partition I32, offset I64,
    key STRING OPTIONAL, at DATETIME, facility U8, severity U8);
  CREATE RELAY kafka_lines SCHEMA kafka_line;`;
const ingestor = (name: string, tail: string, topic = 'lines', group = 'g'): string =>
  `CREATE TOPIC INGESTOR ${name} FROM kafka TOPIC '${topic}' GROUP '${group}' START FROM EARLIEST MODE ACK
     ON QUIESCE SUSPEND DECODE USING syslog ${tail};`;
const spec = (topic: string, group: string, quiesce: { action: 'SUSPEND' | 'BUFFER'; maxSize?: string }) => ({
  client: 'kafka',
  topic,
  group,
  startFrom: 'EARLIEST' as const,
  mode: 'ACK' as const,
  quiesce,
  codec: 'syslog',
  routes: [
    {
      to: 'lines',
      inheritAll: true,
      branching: 'UNBRANCHED' as const,
      flush: 'IMMEDIATE' as const,
      onMessageError: { action: 'LOG' as const },
    },
  ],
  onGeneralError: 'LOG' as const,
});

describe('topic ingestors in the compiler', () => {
  table([
    {
      name: 'metadata.topic, partition, offset, key and timestamp, typed as DESIGN §5 says',
      statements: `${KAFKA} ${METADATA}
        ${ingestor(
          'all_metadata',
          `TO kafka_lines INHERIT ALL SET topic = metadata.topic, partition = metadata.partition,
             offset = metadata.offset, key = metadata.key, at = metadata.timestamp
           ON MESSAGE ERROR SEND TO kafka_lines SET message = coalesce(error.payload, ''), topic = metadata.topic,
             partition = metadata.partition, offset = metadata.offset, at = metadata.timestamp,
             facility = 1, severity = 3`,
        )}`,
      expect: [],
      inGraph: ['topicIngestors/all-metadata'],
    },
    {
      name: 'metadata fields keep their types: I64 into I32, a nullable key into a required field, no peer_addr',
      statements: `${KAFKA} ${METADATA}
        ${ingestor(
          'narrowing',
          `TO kafka_lines INHERIT ALL SET topic = metadata.topic, partition = metadata.offset,
             offset = metadata.partition, key = metadata.key, at = metadata.timestamp, message = metadata.key`,
        )}
        ${ingestor('no_peer', 'TO lines INHERIT ALL SET hostname = metadata.peer_addr')}`,
      expect: [
        {
          code: 'SR2005',
          object: 'TopicIngestor/narrowing',
          path: 'spec.routes[0].set[1].value',
          message: 'the value is I64, but field partition of relay kafka_lines is I32',
        },
        {
          code: 'SR2007',
          object: 'TopicIngestor/narrowing',
          path: 'spec.routes[0].set[5].value',
          message: 'the value may be null, but field message of relay kafka_lines is not OPTIONAL',
        },
        {
          code: 'SR2003',
          object: 'TopicIngestor/no-peer',
          path: 'spec.routes[0].set[0].value',
          message:
            'metadata.peer_addr: metadata of a Kafka message has no field peer_addr; it has topic, partition, offset, key, timestamp',
        },
      ],
    },
    {
      name: 'topic and group names Kafka would refuse, and BUFFER while quiesced',
      statements: KAFKA,
      objects: [
        object('TopicIngestor', 'bad-topic', spec('orders/eu', 'g', { action: 'SUSPEND' })),
        object('TopicIngestor', 'dot-topic', spec('..', 'g', { action: 'SUSPEND' })),
        object('TopicIngestor', 'long-topic', spec('t'.repeat(250), 'g', { action: 'SUSPEND' })),
        object('TopicIngestor', 'bad-group', spec('orders', 'a group', { action: 'SUSPEND' })),
        object('TopicIngestor', 'buffering', spec('orders', 'g', { action: 'BUFFER', maxSize: '1MiB' })),
      ],
      expect: [
        {
          code: 'SR2076',
          object: 'TopicIngestor/bad-topic',
          path: 'spec.topic',
          message: "a topic name is 1 to 249 letters, digits, '.', '_' or '-' (and not '.' or '..')",
        },
        { code: 'SR2076', object: 'TopicIngestor/dot-topic', path: 'spec.topic', message: 'topic name' },
        { code: 'SR2076', object: 'TopicIngestor/long-topic', path: 'spec.topic', message: 'topic name' },
        {
          code: 'SR2077',
          object: 'TopicIngestor/bad-group',
          path: 'spec.group',
          message: 'a consumer group name is 1 to 255 letters',
        },
        {
          code: 'SR1013',
          object: 'TopicIngestor/buffering',
          path: 'spec.quiesce.action',
          message: 'a topic ingestor quiesces with SUSPEND or DROP, not BUFFER',
        },
      ],
    },
    {
      name: 'an emitter TO KAFKA with a topic Kafka would refuse is SR2076 too',
      statements: KAFKA,
      objects: [
        object('Emitter', 'bad-out', {
          from: 'lines',
          to: { type: 'KAFKA', client: 'kafka', topic: 'lines out' },
          mode: 'ACK',
          retry: { backoff: '1s', max: '1m' },
          codec: 'syslog',
          flush: 'IMMEDIATE',
          onMessageError: { action: 'LOG' },
          onGeneralError: 'LOG',
        }),
      ],
      expect: [{ code: 'SR2076', object: 'Emitter/bad-out', path: 'spec.to.topic', message: 'topic name' }],
    },
    {
      name: 'a topic ingestor shares the ingestor names of HTTP and syslog ingestors (SR2060)',
      statements: `${KAFKA}
        ${httpIngestor('intake', 'orders_json', route('orders', 'INHERIT ALL'))}
        ${ingestor('intake', 'TO lines INHERIT ALL')}`,
      expect: [
        {
          code: 'SR2060',
          object: 'TopicIngestor/intake',
          path: 'metadata.name',
          message: 'an ingestor name is unique across HTTP, syslog and topic ingestors',
        },
      ],
      inGraph: ['httpIngestors/intake'],
    },
  ]);
});

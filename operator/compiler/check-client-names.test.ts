import { table } from '../../test/fixtures/compile-cases.js';

const KAFKA = "CREATE CLIENT kafka TYPE KAFKA CONFIG { 'bootstrap_servers' = 'localhost:9092' };";
const topicIngestor = (name: string, client: string): string =>
  `CREATE TOPIC INGESTOR ${name} FROM ${client} TOPIC 'lines' GROUP 'g' START FROM EARLIEST MODE ACK
     ON QUIESCE SUSPEND DECODE USING syslog TO lines INHERIT ALL;`;
const emitter = (name: string, to: string): string =>
  `CREATE EMITTER ${name} FROM lines TO ${to} RETRY POLICY BACKOFF 1s MAX 1m ENCODE USING syslog;`;

describe('check-client-names: one namespace of client names, and clients of the right TYPE', () => {
  table([
    {
      name: 'each use of a client of the other TYPE is SR2078, saying which TYPE it needs',
      statements: `${KAFKA}
        ${topicIngestor('from_syslog', 'udp_in')}
        CREATE SYSLOG LISTENER INGESTOR from_kafka FROM kafka ON QUIESCE DROP DECODE USING syslog
          TO lines INHERIT ALL;
        ${emitter('kafka_to_syslog', "KAFKA udp_in TOPIC 'lines' MODE ACK")}
        ${emitter('syslog_to_kafka', 'SYSLOG kafka')}
        ${topicIngestor('good_in', 'kafka')}
        ${emitter('good_out', "KAFKA kafka TOPIC 'lines' MODE NO ACK")}`,
      expect: [
        {
          code: 'SR2078',
          object: 'TopicIngestor/from-syslog',
          path: 'spec.client',
          message:
            'TopicIngestor from_syslog consumes through client udp_in, which is of TYPE SYSLOG: a topic ingestor needs a client of TYPE KAFKA',
        },
        {
          code: 'SR2078',
          object: 'SyslogIngestor/from-kafka',
          path: 'spec.client',
          message:
            'listens on client kafka, which is of TYPE KAFKA: a syslog listener needs a client of TYPE SYSLOG',
        },
        {
          code: 'SR2078',
          object: 'Emitter/kafka-to-syslog',
          path: 'spec.to.client',
          message:
            'sends TO KAFKA client udp_in, which is of TYPE SYSLOG: TO KAFKA needs a client of TYPE KAFKA; write TO SYSLOG udp_in, or name another client',
        },
        {
          code: 'SR2078',
          object: 'Emitter/syslog-to-kafka',
          path: 'spec.to.client',
          message: 'TO SYSLOG needs a client of TYPE SYSLOG; write TO KAFKA kafka',
        },
      ],
      inGraph: ['kafkaClients/kafka', 'topicIngestors/good-in', 'emitters/good-out'],
    },
    {
      name: 'a client that exists as neither TYPE is SR2001, and its user waits',
      statements: `${topicIngestor('orphan', 'nowhere')}
        ${emitter('lost', "KAFKA nowhere TOPIC 'x' MODE ACK")}`,
      expect: [
        {
          code: 'SR2001',
          object: 'TopicIngestor/orphan',
          path: 'spec.client',
          message: 'refers to KafkaClient nowhere, which does not exist',
        },
        {
          code: 'SR2001',
          object: 'Emitter/lost',
          path: 'spec.to.client',
          message: 'refers to KafkaClient nowhere, which does not exist',
        },
      ],
    },
    {
      name: 'a Kafka client with the name of a syslog client is SR2079; the older keeps the name',
      statements: `CREATE CLIENT udp_in TYPE KAFKA CONFIG { 'bootstrap_servers' = 'localhost:9092' };
        ${topicIngestor('waits', 'udp_in')}`,
      expect: [
        {
          code: 'SR2079',
          object: 'KafkaClient/udp-in',
          path: 'metadata.name',
          message:
            'KafkaClient udp_in has the name of SyslogClient udp_in; CLIENT names one client of either TYPE',
        },
        {
          code: 'SR2061',
          object: 'TopicIngestor/waits',
          path: 'spec.client',
          message: 'waits for KafkaClient udp_in, which is rejected',
        },
      ],
      inGraph: ['clients/udp-in'],
    },
  ]);
});

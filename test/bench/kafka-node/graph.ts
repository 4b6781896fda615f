// The Kafka node benchmark's graph and messages. A message is one JSON order of about 110 B; the codec (a
// JSON wire codec or a JAQ JSON codec) decodes it and the route places it on the relay `orders` with where
// it was read (partition, offset), so the driver can count distinct offsets: a record delivered again
// after a rebalance is a duplicate, not progress. `sent_at` is the producer's wall clock in µs (latency).

export type Codec = 'wire' | 'jaq';

export const RELAY = 'orders';
export const INGESTOR = 'orders_in';

const CODECS: Record<Codec, string> = {
  wire: `CREATE WIRE JSON SCHEMA order_wire MODE STRICT (
  order_id string, customer string, amount integer, currency string, sent_at integer
);
CREATE CODEC order_codec FROM WIRE JSON SCHEMA order_wire TO SCHEMA order_msg;`,
  jaq: `CREATE CODEC order_codec FROM JSON TO SCHEMA order_msg
  WITH JAQ TRANSFORMATIONS ON INGESTION '{order_id, customer, amount, currency, sent_at}';`,
};

/** Everything but the topic ingestor, which each run adds with its own group. */
export function baseStatements(bootstrap: string, codec: Codec): string {
  return `
CREATE SCHEMA order_msg (order_id STRING, customer STRING, amount I64, currency STRING, sent_at I64);
CREATE SCHEMA orders (
  order_id STRING, customer STRING, amount I64, currency STRING, sent_at I64, partition I32, offset I64
);
${CODECS[codec]}
CREATE RELAY ${RELAY} SCHEMA orders UNBRANCHED;
CREATE CLIENT bench_kafka TYPE KAFKA CONFIG { 'bootstrap_servers' = '${bootstrap}' };
`;
}

/** The topic ingestor of one run: MODE ACK, from the group's commits or the earliest offset. */
export function ingestorStatement(topic: string, group: string): string {
  return `
CREATE TOPIC INGESTOR ${INGESTOR}
  FROM bench_kafka
  TOPIC '${topic}'
  GROUP '${group}'
  START FROM EARLIEST
  MODE ACK
  ON QUIESCE SUSPEND
  DECODE USING order_codec
  TO ${RELAY}
    INHERIT ALL
    SET partition = metadata.partition, offset = metadata.offset
    UNBRANCHED
    FLUSH IMMEDIATE
    ON MESSAGE ERROR LOG
  ON GENERAL ERROR LOG;
`;
}

/** Wall-clock µs since the epoch, comparable between processes on one machine (sub-ms apart). */
export function wallMicros(): number {
  return Math.round((performance.timeOrigin + performance.now()) * 1000);
}

/** Order `index` as its JSON message (about 110 B), stamped with `sentAt` (µs). */
export function orderMessage(index: number, sentAt: number): Buffer {
  const id = String(index).padStart(8, '0');
  return Buffer.from(
    `{"order_id":"o${id}","customer":"customer-${id.slice(-4)}","amount":${1000 + (index % 90_000)},"currency":"EUR","sent_at":${sentAt}}`,
  );
}

-- Kafka in and out on one machine: JSON orders produced to the topic `orders` of a broker on
-- 127.0.0.1:9092 land on the relay `orders` with where they were read (topic, partition, offset, key);
-- every one goes on to the topic `orders-read` with where it was read, keyed by order. docs/kafka.md walks
-- through it with the test broker (test/kafka/README.md):
--
--   npx tsx test/kafka/broker.ts --port 9092 --topics orders:3,orders-read:3
--   npx streamroute node --manifests examples/kafka
--   npx streamroute subscribe -d default tail orders
--   npx streamroute -d default -c 'DESCRIBE INGESTOR orders_in'

CREATE SCHEMA orders (order_id STRING, amount I64);
CREATE SCHEMA read_orders (
  order_id  STRING,
  amount    I64,
  topic     STRING,
  partition I32,
  offset    I64,
  key       STRING OPTIONAL
);
CREATE SCHEMA order_errors (code STRING, message STRING, ref STRING);

-- A message must be one JSON order; anything else is a message error (see `errors`).
CREATE WIRE JSON SCHEMA orders_wire MODE STRICT (order_id string, amount integer);
CREATE CODEC orders_json FROM WIRE JSON SCHEMA orders_wire TO SCHEMA orders;
CREATE WIRE JSON SCHEMA read_orders_wire MODE STRICT (
  order_id string, amount integer, topic string, partition integer, offset integer, key string
);
CREATE CODEC read_orders_json FROM WIRE JSON SCHEMA read_orders_wire TO SCHEMA read_orders;

CREATE RELAY orders SCHEMA read_orders UNBRANCHED;
CREATE RELAY errors SCHEMA order_errors UNBRANCHED;

-- client_id defaults to streamroute-default-local_kafka (the domain and the client).
CREATE CLIENT local_kafka TYPE KAFKA CONFIG { 'bootstrap_servers' = '127.0.0.1:9092' };

-- Every node that runs this graph joins the group `streamroute-orders`: the topic's partitions spread over
-- them. MODE ACK commits a message's offset once its record is on `orders` (or its error on `errors`): a
-- crash re-delivers what was not committed, and a bad message never blocks its partition.
CREATE TOPIC INGESTOR orders_in
  FROM local_kafka
  TOPIC 'orders'
  GROUP 'streamroute-orders'
  START FROM EARLIEST
  MODE ACK
  ON QUIESCE SUSPEND
  DECODE USING orders_json
  TO orders
    INHERIT ALL
    SET topic = metadata.topic, partition = metadata.partition, offset = metadata.offset,
        key = metadata.key
    UNBRANCHED
    FLUSH IMMEDIATE
    ON MESSAGE ERROR SEND TO errors
      SET code = error.code, message = error.message,
          ref = metadata.topic || '/' || to_string(metadata.partition) || '@' || to_string(metadata.offset)
  ON GENERAL ERROR LOG;

-- Each record is one message of `orders-read`; MODE ACK counts it sent once the broker
-- acknowledged it.
CREATE EMITTER orders_read_out
  FROM orders
  TO KAFKA local_kafka TOPIC 'orders-read' KEY input.order_id
  MODE ACK RETRY POLICY BACKOFF 200ms MAX 5s
  ENCODE USING read_orders_json
  BATCH MAX SIZE 500 MAX TIME 20ms
  FLUSH IMMEDIATE
  ON MESSAGE ERROR LOG
  ON GENERAL ERROR LOG;

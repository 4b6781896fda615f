-- The full example, part 6: Kafka. A client says how to reach the brokers; a topic ingestor consumes a
-- topic on every node, all nodes in one consumer group, so the topic's partitions spread over them.

-- SASL over TLS: the password is never written here. It is a file of the mounted resource, as the
-- brokers' trust root is.
CREATE CLIENT kafka_main TYPE KAFKA MOUNT pki VERSION 1
  CONFIG {
    'bootstrap_servers' = 'kafka-0.kafka.example.com:9093, kafka-1.kafka.example.com:9093',
    'client_id' = 'shop-payments',
    'security_protocol' = 'sasl_ssl',
    'sasl_mechanism' = 'scram-sha-512',
    'sasl_username' = 'shop',
    'sasl_password_file' = '{{ pki }}/kafka-password',
    'tls_ca_file' = '{{ pki }}/kafka-ca.crt'
  };

-- Plain text inside the cluster network; client_id defaults to streamroute-<domain>-kafka-local (the
-- domain and the client's resource name).
CREATE CLIENT kafka_local TYPE KAFKA CONFIG { 'bootstrap_servers' = 'kafka.internal:9092' };

-- Each message is one CBOR payment. MODE ACK commits an offset only once every record of its message
-- is on its relays (at-least-once); a message that fails to decode is routed to errors with where it
-- was read, and its offset still commits, so one bad message never blocks a partition.
CREATE TOPIC INGESTOR payments_from_kafka
  FROM kafka_main
  TOPIC 'shop.payments'
  GROUP 'streamroute-shop'
  START FROM EARLIEST
  MODE ACK
  ON QUIESCE SUSPEND
  DECODE USING payments_cbor
  TO payments
    INHERIT ALL
    FLUSH IMMEDIATE
    ON MESSAGE ERROR SEND TO errors
      SET source = 'payments_from_kafka', code = error.code, message = error.message,
          ref = metadata.topic || '/' || to_string(metadata.partition) || '@' || to_string(metadata.offset)
  ON GENERAL ERROR LOG;

-- MODE NO ACK commits offsets as it reads (at-most-once); ON QUIESCE DROP keeps reading and discards.
CREATE TOPIC INGESTOR audit_from_kafka
  FROM kafka_local
  TOPIC 'shop.order-audit'
  GROUP 'streamroute-audit'
  START FROM LATEST
  MODE NO ACK
  ON QUIESCE DROP
  DECODE USING orders_json
  TO orders INHERIT ALL SET placed_at = coalesce(input.placed_at, metadata.timestamp)
  ON GENERAL ERROR LOG;

-- Paid orders to a topic, keyed by order so that one order's records stay in one partition. MODE ACK
-- counts a record as sent once the brokers acknowledge it. The card number is SENSITIVE, so the emitter
-- must allow it.
CREATE EMITTER paid_orders_to_kafka
  FROM paid_orders
  TO KAFKA kafka_main TOPIC 'shop.paid-orders' KEY input.order_id
  MODE ACK RETRY POLICY BACKOFF 1s MAX 1m
  ENCODE USING paid_orders_json ALLOW SENSITIVE (card_number)
  BATCH MAX SIZE 500 MAX TIME 100ms
  FLUSH IMMEDIATE
  ON MESSAGE ERROR LOG
  ON GENERAL ERROR LOG;

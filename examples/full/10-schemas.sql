-- The full example, part 1: schemas and wire schemas.
-- Every statement form of the language appears somewhere in examples/full; client-side.sql holds the
-- statements that only run against a node or a cluster.
--
--   npx streamroute validate examples/full --resource order-protos=examples/full/protos

-- Orders arrive over HTTP as JSON or protobuf. The card number is SENSITIVE: it may only flow into
-- fields that are SENSITIVE too, and an emitter must name it in ALLOW SENSITIVE to send it out.
CREATE SCHEMA orders (
  order_id    STRING,
  customer    STRING,
  amount      I64,
  currency    STRING,
  card_number STRING OPTIONAL SENSITIVE,
  placed_at   DATETIME OPTIONAL
);

CREATE SCHEMA payments (payment_id STRING, order_id STRING, amount I64, currency STRING);

-- What the correlator makes of an order and its payment.
CREATE SCHEMA paid_orders (
  order_id    STRING,
  customer    STRING,
  amount      I64,
  payment_id  STRING,
  matched_at  DATETIME,
  card_number STRING OPTIONAL SENSITIVE
);

-- A digest of each order, built with expressions (no sensitive data).
CREATE SCHEMA order_audit (order_id STRING, customer STRING, total STRING, received_at DATETIME, host STRING);

-- Error records built by ON MESSAGE ERROR SEND TO handlers.
CREATE SCHEMA errors (source STRING, code STRING, message STRING, payload STRING OPTIONAL, ref STRING OPTIONAL);
CREATE SCHEMA payment_errors (payment_id STRING OPTIONAL, order_id STRING OPTIONAL, code STRING, message STRING);

-- The fields of the predefined SYSLOG wire schema, with exactly the shapes of docs/codecs-syslog.md.
CREATE SCHEMA syslog_line (
  facility        U8,
  severity        U8,
  timestamp       DATETIME OPTIONAL,
  hostname        STRING OPTIONAL,
  app_name        STRING OPTIONAL,
  proc_id         STRING OPTIONAL,
  msg_id          STRING OPTIONAL,
  structured_data STRING OPTIONAL,
  message         STRING
);

-- Syslog lines as received, with the sender's address.
CREATE SCHEMA syslog_event (
  facility        U8,
  severity        U8,
  timestamp       DATETIME OPTIONAL,
  hostname        STRING OPTIONAL,
  app_name        STRING OPTIONAL,
  proc_id         STRING OPTIONAL,
  msg_id          STRING OPTIONAL,
  structured_data STRING OPTIONAL,
  message         STRING,
  peer_addr       STRING OPTIONAL
);

/* The other field types, for reference. */
CREATE SCHEMA metrics (name STRING, ok BOOL, count U32, small U16, big U64, delta I32, ratio F64, raw BYTES OPTIONAL);

-- The shape of a payment POST body.
CREATE WIRE JSON SCHEMA payments_wire MODE STRICT (payment_id string, order_id string, amount integer, currency string);

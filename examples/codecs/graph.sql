-- Every codec form on one node: the same order arrives as JSON, YAML, TOML, XML, CBOR or protobuf, and a
-- syslog line arrives over HTTP. docs/codecs.md walks through it:
--
--   npx streamroute node --manifests examples/codecs/graph.sql
--   npx streamroute -f examples/codecs/protobuf.sql        # uploads the .proto files, adds the protobuf codec
--   npx streamroute subscribe me orders
--   curl --data-binary @examples/codecs/payloads/orders.yaml http://localhost:8080/orders.yaml

CREATE SCHEMA orders (
  order_id  STRING,
  customer  STRING,
  amount    I64,
  currency  STRING,
  placed_at DATETIME OPTIONAL
);

-- The predefined SYSLOG wire schema: a schema declares any of its fields, with exactly these shapes.
CREATE SCHEMA syslog_lines (
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

-- JSON: one body holds a batch; `.orders[]` makes one record per element, in order. With ON EMITTING the
-- codec also encodes (a record becomes a one-order batch).
CREATE CODEC orders_json
  FROM JSON
  TO SCHEMA orders
  WITH JAQ TRANSFORMATIONS
    ON INGESTION $jaq$
      .orders[] | {
        order_id: .id,
        customer: .customer.name,
        amount,
        currency: (.currency // "EUR"),
        placed_at: .placed
      }
    $jaq$
    ON EMITTING $jaq$
      {orders: [{id: .order_id, customer: {name: .customer}, amount, currency, placed: .placed_at}]}
    $jaq$;

-- YAML: each document of a stream is one input, so a stream of three documents is three orders.
CREATE CODEC orders_yaml
  FROM YAML
  TO SCHEMA orders
  WITH JAQ TRANSFORMATIONS
    ON INGESTION '{order_id: .id, customer, amount, currency, placed_at: .placed}'
    ON EMITTING '{id: .order_id, customer, amount, currency, placed: .placed_at}';

-- TOML: date-times reach the program as RFC 3339 text.
CREATE CODEC orders_toml
  FROM TOML
  TO SCHEMA orders
  WITH JAQ TRANSFORMATIONS
    ON INGESTION '.order | {order_id: .id, customer, amount, currency, placed_at: .placed}';

-- XML: attributes are "@name", text is a string (never a number: `tonumber` converts), and child
-- elements are always arrays, whether there is one or several.
CREATE CODEC orders_xml
  FROM XML
  TO SCHEMA orders
  WITH JAQ TRANSFORMATIONS
    ON INGESTION $jaq$
      .order | {
        order_id: .["@id"],
        customer: .customer[0],
        amount: (.amount[0]["#text"] | tonumber),
        currency: .amount[0]["@currency"],
        placed_at: .placed[0]
      }
    $jaq$;

-- CBOR: maps and arrays as in JSON; a tag-0 date-time is RFC 3339 text.
CREATE CODEC orders_cbor
  FROM CBOR
  TO SCHEMA orders
  WITH JAQ TRANSFORMATIONS ON INGESTION '.' ON EMITTING '.';

-- RFC 5424 and RFC 3164, detected per message; here from HTTP bodies, as a syslog listener would pass frames.
CREATE CODEC syslog_text FROM SYSLOG TO SCHEMA syslog_lines;

CREATE RELAY orders SCHEMA orders UNBRANCHED;
CREATE RELAY syslog_lines SCHEMA syslog_lines UNBRANCHED;

CREATE VHOST local localhost;
CREATE ENDPOINT json_ep ON local PATH '/orders.json' TYPE HTTP;
CREATE ENDPOINT yaml_ep ON local PATH '/orders.yaml' TYPE HTTP;
CREATE ENDPOINT toml_ep ON local PATH '/orders.toml' TYPE HTTP;
CREATE ENDPOINT xml_ep ON local PATH '/orders.xml' TYPE HTTP;
CREATE ENDPOINT cbor_ep ON local PATH '/orders.cbor' TYPE HTTP;
CREATE ENDPOINT syslog_ep ON local PATH '/syslog' TYPE HTTP;

CREATE HTTP ENDPOINT INGESTOR json_in
  FROM json_ep MODE NO ACK ON QUIESCE BUFFER MAX SIZE 1MiB DECODE USING orders_json
  TO orders INHERIT ALL UNBRANCHED FLUSH IMMEDIATE ON MESSAGE ERROR LOG
  ON GENERAL ERROR LOG;
CREATE HTTP ENDPOINT INGESTOR yaml_in
  FROM yaml_ep MODE NO ACK ON QUIESCE BUFFER MAX SIZE 1MiB DECODE USING orders_yaml
  TO orders INHERIT ALL UNBRANCHED FLUSH IMMEDIATE ON MESSAGE ERROR LOG
  ON GENERAL ERROR LOG;
CREATE HTTP ENDPOINT INGESTOR toml_in
  FROM toml_ep MODE NO ACK ON QUIESCE BUFFER MAX SIZE 1MiB DECODE USING orders_toml
  TO orders INHERIT ALL UNBRANCHED FLUSH IMMEDIATE ON MESSAGE ERROR LOG
  ON GENERAL ERROR LOG;
CREATE HTTP ENDPOINT INGESTOR xml_in
  FROM xml_ep MODE NO ACK ON QUIESCE BUFFER MAX SIZE 1MiB DECODE USING orders_xml
  TO orders INHERIT ALL UNBRANCHED FLUSH IMMEDIATE ON MESSAGE ERROR LOG
  ON GENERAL ERROR LOG;
CREATE HTTP ENDPOINT INGESTOR cbor_in
  FROM cbor_ep MODE NO ACK ON QUIESCE BUFFER MAX SIZE 1MiB DECODE USING orders_cbor
  TO orders INHERIT ALL UNBRANCHED FLUSH IMMEDIATE ON MESSAGE ERROR LOG
  ON GENERAL ERROR LOG;
CREATE HTTP ENDPOINT INGESTOR syslog_in
  FROM syslog_ep MODE NO ACK ON QUIESCE BUFFER MAX SIZE 1MiB DECODE USING syslog_text
  TO syslog_lines INHERIT ALL UNBRANCHED FLUSH IMMEDIATE ON MESSAGE ERROR LOG
  ON GENERAL ERROR LOG;

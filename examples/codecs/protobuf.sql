-- The protobuf codec, run against a node that runs examples/codecs/graph.sql (from the repository root):
--
--   npx streamroute -f examples/codecs/protobuf.sql
--   curl -H 'Content-Type: application/octet-stream' --data-binary @examples/codecs/payloads/order.pb \
--     http://localhost:8080/orders.pb
--
-- The .proto files are a resource: UPLOAD RESOURCE reads the directory where the client runs and prints
-- the version it became. VERSION LATEST is bound to that number when the codec is created.
CREATE RESOURCE order_protos;
UPLOAD RESOURCE order_protos VERSION 'examples/codecs/protos';

-- Field names of the message match the schema's; 64-bit integers keep every digit in the JSON view, and
-- the DATETIME travels in a proto string as RFC 3339 text. The clauses come in this order and no other.
CREATE CODEC orders_pb
  FROM PROTOBUF
  USING RESOURCE order_protos VERSION LATEST
  CONFIG { 'file' = 'shop/v1/order.proto', 'include' = '.' }
  MESSAGE 'shop.v1.Order'
  TO SCHEMA orders
  WITH JAQ TRANSFORMATIONS
    ON INGESTION '{order_id, customer, amount, currency, placed_at}'
    ON EMITTING '. + {lines: []}'
  ENCODE placed_at AS RFC3339;

CREATE ENDPOINT pb_ep ON local PATH '/orders.pb' TYPE HTTP;
CREATE HTTP ENDPOINT INGESTOR pb_in
  FROM pb_ep MODE NO ACK ON QUIESCE BUFFER MAX SIZE 1MiB DECODE USING orders_pb
  TO orders INHERIT ALL UNBRANCHED FLUSH IMMEDIATE ON MESSAGE ERROR LOG
  ON GENERAL ERROR LOG;

-- The full example, part 2: codecs, one per source format.

-- One POST body, checked against the wire schema, is one payment.
CREATE CODEC payments_wire_json FROM WIRE JSON SCHEMA payments_wire TO SCHEMA payments;

-- JAQ codecs: each object the program yields is one record; `.orders[]` unfolds a batch, in order.
-- A program is a quoted string ('' is a quote) or raw text between $jaq$ delimiters.
CREATE CODEC orders_json
  FROM JSON
  TO SCHEMA orders
  WITH JAQ TRANSFORMATIONS
    ON INGESTION $jaq$
      .orders[] | {
        order_id: .id,
        customer: .customer.name,
        amount: .amount,
        currency: (.currency // "EUR"),
        card_number: .card,
        placed_at: .placed_at
      }
    $jaq$
    ON EMITTING '{orders: [.]}';

CREATE CODEC orders_yaml
  FROM YAML
  TO SCHEMA orders
  WITH JAQ TRANSFORMATIONS ON INGESTION '.';

CREATE CODEC orders_toml
  FROM TOML
  TO SCHEMA orders
  WITH JAQ TRANSFORMATIONS ON INGESTION $jaq$ .order | {order_id: .id, customer, amount, currency} $jaq$;

-- XML: attributes are "@name", text stays text, and child elements are always arrays (docs/codec-formats.md).
CREATE CODEC orders_xml
  FROM XML
  TO SCHEMA orders
  WITH JAQ TRANSFORMATIONS
    ON INGESTION '.order | {order_id: .["@id"], customer: .customer[0], amount: (.amount[0] | tonumber), currency: .currency[0]}';

CREATE CODEC payments_cbor
  FROM CBOR
  TO SCHEMA payments
  WITH JAQ TRANSFORMATIONS ON INGESTION '.' ON EMITTING $jaq$ . $jaq$;

-- Paid orders are emitted as JSON (see 70-emitters.sql), so this codec encodes too.
CREATE CODEC paid_orders_json
  FROM JSON
  TO SCHEMA paid_orders
  WITH JAQ TRANSFORMATIONS ON INGESTION '.' ON EMITTING '.'
  ENCODE matched_at AS RFC3339;

-- Protobuf: the .proto files are a resource, uploaded from examples/full/protos (client-side.sql).
-- The clauses come in this order and no other.
CREATE RESOURCE order_protos;

CREATE CODEC orders_pb
  FROM PROTOBUF
  USING RESOURCE order_protos VERSION LATEST
  CONFIG { 'file' = 'orders/v1/order.proto', 'include' = '.' }
  MESSAGE 'orders.v1.Order'
  TO SCHEMA orders
  WITH JAQ TRANSFORMATIONS
    ON INGESTION '.'
    ON EMITTING $jaq$ . + {currency: (.currency | ascii_upcase)} $jaq$
  ENCODE placed_at AS RFC3339;

-- The predefined SYSLOG wire schema: RFC 5424 and RFC 3164 in, RFC 5424 out.
CREATE CODEC syslog FROM SYSLOG TO SCHEMA syslog_line;

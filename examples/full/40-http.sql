-- The full example, part 4: HTTP ingestion.

-- Hostnames are matched against the Host header, lower-cased and without the port.
CREATE VHOST shop shop.example.com, 'www.shop.example.com', localhost;

-- HTTPS: the certificate and key are files of an uploaded resource, mounted by name and version
-- (VERSION 1 is the first upload, see client-side.sql; VERSION LATEST binds the newest when applied).
CREATE RESOURCE pki;
CREATE VHOST payments_site payments.example.com
  TLS MOUNT pki VERSION 1
  CONFIG { 'tls_cert_file' = '{{ pki }}/payments.crt', 'tls_key_file' = '{{ pki }}/payments.key' };

-- On Kubernetes a kubernetes.io/tls Secret can hold them instead.
CREATE VHOST partner_site partner.example.com TLS SECRET 'partner-tls';

CREATE ENDPOINT orders_ep ON shop PATH '/orders' TYPE HTTP;
CREATE ENDPOINT orders_pb_ep ON shop PATH '/orders.pb' TYPE HTTP;
CREATE ENDPOINT payments_ep ON payments_site PATH '/payments' TYPE HTTP;

-- Two routes: the whole order, and an audit digest built with expressions. A body that does not
-- decode becomes an error record.
CREATE HTTP ENDPOINT INGESTOR orders_in
  FROM orders_ep MODE NO ACK
  ON QUIESCE BUFFER MAX SIZE 4MiB ON OVERFLOW DROP OLDEST
  DECODE USING orders_json MAX BODY SIZE 512KiB
  TO orders
    INHERIT ALL
    UNBRANCHED
    FLUSH IMMEDIATE
    ON MESSAGE ERROR SEND TO errors
      SET source = 'orders_in', code = error.code, message = error.message, payload = error.payload
  TO order_audit
    SET order_id = input.order_id,
        customer = lower(trim(input.customer)),
        total = to_string(input.amount) || ' ' || upper(input.currency),
        received_at = coalesce(input.placed_at, now()),
        host = metadata.host
    FLUSH IMMEDIATE
    ON MESSAGE ERROR LOG
  ON GENERAL ERROR LOG;

CREATE HTTP ENDPOINT INGESTOR orders_pb_in
  FROM orders_pb_ep MODE NO_ACK
  ON QUIESCE DROP
  DECODE USING orders_pb
  TO orders
    INHERIT ALL, SET currency = upper(input.currency)
    FLUSH IMMEDIATE
    ON MESSAGE ERROR SEND TO errors
      SET source = 'orders_pb_in', code = error.code, message = error.message
  ON GENERAL ERROR LOG;

-- An error handler may INHERIT ALL: what decoded is copied (null when nothing did).
CREATE HTTP ENDPOINT INGESTOR payments_in
  FROM payments_ep MODE NO ACK
  ON QUIESCE BUFFER MAX SIZE 1MiB
  DECODE USING payments_wire_json
  TO payments
    INHERIT ALL
    FLUSH IMMEDIATE
    ON MESSAGE ERROR SEND TO payment_errors INHERIT ALL SET code = error.code, message = error.message
  ON GENERAL ERROR LOG;

-- Orders and payments POSTed as JSON are paired by order id. Used by the end-to-end tests and a good
-- second example after quickstart:
--
--   npx streamroute node --manifests examples/payments
--   curl -X POST -H 'Host: localhost' --data '{"order_id":"A1","amount":250}' http://127.0.0.1:8080/web/orders
--   curl -X POST -H 'Host: localhost' --data '{"payment_id":"P1","order_id":"A1","amount":250}' \
--     http://127.0.0.1:8080/payments
--   npx streamroute subscribe me paid_first

-- What an order body decodes to, and the order as the graph carries it (with its channel).
CREATE SCHEMA order_in (order_id STRING, amount I64);
CREATE SCHEMA orders (order_id STRING, amount I64, channel STRING);
CREATE SCHEMA payments (payment_id STRING, order_id STRING, amount I64);
CREATE SCHEMA paid (order_id STRING, payment_id STRING, channel STRING, ordered I64, paid I64);
CREATE SCHEMA errors (source STRING, code STRING, message STRING, payload STRING OPTIONAL);

CREATE WIRE JSON SCHEMA order_body MODE STRICT (order_id string, amount integer);
CREATE WIRE JSON SCHEMA payment_body MODE STRICT (payment_id string, order_id string, amount integer);
CREATE CODEC order_json FROM WIRE JSON SCHEMA order_body TO SCHEMA order_in;
CREATE CODEC payment_json FROM WIRE JSON SCHEMA payment_body TO SCHEMA payments;

CREATE RELAY web_orders SCHEMA orders UNBRANCHED;
CREATE RELAY shop_orders SCHEMA orders UNBRANCHED;
CREATE RELAY orders SCHEMA orders UNBRANCHED;
CREATE RELAY payments SCHEMA payments UNBRANCHED;
CREATE RELAY paid_first SCHEMA paid UNBRANCHED;
CREATE RELAY paid_last SCHEMA paid UNBRANCHED;
CREATE RELAY unpaid SCHEMA orders UNBRANCHED;
CREATE RELAY errors SCHEMA errors UNBRANCHED;

CREATE VHOST local localhost;
CREATE ENDPOINT web_ep ON local PATH '/web/orders' TYPE HTTP;
CREATE ENDPOINT shop_ep ON local PATH '/shop/orders' TYPE HTTP;
CREATE ENDPOINT payments_ep ON local PATH '/payments' TYPE HTTP;

-- The channel an order came through is set by the route; the body does not carry it. A body that does
-- not decode becomes an error record (with the body as text) instead of a log line.
CREATE HTTP ENDPOINT INGESTOR web_in
  FROM web_ep MODE NO ACK
  ON QUIESCE BUFFER MAX SIZE 1MiB DECODE USING order_json
  TO web_orders
    INHERIT ALL SET channel = 'web'
    UNBRANCHED
    FLUSH IMMEDIATE
    ON MESSAGE ERROR SEND TO errors
      SET source = 'web_in', code = error.code, message = error.message, payload = error.payload
  ON GENERAL ERROR LOG;

CREATE HTTP ENDPOINT INGESTOR shop_in
  FROM shop_ep MODE NO ACK
  ON QUIESCE BUFFER MAX SIZE 1MiB DECODE USING order_json
  TO shop_orders
    INHERIT ALL SET channel = 'shop'
    UNBRANCHED
    FLUSH IMMEDIATE
    ON MESSAGE ERROR LOG
  ON GENERAL ERROR LOG;

CREATE HTTP ENDPOINT INGESTOR payments_in
  FROM payments_ep MODE NO ACK
  ON QUIESCE BUFFER MAX SIZE 1MiB DECODE USING payment_json
  TO payments
    INHERIT ALL
    UNBRANCHED
    FLUSH IMMEDIATE
    ON MESSAGE ERROR SEND TO errors
      SET source = 'payments_in', code = error.code, message = error.message, payload = error.payload
  ON GENERAL ERROR LOG;

-- Both channels become one stream of orders.
CREATE JUNCTION all_orders
  FROM web_orders, shop_orders
  TO orders
    INHERIT ALL
    UNBRANCHED
    FLUSH IMMEDIATE
    ON MESSAGE ERROR LOG
  ON GENERAL ERROR LOG;

-- A payment pays the OLDEST waiting order with its id; an order unpaid after 30 s goes to `unpaid`,
-- a payment without an order is dropped.
CREATE CORRELATOR pay_first
  LEFT FROM orders
  RIGHT FROM payments
  CORRELATE WHERE left.order_id = right.order_id
  MATCH EARLIEST
  MAX TIME 30s
  ON CORRELATION TIMEOUT SEND TO unpaid, DROP
  UNBRANCHED
  TO paid_first
    SET order_id = left.order_id, payment_id = right.payment_id, channel = left.channel,
        ordered = left.amount, paid = right.amount
    FLUSH IMMEDIATE
    ON MESSAGE ERROR LOG;

-- The same pairing, but a payment pays the NEWEST waiting order; whatever times out is dropped.
CREATE CORRELATOR pay_last
  LEFT FROM orders
  RIGHT FROM payments
  CORRELATE WHERE left.order_id = right.order_id
  MATCH LATEST
  MAX TIME 30s
  ON CORRELATION TIMEOUT DROP, DROP
  UNBRANCHED
  TO paid_last
    SET order_id = left.order_id, payment_id = right.payment_id, channel = left.channel,
        ordered = left.amount, paid = right.amount
    FLUSH IMMEDIATE
    ON MESSAGE ERROR LOG;

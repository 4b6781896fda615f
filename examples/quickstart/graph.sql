-- The smallest useful graph: JSON orders POSTed to http://localhost:8080/orders become records on the
-- relay `orders`.
--
--   npx streamroute validate examples/quickstart
--   npx streamroute compile examples/quickstart

-- The records the graph carries.
CREATE SCHEMA orders (order_id STRING, amount I64);

-- What a POST body must look like; STRICT rejects missing, extra and mistyped keys.
CREATE WIRE JSON SCHEMA orders_wire MODE STRICT (order_id string, amount integer);

-- One POST body becomes one record of `orders`.
CREATE CODEC orders_json FROM WIRE JSON SCHEMA orders_wire TO SCHEMA orders;

-- The stream the records are placed on.
CREATE RELAY orders SCHEMA orders UNBRANCHED;

-- Requests for Host `localhost` and path /orders …
CREATE VHOST local localhost;
CREATE ENDPOINT orders_ep ON local PATH '/orders' TYPE HTTP;

-- … are decoded and every field is copied onto the relay.
CREATE HTTP ENDPOINT INGESTOR orders_in
  FROM orders_ep MODE NO ACK
  ON QUIESCE BUFFER MAX SIZE 1MiB DECODE USING orders_json
  TO orders
    INHERIT ALL
    UNBRANCHED
    FLUSH IMMEDIATE
    ON MESSAGE ERROR LOG
  ON GENERAL ERROR LOG;

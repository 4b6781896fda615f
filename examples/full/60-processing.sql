-- The full example, part 6: a junction and a correlator.

-- A junction merges relays of the same schema; INHERIT ALL copies the fields the target has (the
-- sender's address is left behind).
CREATE JUNCTION syslog_merge
  FROM syslog_plain, syslog_secure
  TO syslog_forward
    INHERIT ALL
    UNBRANCHED
    FLUSH IMMEDIATE
    ON MESSAGE ERROR LOG
  ON GENERAL ERROR LOG;

-- Pairs each order with its payment. An order without a payment after 30 seconds goes, unchanged,
-- to unpaid_orders (same schema as the left side); a payment without an order is dropped.
-- Routes are SET-only and assign every required field of paid_orders; card_number stays SENSITIVE.
CREATE CORRELATOR order_payments
  LEFT FROM orders
  RIGHT FROM payments
  CORRELATE WHERE left.order_id = right.order_id AND upper(left.currency) = upper(right.currency)
  MATCH EARLIEST
  MAX TIME 30s
  MAX PENDING 50000
  ON CORRELATION TIMEOUT SEND TO unpaid_orders, DROP
  UNBRANCHED
  TO paid_orders
    SET order_id = left.order_id,
        customer = left.customer,
        amount = right.amount,
        payment_id = right.payment_id,
        matched_at = now(),
        card_number = left.card_number
    FLUSH IMMEDIATE
    ON MESSAGE ERROR SEND TO errors
      SET source = 'order_payments', code = error.code, message = error.message, ref = left.order_id;

-- The full example, part 3: relays.

CREATE RELAY orders SCHEMA orders UNBRANCHED;
CREATE RELAY unpaid_orders SCHEMA orders UNBRANCHED;
CREATE RELAY payments SCHEMA payments UNBRANCHED;
CREATE RELAY paid_orders SCHEMA paid_orders UNBRANCHED;
CREATE RELAY order_audit SCHEMA order_audit UNBRANCHED;
CREATE RELAY errors SCHEMA errors UNBRANCHED;
CREATE RELAY payment_errors SCHEMA payment_errors UNBRANCHED;

CREATE RELAY syslog_plain SCHEMA syslog_event UNBRANCHED;
CREATE RELAY syslog_secure SCHEMA syslog_event UNBRANCHED;
CREATE RELAY syslog_forward SCHEMA syslog_line UNBRANCHED;

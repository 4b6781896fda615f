-- Two independent mistakes: both must be reported, each at its own line and column.
CREATE SCHEMA orders (order_id STRING, amount I64);
CREATE RELAY orders SCHEMA order UNBRANCHED;
CREATE RELAY audit SCHEM orders UNBRANCHED;

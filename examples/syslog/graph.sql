-- A syslog relay on one machine: lines sent to 127.0.0.1:5514 (UDP or TCP, RFC 5424 or RFC 3164, octet
-- counted or one per line) land on the relay `lines` with the sender's address, and are forwarded as
-- RFC 5424 over TCP to 127.0.0.1:5515, where a second listener takes them onto `forwarded`.
-- docs/syslog-wire.md walks through it:
--
--   npx streamroute node --manifests examples/syslog
--   logger -n 127.0.0.1 -P 5514 -T --rfc5424 -t demo 'hello over TCP'
--   logger -n 127.0.0.1 -P 5514 -d --rfc3164 -t demo 'hello over UDP'
--   npx streamroute subscribe -d default tail forwarded
--   npx streamroute -d default -c 'DESCRIBE EMITTER forward_out'

-- Every field of the SYSLOG wire schema, each with the shape docs/codecs-syslog.md ("Fields") requires.
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

-- The same line, with where it came from.
CREATE SCHEMA received_line (
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

-- RFC 5424 and RFC 3164 are detected per message; encoding writes RFC 5424.
CREATE CODEC syslog FROM SYSLOG TO SCHEMA syslog_line;

CREATE RELAY lines SCHEMA received_line UNBRANCHED;
CREATE RELAY forwarded SCHEMA received_line UNBRANCHED;

-- UDP and TCP may share a port number: they are different sockets.
CREATE CLIENT local_udp TYPE SYSLOG CONFIG { 'protocol' = 'udp', 'addr' = '127.0.0.1:5514' };
CREATE CLIENT local_tcp TYPE SYSLOG CONFIG { 'protocol' = 'tcp', 'addr' = '127.0.0.1:5514' };
CREATE CLIENT forward_tcp TYPE SYSLOG CONFIG { 'protocol' = 'tcp', 'addr' = '127.0.0.1:5515' };

-- UDP cannot push back, so a reload keeps reading into a bounded buffer; TCP simply stops reading.
CREATE SYSLOG LISTENER INGESTOR udp_in
  FROM local_udp
  MODE NO ACK
  ON QUIESCE BUFFER MAX SIZE 4MiB ON OVERFLOW DROP OLDEST
  DECODE USING syslog
  TO lines
    INHERIT ALL SET peer_addr = metadata.peer_addr
    UNBRANCHED
    FLUSH IMMEDIATE
    ON MESSAGE ERROR LOG
  ON GENERAL ERROR LOG;

CREATE SYSLOG LISTENER INGESTOR tcp_in
  FROM local_tcp
  MODE NO ACK
  ON QUIESCE SUSPEND
  DECODE USING syslog
  TO lines
    INHERIT ALL SET peer_addr = metadata.peer_addr
    UNBRANCHED
    FLUSH IMMEDIATE
    ON MESSAGE ERROR LOG
  ON GENERAL ERROR LOG;

-- Every line goes out again, RFC 5424, octet-counted over one TCP connection. While 127.0.0.1:5515
-- refuses, the emitter keeps its batch and retries: 200ms, 400ms, … at most 10s.
CREATE EMITTER forward_out
  FROM lines
  TO SYSLOG forward_tcp
  MODE NO_ACK RETRY POLICY BACKOFF 200ms MAX 10s
  ENCODE USING syslog
  FLUSH IMMEDIATE
  ON MESSAGE ERROR LOG
  ON GENERAL ERROR LOG;

-- The receiving end of the relay, in the same graph so the example needs nothing else.
CREATE SYSLOG LISTENER INGESTOR forward_in
  FROM forward_tcp
  MODE NO ACK
  ON QUIESCE SUSPEND
  DECODE USING syslog
  TO forwarded
    INHERIT ALL SET peer_addr = metadata.peer_addr
    UNBRANCHED
    FLUSH IMMEDIATE
    ON MESSAGE ERROR LOG
  ON GENERAL ERROR LOG;

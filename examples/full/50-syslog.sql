-- The full example, part 5: syslog listeners. Every node listens on each client's addr; no two
-- listeners share an address and protocol.

CREATE CLIENT syslog_udp TYPE SYSLOG
  CONFIG { 'protocol' = 'udp', 'addr' = '0.0.0.0:5514', 'max_message_size' = 65507 };

CREATE CLIENT syslog_tcp TYPE SYSLOG
  CONFIG { 'protocol' = 'tcp', 'addr' = '0.0.0.0:5514', 'max_message_size' = '131072' };

CREATE CLIENT syslog_tcp_legacy TYPE SYSLOG
  CONFIG { 'protocol' = 'tcp', 'addr' = '0.0.0.0:1514' };

-- TLS files come from a mounted resource: `{{ pki }}/server.crt` is server.crt in resource pki.
-- With tls_ca_file every sender must present a certificate signed by that CA (mutual TLS).
CREATE CLIENT syslog_tls TYPE SYSLOG MOUNT pki VERSION 1
  CONFIG {
    'protocol' = 'tls',
    'addr' = '0.0.0.0:6514',
    'tls_cert_file' = '{{ pki }}/server.crt',
    'tls_key_file' = '{{ pki }}/server.key',
    'tls_ca_file' = '{{ pki }}/ca.crt'
  };

-- Every ON QUIESCE form. SUSPEND stops reading (UDP may overflow the kernel buffer; TCP and TLS push
-- back); BUFFER keeps reading into a bounded buffer; DROP keeps reading and discards.
CREATE IF NOT EXISTS SYSLOG LISTENER INGESTOR syslog_udp_in
  FROM syslog_udp
  MODE NO ACK
  ON QUIESCE SUSPEND
  DECODE USING syslog
  TO syslog_plain
    INHERIT ALL SET peer_addr = metadata.peer_addr
    UNBRANCHED
    FLUSH IMMEDIATE
    ON MESSAGE ERROR LOG
  ON GENERAL ERROR LOG;

CREATE IF NOT EXISTS SYSLOG LISTENER INGESTOR syslog_tcp_in
  FROM syslog_tcp
  MODE NO ACK
  ON QUIESCE BUFFER MAX SIZE 8MiB ON OVERFLOW DROP OLDEST
  DECODE USING syslog
  TO syslog_plain
    INHERIT ALL SET peer_addr = metadata.peer_addr
    FLUSH IMMEDIATE
    ON MESSAGE ERROR LOG
  ON GENERAL ERROR LOG;

CREATE SYSLOG LISTENER INGESTOR syslog_legacy_in
  FROM syslog_tcp_legacy
  MODE NO ACK
  ON QUIESCE DROP
  DECODE USING syslog
  TO syslog_plain
    INHERIT ALL SET peer_addr = metadata.peer_addr, app_name = coalesce(input.app_name, 'legacy')
    FLUSH IMMEDIATE
    ON MESSAGE ERROR SEND TO errors SET source = 'syslog_legacy_in', code = error.code, message = error.message
  ON GENERAL ERROR LOG;

CREATE SYSLOG LISTENER INGESTOR syslog_tls_in
  FROM syslog_tls
  MODE NO ACK
  ON QUIESCE BUFFER MAX SIZE 16MiB ON OVERFLOW DROP NEWEST
  DECODE USING syslog
  TO syslog_secure
    INHERIT ALL SET peer_addr = metadata.peer_addr
    FLUSH IMMEDIATE
    ON MESSAGE ERROR LOG
  ON GENERAL ERROR LOG;

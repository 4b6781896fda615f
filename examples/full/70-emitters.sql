-- The full example, part 7: emitters.

CREATE CLIENT collector_udp TYPE SYSLOG
  CONFIG { 'protocol' = 'udp', 'addr' = 'collector.example.com:514' };

-- An emitter client over TLS: the server is verified against tls_ca_file; a certificate and key
-- (both or neither) authenticate this side.
CREATE CLIENT audit_tls TYPE SYSLOG MOUNT pki VERSION 1
  CONFIG {
    'protocol' = 'tls',
    'addr' = 'audit.example.com:6514',
    'tls_ca_file' = '{{ pki }}/audit-ca.crt',
    'tls_cert_file' = '{{ pki }}/client.crt',
    'tls_key_file' = '{{ pki }}/client.key'
  };

CREATE CLIENT archive_tcp TYPE SYSLOG
  CONFIG { 'protocol' = 'tcp', 'addr' = '[2001:db8::10]:601', 'framing' = 'non-transparent' };

-- Forward every syslog line, RFC 5424 encoded; a batch of up to 20 travels as one message.
CREATE EMITTER syslog_out
  FROM syslog_forward
  TO SYSLOG collector_udp
  MODE NO_ACK RETRY POLICY BACKOFF 500ms MAX 30s
  ENCODE USING syslog
  BATCH MAX SIZE 20 MAX TIME 1s
  FLUSH IMMEDIATE
  ON MESSAGE ERROR LOG
  ON GENERAL ERROR LOG;

-- Paid orders leave as JSON over TLS. The card number is SENSITIVE, so the emitter must allow it.
CREATE EMITTER paid_orders_out
  FROM paid_orders
  TO SYSLOG audit_tls
  MODE NO_ACK RETRY POLICY BACKOFF 1s MAX 5m
  ENCODE USING paid_orders_json ALLOW SENSITIVE (card_number)
  BATCH MAX SIZE 100 MAX TIME 2s
  FLUSH IMMEDIATE
  ON MESSAGE ERROR SEND TO errors
    SET source = 'paid_orders_out', code = error.code, message = error.message, ref = input.order_id
  ON GENERAL ERROR LOG;

CREATE EMITTER unpaid_out
  FROM unpaid_orders
  TO SYSLOG archive_tcp
  MODE NO_ACK RETRY POLICY BACKOFF 2s MAX 1h
  ENCODE USING orders_pb ALLOW SENSITIVE (card_number)
  FLUSH IMMEDIATE
  ON MESSAGE ERROR LOG
  ON GENERAL ERROR LOG;

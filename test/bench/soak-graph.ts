// The soak benchmark's graph (test/bench/soak.bench.ts), run through the control API so that every object
// is a statement object the bench may replace later. Orders arrive over HTTP as JSON (a wire schema and a
// JAQ program), YAML, TOML, XML and CBOR, one order per body, onto the relay `orders`; payments (JSON wire
// schema) are paired with orders by a correlator; syslog lines arrive over UDP, TCP and TLS onto the relay
// `lines`, which an emitter forwards (RFC 5424, octet-counted TCP) to a sink the bench runs. Every ingestor
// says ON MESSAGE ERROR LOG, so a bad payload is one counted message error of its ingestor.
import { readFileSync } from 'node:fs';
import type { TestPki } from '../support/test-pki.js';

/** The formats the bench posts, with the path of each one's ingestor. */
export const HTTP_FORMATS = ['wire', 'json', 'yaml', 'toml', 'xml', 'cbor'] as const;
export type HttpFormat = (typeof HTTP_FORMATS)[number];

/** The syslog transports, each with its own listener ingestor `<transport>_in`. */
export const SYSLOG_TRANSPORTS = ['udp', 'tcp', 'tls'] as const;
export type SyslogTransport = (typeof SYSLOG_TRANSPORTS)[number];

export interface SoakPorts {
  udp: number;
  tcp: number;
  tls: number;
  sink: number;
}

const FIELDS =
  'facility U8, severity U8, timestamp DATETIME OPTIONAL, hostname STRING OPTIONAL, app_name STRING OPTIONAL, ' +
  'proc_id STRING OPTIONAL, msg_id STRING OPTIONAL, structured_data STRING OPTIONAL, message STRING';

const TAIL = 'FLUSH IMMEDIATE ON MESSAGE ERROR LOG ON GENERAL ERROR LOG';

/** The JAQ program of the YAML codec; the bench alternates between two equal forms to force reloads. */
export function yamlProgram(variant: number): string {
  return variant % 2 === 0
    ? '{order_id: .id, customer, amount, currency}'
    : '{order_id: .id, customer: .customer, amount: .amount, currency: .currency}';
}

function httpIngestor(format: HttpFormat, codec: string, relay = 'orders'): string {
  return `CREATE ENDPOINT ${format}_ep ON local PATH '/orders.${format}' TYPE HTTP;
CREATE HTTP ENDPOINT INGESTOR ${format}_in FROM ${format}_ep MODE NO ACK
  ON QUIESCE BUFFER MAX SIZE 4MiB DECODE USING ${codec}
  TO ${relay} INHERIT ALL UNBRANCHED ${TAIL};`;
}

function syslogIngestor(transport: SyslogTransport, quiesce: string): string {
  return `CREATE SYSLOG LISTENER INGESTOR ${transport}_in FROM ${transport}_client MODE NO ACK
  ON QUIESCE ${quiesce} DECODE USING syslog
  TO lines INHERIT ALL UNBRANCHED ${TAIL};`;
}

/** The syslog emitter; `backoff` (ms) is what the bench changes to replace it while records flow. */
export function emitterStatement(backoff: number): string {
  return `CREATE OR REPLACE EMITTER forward FROM lines TO SYSLOG sink_client
  MODE NO_ACK RETRY POLICY BACKOFF ${backoff}ms MAX 2s ENCODE USING syslog ${TAIL};`;
}

/** Everything but TLS: one script for the control API. */
export function baseGraph(ports: SoakPorts): string {
  return `
CREATE SCHEMA orders (order_id STRING, customer STRING, amount I64, currency STRING);
CREATE SCHEMA payments (payment_id STRING, order_id STRING, amount I64);
CREATE SCHEMA paid (order_id STRING, payment_id STRING, amount I64);
CREATE SCHEMA line (${FIELDS});

CREATE WIRE JSON SCHEMA order_body MODE STRICT (order_id string, customer string, amount integer, currency string);
CREATE WIRE JSON SCHEMA payment_body MODE STRICT (payment_id string, order_id string, amount integer);
CREATE CODEC orders_wire FROM WIRE JSON SCHEMA order_body TO SCHEMA orders;
CREATE CODEC payments_wire FROM WIRE JSON SCHEMA payment_body TO SCHEMA payments;
CREATE CODEC orders_json FROM JSON TO SCHEMA orders WITH JAQ TRANSFORMATIONS
  ON INGESTION '.orders[] | {order_id: .id, customer: .customer.name, amount, currency}';
CREATE CODEC orders_yaml FROM YAML TO SCHEMA orders WITH JAQ TRANSFORMATIONS ON INGESTION '${yamlProgram(0)}';
CREATE CODEC orders_toml FROM TOML TO SCHEMA orders WITH JAQ TRANSFORMATIONS
  ON INGESTION '.order | {order_id: .id, customer, amount, currency}';
CREATE CODEC orders_xml FROM XML TO SCHEMA orders WITH JAQ TRANSFORMATIONS
  ON INGESTION '.order | {order_id: .["@id"], customer: .customer[0], amount: (.amount[0] | tonumber), currency: .currency[0]}';
CREATE CODEC orders_cbor FROM CBOR TO SCHEMA orders WITH JAQ TRANSFORMATIONS ON INGESTION '.';
CREATE CODEC syslog FROM SYSLOG TO SCHEMA line;

CREATE RELAY orders SCHEMA orders UNBRANCHED;
CREATE RELAY payments SCHEMA payments UNBRANCHED;
CREATE RELAY paid SCHEMA paid UNBRANCHED;
CREATE RELAY lines SCHEMA line UNBRANCHED;
CREATE RELAY tapped SCHEMA orders UNBRANCHED;

CREATE VHOST local localhost;
${HTTP_FORMATS.map((format) => httpIngestor(format, `orders_${format}`)).join('\n')}
CREATE ENDPOINT payments_ep ON local PATH '/payments' TYPE HTTP;
CREATE HTTP ENDPOINT INGESTOR payments_in FROM payments_ep MODE NO ACK
  ON QUIESCE BUFFER MAX SIZE 4MiB DECODE USING payments_wire
  TO payments INHERIT ALL UNBRANCHED ${TAIL};

CREATE CORRELATOR pay
  LEFT FROM orders RIGHT FROM payments
  CORRELATE WHERE left.order_id = right.order_id
  MATCH EARLIEST MAX TIME 10s
  ON CORRELATION TIMEOUT DROP, DROP
  UNBRANCHED
  TO paid SET order_id = left.order_id, payment_id = right.payment_id, amount = right.amount
    FLUSH IMMEDIATE ON MESSAGE ERROR LOG;

CREATE CLIENT udp_client TYPE SYSLOG CONFIG { 'protocol' = 'udp', 'addr' = '127.0.0.1:${ports.udp}' };
CREATE CLIENT tcp_client TYPE SYSLOG CONFIG { 'protocol' = 'tcp', 'addr' = '127.0.0.1:${ports.tcp}' };
CREATE CLIENT sink_client TYPE SYSLOG CONFIG { 'protocol' = 'tcp', 'addr' = '127.0.0.1:${ports.sink}' };
${syslogIngestor('udp', 'BUFFER MAX SIZE 4MiB ON OVERFLOW DROP OLDEST')}
${syslogIngestor('tcp', 'SUSPEND')}
${emitterStatement(100)}
`;
}

/** The TLS listener: the PKI uploaded as resource `pki`, mounted by the client. */
export function tlsGraph(port: number): string {
  return `
CREATE RESOURCE pki;
UPLOAD RESOURCE pki VERSION 'pki';
CREATE CLIENT tls_client TYPE SYSLOG MOUNT pki VERSION LATEST CONFIG {
  'protocol' = 'tls', 'addr' = '127.0.0.1:${port}',
  'tls_cert_file' = '{{ pki }}/server.crt', 'tls_key_file' = '{{ pki }}/server.key' };
${syslogIngestor('tls', 'SUSPEND')}
`;
}

/** The control API's `uploads` for tlsGraph: the server certificate and key of the test PKI. */
export function tlsUploads(pki: TestPki): unknown[] {
  const file = (path: string, from: string) => ({
    path,
    base64: readFileSync(from).toString('base64'),
  });
  return [
    {
      resource: 'pki',
      directory: 'pki',
      files: [file('server.crt', pki.server.certFile), file('server.key', pki.server.keyFile)],
    },
  ];
}

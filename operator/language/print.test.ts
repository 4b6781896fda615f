import assert from 'node:assert/strict';
import { API_VERSION, type GraphKind, type GraphObject, type SpecByKind } from '../api/index.js';
import { KIND_EXAMPLES } from './example-objects.js';
import { isDeclaration } from './ast.js';
import { parseScript } from './parse.js';
import { printObject, printObjects } from './print.js';

function object<K extends GraphKind>(kind: K, name: string, spec: SpecByKind[K]): GraphObject<K> {
  return { apiVersion: API_VERSION, kind, metadata: { name }, spec };
}

/** Lines of a statement written with a leading `|` margin, so the expected layout is visible. */
function text(lines: string): string {
  return lines
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => line.replace(/^\s*\|/, ''))
    .join('\n');
}

const jaqCodec = (ingestion: string) =>
  object('Codec', 'c', { from: 'JSON', schema: 's', jaq: { ingestion } });

describe('printObject', () => {
  it('prints a schema with one field per line and its flags', () => {
    assert.equal(
      printObject(KIND_EXAMPLES.Schema),
      text(`
        |CREATE SCHEMA orders (
        |  order_id STRING,
        |  amount I64,
        |  placed_at DATETIME OPTIONAL,
        |  card_number STRING OPTIONAL SENSITIVE
        |);`),
    );
  });

  it('prints short declarations on one line, as docs/language.md writes them', () => {
    assert.equal(printObject(KIND_EXAMPLES.Relay), 'CREATE RELAY orders SCHEMA orders UNBRANCHED;');
    assert.equal(
      printObject(KIND_EXAMPLES.Endpoint),
      "CREATE ENDPOINT orders_post ON shop PATH '/orders' TYPE HTTP;",
    );
    assert.equal(printObject(KIND_EXAMPLES.Resource), 'CREATE RESOURCE order_protos;');
    assert.equal(
      printObject(object('Vhost', 'v', { hostnames: ['a.example.com', 'b.example.com'] })),
      'CREATE VHOST v a.example.com, b.example.com;',
    );
  });

  it('turns names into identifiers (- becomes _)', () => {
    const relay = object('Relay', 'web-orders-2', { schema: 'order-v2', branching: 'UNBRANCHED' });
    assert.equal(printObject(relay), 'CREATE RELAY web_orders_2 SCHEMA order_v2 UNBRANCHED;');
  });

  it('prints an ingestor with its route clauses indented under TO', () => {
    assert.equal(
      printObject(KIND_EXAMPLES.HttpIngestor),
      text(`
        |CREATE HTTP ENDPOINT INGESTOR orders_in
        |  FROM orders_post
        |  MODE NO ACK
        |  ON QUIESCE BUFFER MAX SIZE 1MiB ON OVERFLOW DROP OLDEST
        |  DECODE USING order_json
        |  MAX BODY SIZE 4MiB
        |  TO orders
        |    INHERIT ALL
        |    UNBRANCHED
        |    FLUSH IMMEDIATE
        |    ON MESSAGE ERROR SEND TO rejected
        |      SET code = error.code,
        |          reason = error.message
        |  ON GENERAL ERROR LOG;`),
    );
  });

  it('leaves UNBRANCHED out of correlator routes (the correlator states it once)', () => {
    assert.equal(
      printObject(KIND_EXAMPLES.Correlator),
      text(`
        |CREATE CORRELATOR order_payments
        |  LEFT FROM orders
        |  RIGHT FROM payments
        |  CORRELATE WHERE left.order_id = right.order_id AND right.amount >= left.amount
        |  MATCH EARLIEST
        |  MAX TIME 30s
        |  MAX PENDING 50000
        |  ON CORRELATION TIMEOUT SEND TO unpaid_orders, DROP
        |  UNBRANCHED
        |  TO paid_orders
        |    SET order_id = left.order_id,
        |        amount = left.amount,
        |        paid_at = right.paid_at
        |    FLUSH IMMEDIATE
        |    ON MESSAGE ERROR LOG;`),
    );
  });

  it('prints an emitter in the clause order of docs/language.md "Emitters"', () => {
    const emitter = object('Emitter', 'out', {
      ...KIND_EXAMPLES.Emitter.spec,
      allowSensitive: ['card_number', 'iban'],
      onMessageError: { action: 'LOG' },
    });
    assert.equal(
      printObject(emitter),
      text(`
        |CREATE EMITTER out
        |  FROM audit_lines
        |  TO SYSLOG audit_collector
        |  MODE NO_ACK
        |  RETRY POLICY BACKOFF 500ms MAX 30s
        |  ENCODE USING syslog
        |  ALLOW SENSITIVE (card_number, iban)
        |  BATCH MAX SIZE 100 MAX TIME 1s
        |  FLUSH IMMEDIATE
        |  ON MESSAGE ERROR LOG
        |  ON GENERAL ERROR LOG;`),
    );
  });

  it('prints a protobuf codec in the rigid clause order of docs/language.md "Codecs"', () => {
    const codec = object('Codec', 'order-pb', {
      from: 'PROTOBUF',
      protobuf: {
        using: { resource: 'protos', version: 2 },
        file: 'shop.proto',
        include: '.',
        message: 'shop.v1.Order',
      },
      schema: 'orders',
      jaq: { ingestion: '.' },
      encodeRfc3339: ['placed_at', 'paid_at'],
    });
    assert.equal(
      printObject(codec),
      text(`
        |CREATE CODEC order_pb
        |  FROM PROTOBUF
        |  USING RESOURCE protos VERSION 2
        |  CONFIG { 'file' = 'shop.proto', 'include' = '.' }
        |  MESSAGE 'shop.v1.Order'
        |  TO SCHEMA orders
        |  WITH JAQ TRANSFORMATIONS
        |    ON INGESTION '.'
        |  ENCODE placed_at AS RFC3339, paid_at AS RFC3339;`),
    );
  });

  it('prints wire schema and SYSLOG codecs without a JAQ clause', () => {
    const wire = object('Codec', 'w', { from: 'WIRE_JSON', wireSchema: 'order-wire', schema: 'orders' });
    assert.equal(
      printObject(wire),
      'CREATE CODEC w\n  FROM WIRE JSON SCHEMA order_wire\n  TO SCHEMA orders;',
    );
    const syslog = object('Codec', 'sys', { from: 'SYSLOG', schema: 'lines' });
    assert.equal(printObject(syslog), 'CREATE CODEC sys\n  FROM SYSLOG\n  TO SCHEMA lines;');
  });

  it('writes CONFIG keys in docs/language.md’s order with snake_case names, whatever the object order', () => {
    const client = object('SyslogClient', 'emit-tcp', {
      config: { framing: 'non-transparent', addr: 'collector.example.com:514', protocol: 'tcp' },
    });
    assert.equal(
      printObject(client),
      text(`
        |CREATE CLIENT emit_tcp
        |  TYPE SYSLOG
        |  CONFIG { 'protocol' = 'tcp', 'addr' = 'collector.example.com:514', 'framing' = 'non-transparent' };`),
    );
  });

  it('breaks a CONFIG block that does not fit on one line into one entry per line', () => {
    assert.match(printObject(KIND_EXAMPLES.SyslogClient), /CONFIG \{\n {4}'protocol' = 'tls',\n/);
    assert.match(printObject(KIND_EXAMPLES.SyslogClient), /'max_message_size' = 65536,/);
    assert.match(
      printObject(KIND_EXAMPLES.SyslogClient),
      /'tls_ca_file' = '\{\{ pki \}\}\/clients-ca.crt'\n {2}\};$/,
    );
  });

  it('doubles single quotes inside strings', () => {
    const endpoint = object('Endpoint', 'e', { vhost: 'v', path: "/it's", type: 'HTTP' });
    assert.equal(printObject(endpoint), "CREATE ENDPOINT e ON v PATH '/it''s' TYPE HTTP;");
  });

  it('prints vhost TLS from a mounted resource or from a Secret', () => {
    assert.equal(
      printObject(KIND_EXAMPLES.Vhost),
      text(`
        |CREATE VHOST shop shop.example.com, api.shop.example.com
        |  TLS MOUNT certs VERSION LATEST
        |  CONFIG { 'tls_cert_file' = '{{ certs }}/tls.crt', 'tls_key_file' = '{{ certs }}/tls.key' };`),
    );
    const secret = object('Vhost', 'v', { hostnames: ['a.example.com'], tls: { secretName: 'a-tls' } });
    assert.equal(printObject(secret), "CREATE VHOST v a.example.com\n  TLS SECRET 'a-tls';");
  });

  it('quotes a hostname only when it does not match the Vhost pattern (which has no _)', () => {
    const vhost = object('Vhost', 'v', {
      hostnames: ['xn--bcher-kva.example', '10.0.0.1', '-odd', 'my_host.example.com'],
    });
    assert.equal(
      printObject(vhost),
      "CREATE VHOST v xn--bcher-kva.example, 10.0.0.1, '-odd', 'my_host.example.com';",
    );
  });

  describe('JAQ programs', () => {
    const cases: [string, string, string][] = [
      ['a one-line program without quotes', '.orders[]', "'.orders[]'"],
      ['a program with a quote', `{kind: "x", note: 'y'}`, '$jaq${kind: "x", note: \'y\'}$jaq$'],
      ['a multi-line program, exactly', '.orders[]\n| {id}', '$jaq$.orders[]\n| {id}$jaq$'],
      ['a program holding the delimiter', "'$jaq$'", "'''$jaq$'''"],
      ['a program ending so the delimiter would close early', "'a'$jaq", "'''a''$jaq'"],
    ];
    for (const [title, program, printed] of cases) {
      it(`prints ${title}`, () => {
        assert.match(printObject(jaqCodec(program)), new RegExp(`ON INGESTION ${escape(printed)};$`));
      });
    }
  });

  it('writes every digit of a large version (never 1e+21)', () => {
    const codec = object('Codec', 'c', {
      from: 'PROTOBUF',
      protobuf: { using: { resource: 'r', version: 1e21 }, file: 'a.proto', include: '.', message: 'M' },
      schema: 's',
      jaq: { ingestion: '.' },
    });
    assert.match(printObject(codec), /VERSION 1000000000000000000000\n/);
  });

  it('keeps a comma out of reach of a line comment that ends an expression (possible in YAML)', () => {
    const junction = object('Junction', 'j', {
      from: ['a'],
      routes: [
        {
          to: 'r',
          set: [
            { field: 'x', value: 'input.x -- why' },
            { field: 'y', value: 'input.y' },
          ],
          branching: 'UNBRANCHED',
          flush: 'IMMEDIATE',
          onMessageError: { action: 'LOG' },
        },
      ],
    });
    const printed = printObject(junction);
    assert.match(printed, /SET x = input\.x -- why\n,\n {8}y = input\.y\n/);
    const [statement] = parseScript(printed).statements;
    assert.ok(statement !== undefined && isDeclaration(statement) && statement.kind === 'Junction');
    assert.deepEqual(statement.spec.routes[0]?.set, [
      { field: 'x', value: 'input.x' },
      { field: 'y', value: 'input.y' },
    ]);
  });
});

describe('printObjects', () => {
  it('orders by dependency (GRAPH_KINDS), then by name, with a blank line between statements', () => {
    const relayB = object('Relay', 'b', { schema: 's', branching: 'UNBRANCHED' });
    const relayA = object('Relay', 'a', { schema: 's', branching: 'UNBRANCHED' });
    const schema = object('Schema', 's', { fields: [{ name: 'x', type: 'STRING' }] });
    assert.equal(
      printObjects([relayB, relayA, schema]),
      'CREATE SCHEMA s (\n  x STRING\n);\n\nCREATE RELAY a SCHEMA s UNBRANCHED;\n\nCREATE RELAY b SCHEMA s UNBRANCHED;\n',
    );
  });

  it('prints nothing for no objects', () => {
    assert.equal(printObjects([]), '');
  });
});

function escape(literal: string): string {
  return literal.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

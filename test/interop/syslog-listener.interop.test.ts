// Our syslog listeners (UDP, TCP, TLS, mutual TLS) against real senders: util-linux logger (RFC 5424 and
// RFC 3164, UDP and TCP, with and without --octet-count), rsyslog (omfwd: UDP, TCP octet-counted and LF,
// TLS through its openssl and gnutls drivers, octet-counted and LF) and syslog-ng (its syslog() driver:
// RFC 5424 octet-counted; its network() driver: BSD, LF). Each record out of the listener's relay is
// compared field by field with what was sent, and peer_addr is the sender's loopback address.
//
// Peers: bash test/support/install-syslog-peers.sh. A missing peer skips with a console line, or fails
// when CI is set.
import assert from 'node:assert/strict';
import { hostname } from 'node:os';
import { startNodeHarnessWithGraph, type NodeHarness } from '../fixtures/node-harness.js';
import { testPki } from '../support/test-pki.js';
import { LOGGER, freeUdpPort, requireSyslogPeer, runLogger, startPeer } from '../support/syslog-peers.js';
import {
  freeTcpPort,
  requireWireDaemon,
  startRsyslogSender,
  startSyslogNgSender,
  type SenderOutput,
  type WireSender,
} from '../support/syslog-wire-daemons.js';
import {
  SYSLOG_BASE,
  receive,
  syslogClient,
  syslogListener,
  untilDescribed,
  uploadPkiAndRun,
  withoutPeer,
  type WireRecord,
} from '../support/syslog-wire-node.js';

const LISTENERS = ['udp', 'tcp', 'tls', 'mtls'] as const;
type Listener = (typeof LISTENERS)[number];

const SD = '[ex@32473 a="q\\"b\\\\c\\]d"][two@1 x="1"]';
/** In the current year, so that a BSD timestamp (no year) decodes to the same instant. */
const TIME = `${new Date().getUTCFullYear()}-03-04T05:06:07.123456Z`;

/** An RFC 5424 message with every field, and the record it must become. */
function message(text: string): { line: string; record: WireRecord } {
  return {
    line: `<165>1 ${TIME} web-7 shop 4242 ORDER ${SD} ${text}`,
    record: {
      facility: 20,
      severity: 5,
      timestamp: TIME,
      hostname: 'web-7',
      app_name: 'shop',
      proc_id: '4242',
      msg_id: 'ORDER',
      structured_data: SD,
      message: text,
    },
  };
}

/** What BSD (RFC 3164) keeps: no MSGID, no STRUCTURED-DATA. */
const bsd = (record: WireRecord): WireRecord => ({ ...record, msg_id: null, structured_data: null });

describe('syslog listener interop: real senders into our listeners', function () {
  this.timeout(60_000);
  let node: NodeHarness | undefined;
  const ports = {} as Record<Listener, number>;

  before(async function () {
    ports.udp = await freeUdpPort();
    ports.tcp = await freeTcpPort();
    ports.tls = await freeTcpPort();
    ports.mtls = await freeTcpPort();
    const graph = [
      SYSLOG_BASE,
      syslogClient('udp', { protocol: 'udp', addr: `127.0.0.1:${ports.udp}` }),
      syslogClient('tcp', { protocol: 'tcp', addr: `127.0.0.1:${ports.tcp}` }),
      syslogListener('udp'),
      syslogListener('tcp'),
    ].join('\n');
    node = await startNodeHarnessWithGraph(graph);
    const pki = testPki();
    const tls = {
      protocol: 'tls',
      tls_cert_file: '{{ pki }}/server.crt',
      tls_key_file: '{{ pki }}/server.key',
    };
    await uploadPkiAndRun(
      node,
      [pki.server.certFile, pki.server.keyFile, pki.ca.certFile],
      [
        syslogClient('tls', { ...tls, addr: `127.0.0.1:${ports.tls}` }, true),
        syslogClient(
          'mtls',
          { ...tls, addr: `127.0.0.1:${ports.mtls}`, tls_ca_file: '{{ pki }}/ca.crt' },
          true,
        ),
        syslogListener('tls'),
        syslogListener('mtls'),
      ],
    );
    for (const listener of LISTENERS)
      await untilDescribed(node, 'INGESTOR', `${listener}_in`, /state: Running/);
  });
  after(async () => node?.close());

  describe('util-linux logger', function () {
    before(function () {
      requireSyslogPeer(this, 'util-linux logger', LOGGER);
    });

    const SD_ARGS = [
      '--sd-id',
      'ex@32473',
      '--sd-param',
      'a="q\\"b\\\\c\\]d"',
      '--sd-id',
      'two@1',
      '--sd-param',
      'x="1"',
    ];
    const cases: { name: string; listener: Listener; args: string[]; rfc: 5424 | 3164 }[] = [
      { name: 'RFC 5424 over UDP', listener: 'udp', args: ['--rfc5424=notq', '--udp'], rfc: 5424 },
      { name: 'RFC 3164 over UDP', listener: 'udp', args: ['--rfc3164', '--udp'], rfc: 3164 },
      { name: 'RFC 5424 over TCP, LF', listener: 'tcp', args: ['--rfc5424=notq', '--tcp'], rfc: 5424 },
      {
        name: 'RFC 5424 over TCP, octet-counted',
        listener: 'tcp',
        args: ['--rfc5424=notq', '--tcp', '--octet-count'],
        rfc: 5424,
      },
      { name: 'RFC 3164 over TCP, LF', listener: 'tcp', args: ['--rfc3164', '--tcp'], rfc: 3164 },
      {
        name: 'RFC 3164 over TCP, octet-counted',
        listener: 'tcp',
        args: ['--rfc3164', '--tcp', '--octet-count'],
        rfc: 3164,
      },
    ];
    for (const { name, listener, args, rfc } of cases) {
      it(`${name}: every field as logger sent it`, async () => {
        const text = `logger ${name} grüße`;
        const extra = rfc === 5424 ? ['--msgid', 'ID47', ...SD_ARGS] : [];
        const run = { before: Date.now(), pid: 0, after: 0 };
        const [record] = await receive(node!, listener, async () => {
          const args5424 = [...args, '-i', '-t', 'myapp', '-p', 'local4.notice', ...extra];
          run.pid = (
            await runLogger([...args5424, '--server', '127.0.0.1', '--port', String(ports[listener]), text])
          ).pid;
          run.after = Date.now();
        });
        const got = withoutPeer(record!);
        const at = Date.parse(String(got['timestamp']));
        const precision = rfc === 5424 ? 1 : 1000;
        assert.ok(
          at >= Math.floor(run.before / precision) * precision && at <= run.after,
          `${String(got['timestamp'])}`,
        );
        assert.deepEqual(
          { ...got, timestamp: null },
          {
            facility: 20,
            severity: 5,
            timestamp: null,
            hostname: rfc === 5424 ? hostname() : (hostname().split('.')[0] ?? ''),
            app_name: 'myapp',
            proc_id: String(run.pid),
            msg_id: rfc === 5424 ? 'ID47' : null,
            structured_data: rfc === 5424 ? SD : null,
            message: text,
          },
        );
      });
    }
  });

  /** One daemon forwarding to our listeners; `expect` says what its output format keeps. */
  function senderSuite(
    name: 'rsyslog' | 'syslog-ng',
    start: (
      outputs: Record<string, SenderOutput>,
      tls: { ca: string; cert: string; key: string },
    ) => Promise<WireSender>,
    outputs: Record<
      string,
      SenderOutput & { listener: Listener; expect?: (record: WireRecord) => WireRecord }
    >,
  ): void {
    describe(`${name} as a sender`, function () {
      let sender: WireSender | undefined;
      before(async function () {
        requireWireDaemon(this, name);
        const pki = testPki();
        const identity = { ca: pki.ca.certFile, cert: pki.client.certFile, key: pki.client.keyFile };
        const targets = Object.fromEntries(
          Object.entries(outputs).map(([output, spec]) => [output, { ...spec, port: ports[spec.listener] }]),
        );
        sender = await startPeer(this, name, () => start(targets, identity));
      });
      after(async () => sender?.stop());

      for (const [output, spec] of Object.entries(outputs)) {
        it(`${output}: every field arrives as sent`, async () => {
          const { line, record } = message(`${name} ${output} grüße`);
          const [got] = await receive(node!, spec.listener, () => sender!.send(output, line), {
            timeoutMs: 10_000,
          });
          assert.deepEqual(withoutPeer(got!), (spec.expect ?? ((same) => same))(record));
        });
      }
    });
  }

  senderSuite('rsyslog', startRsyslogSender, {
    UDP: { listener: 'udp', transport: 'udp', port: 0 },
    'TCP octet-counted': { listener: 'tcp', transport: 'tcp', port: 0, framing: 'octet-counted' },
    'TCP LF': { listener: 'tcp', transport: 'tcp', port: 0, framing: 'lf' },
    'TLS (openssl driver) octet-counted': { listener: 'tls', transport: 'tls', port: 0, driver: 'ossl' },
    'TLS (gnutls driver) LF': { listener: 'tls', transport: 'tls', port: 0, driver: 'gtls', framing: 'lf' },
    'mutual TLS (openssl driver) octet-counted': {
      listener: 'mtls',
      transport: 'tls',
      port: 0,
      driver: 'ossl',
    },
    'mutual TLS (gnutls driver) octet-counted': {
      listener: 'mtls',
      transport: 'tls',
      port: 0,
      driver: 'gtls',
    },
    'mutual TLS (openssl driver) LF': {
      listener: 'mtls',
      transport: 'tls',
      port: 0,
      driver: 'ossl',
      framing: 'lf',
    },
  });

  senderSuite('syslog-ng', startSyslogNgSender, {
    'syslog() UDP': { listener: 'udp', transport: 'udp', port: 0, ngDriver: 'syslog' },
    'syslog() TCP (octet-counted)': { listener: 'tcp', transport: 'tcp', port: 0, ngDriver: 'syslog' },
    'syslog() TLS (octet-counted)': { listener: 'tls', transport: 'tls', port: 0, ngDriver: 'syslog' },
    'syslog() mutual TLS (octet-counted)': {
      listener: 'mtls',
      transport: 'tls',
      port: 0,
      ngDriver: 'syslog',
    },
    'network() UDP (BSD)': { listener: 'udp', transport: 'udp', port: 0, ngDriver: 'network', expect: bsd },
    'network() TCP (BSD, LF)': {
      listener: 'tcp',
      transport: 'tcp',
      port: 0,
      ngDriver: 'network',
      expect: bsd,
    },
    'network() mutual TLS (BSD, LF)': {
      listener: 'mtls',
      transport: 'tls',
      port: 0,
      ngDriver: 'network',
      expect: bsd,
    },
  });
});

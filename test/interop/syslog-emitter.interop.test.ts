// Our syslog emitters against real receivers: rsyslog (imudp, imtcp plain, imtcp TLS through its openssl
// and gnutls drivers, with and without client certificates) and syslog-ng (its syslog() source: RFC 5424,
// octet-counted; its network() source with flags(syslog-protocol) for LF framing). Records POSTed as JSON
// into a relay leave through an emitter per transport; each receiver writes every field of what it got
// separately (its own template), and each is compared with the record sent.
//
// Peers: bash test/support/install-syslog-peers.sh. A missing peer skips with a console line, or fails
// when CI is set.
import assert from 'node:assert/strict';
import { startNodeHarnessWithGraph, type NodeHarness } from '../fixtures/node-harness.js';
import { testPki } from '../support/test-pki.js';
import { startPeer } from '../support/syslog-peers.js';
import {
  requireWireDaemon,
  startRsyslogReceiver,
  startSyslogNgReceiver,
  type ReceivedFields,
  type ReceiverInput,
  type ReceiverTls,
  type WireReceiver,
} from '../support/syslog-wire-daemons.js';
import {
  EMITTER_BASE,
  SYSLOG_BASE,
  closeNode,
  uploadPkiAndRun,
  syslogClient,
  syslogEmitter,
} from '../support/syslog-wire-node.js';

const SD = '[ex@32473 a="q\\"b\\\\c\\]d"][two@1 x="1"]';

interface LogRecord {
  facility: number;
  severity: number;
  timestamp: string;
  hostname: string;
  app_name: string;
  proc_id: string;
  msg_id: string;
  structured_data: string;
  message: string;
}

/** A record with every field, as POSTed (JSON) into an emitter's relay. */
function fullRecord(text: string): LogRecord {
  return {
    facility: 20,
    severity: 5,
    timestamp: '2026-03-04T05:06:07.123456Z',
    hostname: 'web-7',
    app_name: 'shop',
    proc_id: '4242',
    msg_id: 'ORDER',
    structured_data: SD,
    message: text,
  };
}

/** A receiver's RFC 3339 text in UTC (the daemons run with TZ=UTC) with a Z, fraction digits kept. */
function utc(text: string): string {
  const match = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?)(?:Z|[+-]00:00)$/.exec(text);
  assert.ok(match, `not an RFC 3339 UTC time: ${text}`);
  return `${match[1]}Z`;
}

/**
 * What a receiver wrote, with the time in UTC with a Z, for deepEqual. rsyslog keeps the fraction as it
 * came; syslog-ng pads it to frac_digits(6), so for it trailing zeroes (and a zero fraction) go.
 */
function fields(received: ReceivedFields, padsFraction: boolean): ReceivedFields {
  const timestamp = utc(received.timestamp);
  return { ...received, timestamp: padsFraction ? timestamp.replace(/\.?0*Z$/, 'Z') : timestamp };
}

/** Each receiver input, the client config that reaches it, and whether it needs the mounted PKI. */
interface Target {
  input: ReceiverInput;
  config: (port: number) => Record<string, string>;
  /** The emitter's BATCH clause (such a target has its own test). */
  batch?: string;
}

const TLS_TRUST = { protocol: 'tls', tls_ca_file: '{{ pki }}/ca.crt' };
const TLS_IDENTITY = { tls_cert_file: '{{ pki }}/client.crt', tls_key_file: '{{ pki }}/client.key' };

function receiverTls(): ReceiverTls {
  const pki = testPki();
  return {
    ca: pki.ca.certFile,
    cert: pki.server.certFile,
    key: pki.server.keyFile,
    client: { cert: pki.client.certFile, key: pki.client.keyFile },
  };
}

interface Receiver {
  name: 'rsyslog' | 'syslog-ng';
  start: (inputs: Record<string, ReceiverInput>, tls: ReceiverTls) => Promise<WireReceiver>;
  /** What the receiver writes for a NILVALUE field. */
  nil: string;
  /** Whether it writes the time with a fixed number of fractional digits. */
  padsFraction: boolean;
}

function emitterSuite({ name, start, nil, padsFraction }: Receiver, targets: Record<string, Target>): void {
  describe(`syslog emitter interop: ${name} as the receiver`, function () {
    this.timeout(60_000);
    let receiver: WireReceiver | undefined;
    let node: NodeHarness | undefined;

    before(async function () {
      requireWireDaemon(this, name);
      const inputs = Object.fromEntries(
        Object.entries(targets).map(([target, { input }]) => [target, input]),
      );
      receiver = await startPeer(this, name, () => start(inputs, receiverTls()));
      node = await startNodeHarnessWithGraph(`${SYSLOG_BASE}\n${EMITTER_BASE}`);
      const pki = testPki();
      const statements: string[] = [];
      for (const [target, { config, batch }] of Object.entries(targets)) {
        const settings = config(receiver.ports[target] ?? 0);
        statements.push(
          syslogClient(target, settings, settings['protocol'] === 'tls'),
          syslogEmitter(target, batch),
        );
      }
      await uploadPkiAndRun(node, [pki.ca.certFile, pki.client.certFile, pki.client.keyFile], statements);
    });
    after(async () => {
      if (node !== undefined) await closeNode(node);
      await receiver?.stop();
    });

    async function emitted(target: string): Promise<ReceivedFields> {
      return fields(await receiver!.next(target, 10_000), padsFraction);
    }

    async function emit(target: string, record: object): Promise<ReceivedFields> {
      const response = await node!.post(`/out/${target}`, record);
      assert.equal(response.status, 202);
      return emitted(target);
    }

    for (const target of Object.keys(targets).filter((each) => targets[each]?.batch === undefined)) {
      it(`${target}: every field arrives as the record had it`, async () => {
        const text = `${name} ${target} grüße`;
        assert.deepEqual(await emit(target, fullRecord(text)), {
          pri: '165',
          timestamp: '2026-03-04T05:06:07.123456Z',
          hostname: 'web-7',
          app_name: 'shop',
          proc_id: '4242',
          msg_id: 'ORDER',
          structured_data: SD,
          message: text,
        });
      });
    }

    if (targets['udp_batch'] !== undefined) {
      it('udp_batch: a full batch of three is one datagram whose MSG lists the members as RFC 5424', async () => {
        const members = [
          { ...fullRecord('one'), severity: 5 },
          { ...fullRecord('two'), severity: 3 },
          { ...fullRecord('three'), severity: 6, hostname: 'web-8' },
        ];
        for (const member of members) {
          assert.equal((await node!.post('/out/udp_batch', member)).status, 202);
        }
        const got = await emitted('udp_batch');
        assert.deepEqual(
          JSON.parse(got.message),
          members.map(
            ({ severity, hostname, message }) =>
              `<${160 + severity}>1 2026-03-04T05:06:07.123456Z ${hostname} shop 4242 ORDER ${SD} ${message}`,
          ),
        );
        // the outer header: shared values, the most severe severity, `-` where members differ; the
        // members' structured data stays inside them
        assert.deepEqual(
          { ...got, message: '' },
          {
            pri: '163',
            timestamp: '2026-03-04T05:06:07.123456Z',
            hostname: '-',
            app_name: 'shop',
            proc_id: '4242',
            msg_id: 'ORDER',
            structured_data: '-',
            message: '',
          },
        );
        assert.equal(receiver!.pending('udp_batch'), 0);
      });
    }

    it('null optional fields leave as NILVALUE; records keep their order', async () => {
      const target = Object.keys(targets)[1] ?? 'tcp';
      const sparse = (text: string): object => ({
        facility: 0,
        severity: 7,
        timestamp: '2026-03-04T05:06:07Z',
        hostname: 'h',
        app_name: 'a',
        proc_id: null,
        msg_id: null,
        structured_data: null,
        message: text,
      });
      for (const text of ['first', 'second', 'third']) {
        assert.equal((await node!.post(`/out/${target}`, sparse(text))).status, 202);
      }
      for (const text of ['first', 'second', 'third']) {
        assert.deepEqual(fields(await receiver!.next(target, 10_000), padsFraction), {
          pri: '7',
          timestamp: '2026-03-04T05:06:07Z',
          hostname: 'h',
          app_name: 'a',
          proc_id: nil,
          msg_id: nil,
          structured_data: nil,
          message: text,
        });
      }
    });
  });
}

const udp = (port: number) => ({ protocol: 'udp', addr: `127.0.0.1:${port}` });
const tcp = (port: number) => ({ protocol: 'tcp', addr: `127.0.0.1:${port}` });
const tcpLf = (port: number) => ({ ...tcp(port), framing: 'non-transparent' });
const tls = (port: number) => ({ ...TLS_TRUST, addr: `127.0.0.1:${port}` });
const mtls = (port: number) => ({ ...TLS_TRUST, ...TLS_IDENTITY, addr: `127.0.0.1:${port}` });

emitterSuite(
  { name: 'rsyslog', start: startRsyslogReceiver, nil: '-', padsFraction: false },
  {
    udp: { input: { transport: 'udp' }, config: udp },
    tcp: { input: { transport: 'tcp' }, config: tcp },
    // MAX TIME is far off on the node's manual clock: only MAX SIZE closes the batch
    udp_batch: { input: { transport: 'udp' }, config: udp, batch: 'BATCH MAX SIZE 3 MAX TIME 1h' },
    tcp_lf: { input: { transport: 'tcp' }, config: tcpLf },
    tls_ossl: { input: { transport: 'tls', driver: 'ossl' }, config: tls },
    mtls_ossl: { input: { transport: 'tls', driver: 'ossl', mutual: true }, config: mtls },
    // by name: `localhost` is verified against the certificate's DNS name
    mtls_gtls: {
      input: { transport: 'tls', driver: 'gtls', mutual: true },
      config: (port) => ({ ...mtls(port), addr: `localhost:${port}` }),
    },
  },
);

emitterSuite(
  { name: 'syslog-ng', start: startSyslogNgReceiver, nil: '', padsFraction: true },
  {
    udp: { input: { transport: 'udp', ngDriver: 'syslog' }, config: udp },
    tcp: { input: { transport: 'tcp', ngDriver: 'syslog' }, config: tcp },
    network_lf: { input: { transport: 'tcp', ngDriver: 'network' }, config: tcpLf },
    tls: { input: { transport: 'tls', ngDriver: 'syslog' }, config: tls },
    mtls: { input: { transport: 'tls', ngDriver: 'syslog', mutual: true }, config: mtls },
  },
);

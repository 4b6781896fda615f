// TLS edge cases of our syslog listener and emitter with openssl as the peer: under mutual TLS a client
// without a certificate, or with one from a CA nobody trusts, is refused while a connection already open
// keeps delivering and a new good one is accepted; plain TCP sent to the TLS port closes that connection
// and delivers nothing; our emitter to an `openssl s_server` whose certificate lacks the name in `addr`,
// or comes from an untrusted CA, is Retrying with the TLS error's code in DESCRIBE EMITTER.
//
// Peers: openssl (Debian package). A missing peer skips with a console line, or fails when CI is set.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect as tcpConnect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect as tlsConnect, type TLSSocket } from 'node:tls';
import { startNodeHarnessWithGraph, type NodeHarness } from '../fixtures/node-harness.js';
import { requireSyslogPeer } from '../support/syslog-peers.js';
import { testPki } from '../support/test-pki.js';
import { freeTcpPort } from '../support/syslog-wire-daemons.js';
import {
  EMITTER_BASE,
  SYSLOG_BASE,
  closeNode,
  receive,
  uploadPkiAndRun,
  syslogClient,
  syslogEmitter,
  syslogListener,
  untilDescribed,
  withoutPeer,
} from '../support/syslog-wire-node.js';
import {
  OPENSSL,
  certificateFor,
  runOpensslClient,
  startOpensslServer,
  type OpensslServer,
} from '../support/syslog-wire-openssl.js';

const line = (text: string): string => `<14>1 2026-03-04T05:06:07Z h app - - - ${text}`;
const record = (text: string) => ({
  facility: 1,
  severity: 6,
  timestamp: '2026-03-04T05:06:07Z',
  hostname: 'h',
  app_name: 'app',
  proc_id: null,
  msg_id: null,
  structured_data: null,
  message: text,
});
const octets = (text: string): string => `${Buffer.byteLength(line(text))} ${line(text)}`;

describe('syslog TLS edge cases with openssl', function () {
  this.timeout(30_000);
  let node: NodeHarness | undefined;
  let wrongName: OpensslServer | undefined;
  let untrusted: OpensslServer | undefined;
  let certDir: string | undefined;
  const ports = { tls: 0, mtls: 0 };
  const pki = testPki();
  const client = { cert: pki.client.certFile, key: pki.client.keyFile };

  before(async function () {
    requireSyslogPeer(this, 'openssl', OPENSSL);
    certDir = mkdtempSync(join(tmpdir(), 'streamroute-wire-certs-'));
    const other = certificateFor(certDir, 'other.test', pki.ca);
    wrongName = await startOpensslServer(other.certFile, other.keyFile);
    untrusted = await startOpensslServer(pki.untrustedServer.certFile, pki.untrustedServer.keyFile);
    ports.tls = await freeTcpPort();
    ports.mtls = await freeTcpPort();
    node = await startNodeHarnessWithGraph(`${SYSLOG_BASE}\n${EMITTER_BASE}`);
    const server = {
      protocol: 'tls',
      tls_cert_file: '{{ pki }}/server.crt',
      tls_key_file: '{{ pki }}/server.key',
    };
    const trust = { protocol: 'tls', tls_ca_file: '{{ pki }}/ca.crt' };
    await uploadPkiAndRun(
      node,
      [pki.server.certFile, pki.server.keyFile, pki.ca.certFile],
      [
        syslogClient('tls', { ...server, addr: `127.0.0.1:${ports.tls}` }, true),
        syslogClient(
          'mtls',
          { ...server, addr: `127.0.0.1:${ports.mtls}`, tls_ca_file: '{{ pki }}/ca.crt' },
          true,
        ),
        syslogListener('tls'),
        syslogListener('mtls'),
        syslogClient('wrong_name', { ...trust, addr: `127.0.0.1:${wrongName.port}` }, true),
        syslogClient('untrusted', { ...trust, addr: `127.0.0.1:${untrusted.port}` }, true),
        syslogEmitter('wrong_name'),
        syslogEmitter('untrusted'),
      ],
    );
    await untilDescribed(node, 'INGESTOR', 'tls_in', /state: Running/);
    await untilDescribed(node, 'INGESTOR', 'mtls_in', /state: Running/);
  });
  after(async () => {
    if (node !== undefined) await closeNode(node);
    await wrongName?.stop();
    await untrusted?.stop();
    if (certDir !== undefined) rmSync(certDir, { recursive: true, force: true });
  });

  /** A mutual-TLS connection with the good client certificate, open until the test ends it. */
  async function goodConnection(port: number): Promise<TLSSocket> {
    return new Promise((resolve, reject) => {
      const socket = tlsConnect(
        {
          port,
          host: '127.0.0.1',
          servername: 'localhost',
          ca: pki.ca.cert,
          cert: pki.client.cert,
          key: pki.client.key,
        },
        () => resolve(socket),
      );
      socket.once('error', reject);
    });
  }

  for (const [name, identity] of [
    ['no client certificate', undefined],
    [
      'a client certificate from an untrusted CA',
      { cert: pki.untrustedClient.certFile, key: pki.untrustedClient.keyFile },
    ],
  ] as const) {
    it(`mutual TLS refuses ${name}; an open connection and a new good one still deliver`, async () => {
      const open = await goodConnection(ports.mtls);
      try {
        const refused = await runOpensslClient({
          port: ports.mtls,
          ca: pki.ca.certFile,
          input: octets('refused'),
          identity,
        });
        assert.notEqual(refused.code, 0, refused.output);
        // a TLS alert, an EOF inside a record, or a reset (errno 104): the server ended the session
        assert.match(refused.output, /SSL routines|read:errno=104/);
        const [fromOpen] = await receive(
          node!,
          'mtls',
          () => new Promise((resolve) => open.write(octets('open'), resolve)),
        );
        assert.deepEqual(withoutPeer(fromOpen!), record('open'));
        const [fromNew] = await receive(node!, 'mtls', () =>
          runOpensslClient({
            port: ports.mtls,
            ca: pki.ca.certFile,
            input: `${octets('new')}\n`,
            identity: client,
            closeAtEnd: true,
          }),
        );
        // the refused message never came: the next record on the relay is the new one
        assert.deepEqual(withoutPeer(fromNew!), record('new'));
      } finally {
        open.destroy();
      }
    });
  }

  it('TLS without a CA asks no client certificate: openssl s_client without one delivers', async () => {
    const [got] = await receive(node!, 'tls', () =>
      runOpensslClient({
        port: ports.tls,
        ca: pki.ca.certFile,
        input: octets('anonymous client'),
        closeAtEnd: true,
      }),
    );
    assert.deepEqual(withoutPeer(got!), record('anonymous client'));
  });

  it('plain TCP sent to the TLS port closes that connection and delivers nothing', async () => {
    const closed = await new Promise<boolean>((resolve, reject) => {
      const socket = tcpConnect(ports.tls, '127.0.0.1', () => socket.write(`${line('plain')}\n`));
      socket.once('error', (error: NodeJS.ErrnoException) =>
        error.code === 'ECONNRESET' ? resolve(true) : reject(error),
      );
      socket.once('close', () => resolve(true));
      socket.resume();
    });
    assert.ok(closed);
    const [next] = await receive(node!, 'tls', () =>
      runOpensslClient({
        port: ports.tls,
        ca: pki.ca.certFile,
        input: octets('after plain'),
        identity: client,
        closeAtEnd: true,
      }),
    );
    assert.deepEqual(withoutPeer(next!), record('after plain'));
  });

  for (const [name, emitter, code, server] of [
    [
      'a server certificate that lacks the name in addr',
      'wrong_name',
      'ERR_TLS_CERT_ALTNAME_INVALID',
      () => wrongName,
    ],
    [
      'a server certificate from an untrusted CA',
      'untrusted',
      'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
      () => untrusted,
    ],
  ] as const) {
    it(`the emitter to ${name} is Retrying with the TLS code, and writes nothing`, async () => {
      const response = await node!.post(`/out/${emitter}`, {
        facility: 1,
        severity: 6,
        message: 'never sent',
      });
      assert.equal(response.status, 202);
      const text = await untilDescribed(node!, 'EMITTER', `${emitter}_out`, /state: Retrying/);
      assert.match(text, new RegExp(`^transient error: ${code}: `, 'm'), text);
      assert.match(text, new RegExp(`general_errors\\.${code}: [1-9]`), text);
      // nothing left the emitter, and the server never saw a completed handshake
      assert.match(text, /^ {2}bytes_sent: 0$/m, text);
      assert.doesNotMatch(await server()!.output(), /CONNECTION ESTABLISHED/);
    });
  }
});

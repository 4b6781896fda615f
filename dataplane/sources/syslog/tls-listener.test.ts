import assert from 'node:assert/strict';
import { connect as tlsConnect, type ConnectionOptions, type TLSSocket } from 'node:tls';
import type { Socket } from 'node:net';
import { testPki, type PemPair } from '../../../test/support/test-pki.js';
import {
  closed,
  logText,
  octet,
  startListener,
  tcpClient,
  waitFor,
  type Harness,
} from './syslog-listener.fixtures.js';

const pki = testPki();

/** A TLS client to 127.0.0.1:port that trusts the test CA; `identity` is its client certificate. */
function tlsClient(port: number, identity?: PemPair, extra: ConnectionOptions = {}): TLSSocket {
  const socket = tlsConnect({
    host: '127.0.0.1',
    port,
    servername: 'localhost',
    ca: pki.ca.cert,
    ...(identity === undefined ? {} : { cert: identity.cert, key: identity.key }),
    ...extra,
  });
  socket.on('error', () => {});
  return socket;
}

function secured(socket: TLSSocket): Promise<void> {
  return new Promise((resolve, reject) => {
    socket.once('secureConnect', resolve);
    socket.once('close', () => reject(new Error('closed before the handshake completed')));
  });
}

describe('syslog TLS listener', () => {
  let harness: Harness | undefined;
  const sockets: Socket[] = [];
  afterEach(async () => {
    for (const socket of sockets.splice(0)) socket.destroy();
    await harness?.listener.stop();
    harness = undefined;
  });
  function track<T extends Socket>(socket: T): T {
    sockets.push(socket);
    return socket;
  }

  it('delivers octet-counted frames over TLS, with peer_addr', async () => {
    harness = await startListener({ protocol: 'tls', tls: { cert: pki.server.cert, key: pki.server.key } });
    const socket = track(tlsClient(harness.port));
    await secured(socket);
    socket.write(octet('<13>1 - host app - - - over tls\n') + octet('<13>second'));
    await waitFor(() => harness!.received.length === 2);
    assert.deepEqual(
      harness.received.map((r) => r.text),
      ['<13>1 - host app - - - over tls\n', '<13>second'],
    );
    assert.equal(harness.received[0]!.peer, `127.0.0.1:${socket.localPort}`);
    assert.equal(harness.listener.stats.connectionsOpen, 1);
  });

  describe('mutual TLS', () => {
    let established: TLSSocket;
    beforeEach(async () => {
      harness = await startListener({
        protocol: 'tls',
        tls: { cert: pki.server.cert, key: pki.server.key, ca: pki.ca.cert },
      });
      established = track(tlsClient(harness.port, pki.client));
      await secured(established);
      established.write('<13>before\n');
      await waitFor(() => harness!.received.length === 1);
    });

    /** The refused client changed nothing: the established connection still delivers. */
    async function establishedStillWorks(): Promise<void> {
      established.write('<13>after\n');
      await waitFor(() => harness!.received.length === 2);
      assert.deepEqual(
        harness!.received.map((r) => r.text),
        ['<13>before', '<13>after'],
      );
      assert.equal(harness!.listener.status.state, 'Running');
    }

    function loggedCode(): unknown {
      return harness!.logs.find((l) => l['msg'] === 'syslog TLS handshake failed: connection closed')?.[
        'code'
      ];
    }

    async function refused(socket: TLSSocket): Promise<void> {
      // A TLS 1.3 client may see its handshake finish before the server checks its certificate: it then
      // writes, and the server closes without delivering.
      socket.once('secureConnect', () => socket.write('<13>must not arrive\n'));
      await closed(socket);
      await waitFor(() => harness!.listener.stats.tlsHandshakeFailures === 1);
      await waitFor(() => harness!.listener.stats.connectionsOpen === 1);
      assert.deepEqual(harness!.listener.stats.connectionsClosed, { tls_handshake: 1 });
      await establishedStillWorks();
      assert.ok(!harness!.received.some((r) => r.text.includes('must not arrive')));
    }

    it('a client with a CA-signed certificate is accepted', async () => {
      await establishedStillWorks();
      assert.equal(harness!.listener.stats.tlsHandshakeFailures, 0);
    });

    it('a client without a certificate is refused', async () => {
      await refused(track(tlsClient(harness!.port)));
      assert.equal(loggedCode(), 'ERR_SSL_PEER_DID_NOT_RETURN_A_CERTIFICATE');
    });

    it('a client certificate from an untrusted CA is refused', async () => {
      await refused(track(tlsClient(harness!.port, pki.untrustedClient)));
      await waitFor(() => loggedCode() !== undefined);
      assert.equal(loggedCode(), 'UNABLE_TO_VERIFY_LEAF_SIGNATURE');
    });

    it('an expired client certificate is refused', async () => {
      await refused(track(tlsClient(harness!.port, pki.expiredClient)));
      await waitFor(() => loggedCode() !== undefined);
      assert.equal(loggedCode(), 'CERT_HAS_EXPIRED');
    });

    it('plain TCP bytes to the TLS port are refused; no key material or payload is logged', async () => {
      const plain = track(await tcpClient(harness!.port));
      plain.write('<13>plain secret-text over tcp\n');
      await closed(plain);
      await waitFor(() => harness!.listener.stats.tlsHandshakeFailures === 1);
      await establishedStillWorks();
      const text = logText(harness!.logs);
      assert.doesNotMatch(text, /secret-text|PRIVATE KEY|BEGIN CERTIFICATE/);
    });

    it('a client silent past the handshake timeout is closed', async () => {
      await harness!.listener.stop();
      harness = await startListener({
        protocol: 'tls',
        tls: { cert: pki.server.cert, key: pki.server.key, ca: pki.ca.cert },
        tlsHandshakeTimeoutMs: 150,
      });
      const silent = track(await tcpClient(harness.port));
      await closed(silent);
      await waitFor(() => harness!.listener.stats.tlsHandshakeFailures === 1);
      assert.ok(harness.logs.some((l) => l['code'] === 'ERR_TLS_HANDSHAKE_TIMEOUT'));
    });
  });
});

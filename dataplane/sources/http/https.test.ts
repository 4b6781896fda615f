// The HTTPS listener over real TLS: a certificate per vhost picked by SNI (certificates made by openssl),
// bad or missing material confined to its vhost, certificate rotation by setRoutes.
import assert from 'node:assert/strict';
import { X509Certificate } from 'node:crypto';
import type { TLSSocket } from 'node:tls';
import type { MountedFile } from '../../graph/types.js';
import {
  recordingTarget,
  route,
  startIngestion,
  type RecordingTarget,
  type RunningIngestion,
} from '../../../test/fixtures/http-ingestion.js';
import { makeSelfSignedCert, type TestCert } from '../../../test/support/openssl.js';
import { RawConnection, waitFor } from '../../../test/support/raw-http.js';
import type { HttpTls } from '../../net/tls-contexts.js';

const file = (resource: string, name: string, version = 1): MountedFile => ({
  resource,
  version,
  file: name,
});
const mounted = (resource: string, version = 1): HttpTls => ({
  certFile: file(resource, 'tls.crt', version),
  keyFile: file(resource, 'tls.key', version),
});

describe('HTTP ingestion: HTTPS listener with SNI', () => {
  let a: TestCert;
  let b: TestCert;
  let a2: TestCert;
  const files = new Map<string, Buffer>();
  const put = (resource: string, cert: TestCert, version = 1): void => {
    files.set(`${resource}@${version}/tls.crt`, cert.cert);
    files.set(`${resource}@${version}/tls.key`, cert.key);
  };
  let node: RunningIngestion;
  let targetA: RecordingTarget;
  let targetB: RecordingTarget;
  let plain: RecordingTarget;
  let httpsPort: number;

  before(() => {
    a = makeSelfSignedCert('a.example.com');
    b = makeSelfSignedCert('b.example.com');
    a2 = makeSelfSignedCert('a.example.com');
    put('pki-a', a);
    put('pki-b', b);
    put('pki-a', a2, 2);
    files.set('mismatch@1/tls.crt', a.cert);
    files.set('mismatch@1/tls.key', b.key);
    files.set('garbage@1/tls.crt', Buffer.from('not a certificate'));
    files.set('garbage@1/tls.key', a.key);
  });

  beforeEach(async () => {
    targetA = recordingTarget('d/a');
    targetB = recordingTarget('d/b');
    plain = recordingTarget('d/plain');
    node = await startIngestion([], {
      tls: {
        readMountedFile: (f) => {
          const bytes = files.get(`${f.resource}@${f.version}/${f.file}`);
          if (bytes === undefined) throw Object.assign(new Error('missing'), { code: 'ENOENT' });
          return bytes;
        },
      },
    });
    assert.equal(node.ingestion.https.status.state, 'Stopped', 'no HTTPS port without TLS vhosts');
    const report = node.ingestion.setRoutes([
      route(targetA, ['a.example.com'], '/in', mounted('pki-a')),
      route(targetB, ['b.example.com'], '/in', mounted('pki-b')),
      route(plain, ['plain.example.com'], '/in'),
    ]);
    assert.deepEqual(report, { plainHosts: 1, secureHosts: 2, problems: [] });
    const status = await node.ingestion.https.start();
    httpsPort = status.port!;
  });
  afterEach(() => node.stop());

  const connect = (servername: string, ca: TestCert) =>
    RawConnection.connectTls(httpsPort, { servername, ca: ca.cert });
  const peerCert = (connection: RawConnection) =>
    new X509Certificate((connection.socket as TLSSocket).getPeerCertificate(true).raw);

  it('picks the certificate by SNI and routes by Host', async () => {
    for (const [name, cert, target] of [
      ['a.example.com', a, targetA],
      ['b.example.com', b, targetB],
    ] as const) {
      const connection = await connect(name, cert);
      assert.equal(peerCert(connection).subject, `CN=${name}`);
      const response = await connection.request({
        host: `${name.toUpperCase()}:443`,
        path: '/in',
        body: '{}',
      });
      assert.equal(response.status, 202);
      assert.equal(target.received[0]?.metadata.host, name);
      connection.destroy();
    }
  });

  it('an unknown server name or no SNI fails the handshake; only that connection closes', async () => {
    await assert.rejects(
      RawConnection.connectTls(httpsPort, { servername: 'c.example.com', rejectUnauthorized: false }),
    );
    await assert.rejects(RawConnection.connectTls(httpsPort, { rejectUnauthorized: false }));
    await waitFor(() => node.telemetry.clientErrors.size === 2);
    assert.deepEqual(Object.fromEntries(node.telemetry.clientErrors), {
      'https ERR_SR_UNKNOWN_SERVER_NAME': 1,
      'https ERR_SSL_NO_SUITABLE_SIGNATURE_ALGORITHM': 1, // no SNI: OpenSSL finds no certificate to sign with
    });
    const connection = await connect('a.example.com', a);
    assert.equal((await connection.request({ host: 'a.example.com', path: '/in', body: '{}' })).status, 202);
    connection.destroy();
  });

  it('a plain vhost is 404 on the HTTPS listener', async () => {
    const connection = await connect('a.example.com', a);
    assert.equal(
      (await connection.request({ host: 'plain.example.com', path: '/in', body: '{}' })).status,
      404,
    );
    connection.destroy();
  });

  it('a certificate and key that do not match are a problem of that vhost only', async () => {
    const report = node.ingestion.setRoutes([
      route(targetA, ['a.example.com'], '/in', mounted('pki-a')),
      route(targetB, ['b.example.com'], '/in', mounted('mismatch')),
    ]);
    assert.equal(report.problems.length, 1);
    const [problem] = report.problems;
    assert.equal(problem!.code, 'tls_invalid');
    assert.equal(problem!.target, 'd/b');
    assert.match(
      problem!.message,
      /mismatch@1\/tls\.crt and mismatch@1\/tls\.key cannot be used \(ERR_OSSL_X509_KEY_VALUES_MISMATCH\)/,
    );
    assert.doesNotMatch(problem!.message, /BEGIN|PRIVATE/);
    await assert.rejects(RawConnection.connectTls(httpsPort, { servername: 'b.example.com', ca: b.cert }));
    const connection = await connect('a.example.com', a);
    assert.equal((await connection.request({ host: 'a.example.com', path: '/in', body: '{}' })).status, 202);
    connection.destroy();
  });

  it('unreadable or unparsable material is reported with its code; a Secret outside Kubernetes too', () => {
    const report = node.ingestion.setRoutes([
      route(targetA, ['a.example.com'], '/in', mounted('absent')),
      route(targetB, ['b.example.com'], '/in', mounted('garbage')),
      route(plain, ['c.example.com'], '/in', { secretName: 'c-tls' }),
    ]);
    assert.deepEqual(
      report.problems.map((p) => [p.code, p.target, /\((\w+)\)/.exec(p.message)?.[1]]),
      [
        ['tls_unavailable', 'd/a', 'ENOENT'],
        ['tls_invalid', 'd/b', 'ERR_OSSL_PEM_NO_START_LINE'],
        ['tls_unavailable', 'd/plain', 'ENOSECRETS'],
      ],
    );
    assert.equal(report.secureHosts, 0);
    assert.equal(node.ingestion.https.status.state, 'Running');
  });

  it('rotating a certificate: new handshakes get the new one, an open connection keeps working', async () => {
    const old = await connect('a.example.com', a);
    assert.equal((await old.request({ host: 'a.example.com', path: '/in', body: '1' })).status, 202);
    node.ingestion.setRoutes([route(targetA, ['a.example.com'], '/in', mounted('pki-a', 2))]);
    const fresh = await connect('a.example.com', a2);
    assert.equal(peerCert(fresh).fingerprint256, new X509Certificate(a2.cert).fingerprint256);
    assert.equal((await fresh.request({ host: 'a.example.com', path: '/in', body: '2' })).status, 202);
    assert.equal((await old.request({ host: 'a.example.com', path: '/in', body: '3' })).status, 202);
    assert.deepEqual(
      targetA.received.map((r) => r.body),
      ['1', '2', '3'],
    );
    old.destroy();
    fresh.destroy();
  });

  it('stop then start reopens both listeners with the routes it had', async () => {
    await node.ingestion.stop(0);
    assert.equal(node.ingestion.https.status.state, 'Stopped');
    assert.equal((await node.ingestion.start()).state, 'Running');
    const status = await node.ingestion.https.start();
    assert.equal(status.state, 'Running');
    const connection = await RawConnection.connectTls(status.port!, {
      servername: 'a.example.com',
      ca: a.cert,
    });
    assert.equal((await connection.request({ host: 'a.example.com', path: '/in', body: '{}' })).status, 202);
    connection.destroy();
  });

  it('two vhosts claiming one hostname with different certificates: the first keeps it', () => {
    const report = node.ingestion.setRoutes([
      route(targetA, ['a.example.com'], '/in', mounted('pki-a')),
      route(targetB, ['a.example.com'], '/other', mounted('pki-b')),
    ]);
    assert.deepEqual(
      report.problems.map((p) => [p.code, p.target]),
      [['tls_conflict', 'd/b']],
    );
  });
});

// The operator's listener on a data-plane pod (--internal-listen-addr, decision 0019): TLS with the
// operator's client certificate required: none, or one the CA did not sign, is 401; another name 403.
import assert from 'node:assert/strict';
import { request } from 'node:https';
import { fetchAdmin, startAdmin } from '../../test/fixtures/admin-client.js';
import { signed, testPki, type PemPair } from '../../test/support/test-pki.js';
import type { ComponentDescription } from '../core/status.js';

type Started = Awaited<ReturnType<typeof startAdmin>>;

interface Reply {
  status: number;
  body: string;
}

function get(port: number, path: string, client: PemPair | undefined): Promise<Reply> {
  const pki = testPki();
  return new Promise((resolve, reject) => {
    const outgoing = request(
      {
        host: '127.0.0.1',
        port,
        path,
        servername: 'localhost',
        ca: pki.ca.cert,
        ...(client === undefined ? {} : { cert: client.cert, key: client.key }),
        agent: false,
      },
      (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (body += chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
        response.on('error', reject);
      },
    );
    outgoing.on('error', reject);
    outgoing.end();
  });
}

describe('AdminServer: the operator listener (--internal-listen-addr)', () => {
  let admin: Started | undefined;
  let port = 0;
  let controlCalls = 0;
  before(async () => {
    const pki = testPki();
    admin = await startAdmin({
      control: () => {
        controlCalls += 1;
        return false;
      },
      internal: {
        address: { host: '127.0.0.1', port: 0 },
        cert: pki.server.cert,
        key: pki.server.key,
        clientCa: pki.ca.cert,
        clientName: 'client.test',
      },
    });
    port = admin.server.internalStatus?.port ?? 0;
    assert.ok(port > 0, 'the internal listener is running');
    const description = { name: 'orders-in' } as unknown as ComponentDescription;
    admin.backend.descriptions.set('shop/ingestor/orders-in', description);
  });
  after(() => admin?.server.stop(0));

  it("serves describe to the operator's certificate", async () => {
    const reply = await get(port, '/v1/domains/shop/ingestors/orders-in', testPki().client);
    assert.equal(reply.status, 200);
    assert.deepEqual(JSON.parse(reply.body), { name: 'orders-in' });
  });

  it('never offers a request to the control hook (no statements here)', async () => {
    const reply = await get(port, '/v1/statements', testPki().client);
    assert.equal(reply.status, 404);
    assert.equal(controlCalls, 0);
  });

  it('answers 403 to a certificate of the same CA with another name (a node’s own, say)', async () => {
    const pki = testPki();
    const node = signed(pki.dir, 'node-7-client', pki.ca, {
      cn: 'node-7',
      ext: 'subjectAltName=DNS:node-7',
      usage: 'clientAuth',
    });
    const reply = await get(port, '/v1/domains/shop/ingestors/orders-in', node);
    assert.equal(reply.status, 403);
    assert.equal((JSON.parse(reply.body) as { error: { code: string } }).error.code, 'forbidden');
  });

  for (const [name, client, reason] of [
    ['no certificate', () => undefined, /\(no client certificate\)/],
    ['a certificate of another CA', () => testPki().untrustedClient, /UNABLE_TO_VERIFY_LEAF_SIGNATURE/],
    ['an expired certificate', () => testPki().expiredClient, /CERT_HAS_EXPIRED/],
  ] as const) {
    it(`answers ${name} 401, saying why, and reaches no route`, async () => {
      const reply = await get(port, '/v1/domains/shop/ingestors/orders-in', client());
      assert.equal(reply.status, 401);
      const error = (JSON.parse(reply.body) as { error: { code: string; message: string } }).error;
      assert.equal(error.code, 'unauthenticated');
      assert.match(error.message, reason);
      assert.doesNotMatch(reply.body, /orders-in"/);
    });
  }

  it('keeps serving the loopback listener as before', async () => {
    const loopback = await fetchAdmin(admin!.port, '/v1/domains/shop/ingestors/orders-in');
    assert.equal(loopback.status, 200);
  });
});

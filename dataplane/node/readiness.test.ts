import assert from 'node:assert/strict';
import { paymentsGraph, testDataPlane, type TestDataPlane } from '../../test/fixtures/data-plane.js';
import { makeSelfSignedCert } from '../../test/support/openssl.js';
import { waitFor } from '../../test/support/raw-http.js';
import type { ListenerStatus } from '../net/retrying-listener.js';
import { readinessChecks } from './readiness.js';

const running: ListenerStatus = { state: 'Running', address: '0.0.0.0:8080', port: 8080, failures: 0 };
const stopped: ListenerStatus = { state: 'Stopped', address: '0.0.0.0:8443', failures: 0 };
const retrying: ListenerStatus = {
  state: 'Retrying',
  address: '0.0.0.0:8080',
  error: { code: 'EADDRINUSE', message: 'listen EADDRINUSE: address already in use 0.0.0.0:8080' },
  backoffMs: 4000,
  failures: 3,
};

describe('readinessChecks', () => {
  it('the HTTP listener, and one check per applied domain', () => {
    const domains = [
      { domain: 'shop', version: 3, refused: undefined },
      { domain: 'ops', version: 1, refused: { version: 2, errors: ['emitter out: not wired'] } },
    ];
    assert.deepEqual(readinessChecks({ http: running, https: stopped, httpsRouted: false, domains }), [
      { name: 'http-listener', ok: true, detail: 'listening on 0.0.0.0:8080 (port 8080)' },
      { name: 'graph:shop', ok: true, detail: 'graph version 3 applied' },
      { name: 'graph:ops', ok: true, detail: 'graph version 1 applied; version 2 was refused' },
    ]);
  });

  it('a domain whose first graph was refused is not ready, and says why', () => {
    const domains = [
      { domain: 'shop', version: undefined, refused: { version: 4, errors: ['a: bad', 'b: bad', 'c: bad'] } },
      { domain: 'ops', version: undefined, refused: { version: 1, errors: ['x: bad'] } },
    ];
    assert.deepEqual(
      readinessChecks({ http: running, https: stopped, httpsRouted: false, domains }).slice(1),
      [
        { name: 'graph:shop', ok: false, detail: 'version 4 refused: a: bad (and 2 more); nothing runs' },
        { name: 'graph:ops', ok: false, detail: 'version 1 refused: x: bad; nothing runs' },
      ],
    );
  });

  it('a listener that cannot bind is not ready and says why', () => {
    assert.deepEqual(readinessChecks({ http: retrying, https: stopped, httpsRouted: false, domains: [] }), [
      {
        name: 'http-listener',
        ok: false,
        detail:
          'cannot listen on 0.0.0.0:8080: EADDRINUSE (listen EADDRINUSE: address already in use 0.0.0.0:8080); next attempt in 4000 ms',
      },
    ]);
  });

  it('the HTTPS listener only when a TLS vhost is routed', () => {
    const checks = readinessChecks({ http: running, https: stopped, httpsRouted: true, domains: [] });
    assert.deepEqual(checks[1], { name: 'https-listener', ok: false, detail: 'Stopped (0.0.0.0:8443)' });
  });
});

describe('DataPlane.readiness', () => {
  let node: TestDataPlane;
  afterEach(() => node.dataPlane.stop(0));

  it('not ready before start; ready with the listener running and the graph applied', async () => {
    node = testDataPlane();
    assert.deepEqual(
      node.dataPlane.readiness().map((check) => [check.name, check.ok]),
      [['http-listener', false]],
    );
    assert.ok((await node.dataPlane.apply(paymentsGraph(), 1)).ok);
    await node.dataPlane.start();
    assert.deepEqual(
      node.dataPlane.readiness().map((check) => [check.name, check.ok]),
      [
        ['http-listener', true],
        ['graph:default', true],
      ],
    );
    assert.ok(!(await node.dataPlane.apply({ ...paymentsGraph(), emitters: { e: {} } }, 2)).ok);
    assert.equal(node.dataPlane.readiness()[1]?.detail, 'graph version 1 applied; version 2 was refused');
  });

  describe('regression: a domain whose first graph is refused was invisible to readiness', () => {
    it('a refused first graph (at restore, before start) makes the node not ready until a graph runs', async () => {
      node = testDataPlane();
      const refused = await node.dataPlane.apply({ ...paymentsGraph(), emitters: { e: {} } }, 3);
      assert.ok(!refused.ok);
      await node.dataPlane.start();
      const check = node.dataPlane.readiness().find((entry) => entry.name === 'graph:default');
      assert.equal(check?.ok, false);
      assert.match(check.detail, /^version 3 refused: .+; nothing runs$/);
      assert.ok(!node.dataPlane.readiness().every((entry) => entry.ok));

      assert.ok((await node.dataPlane.apply(paymentsGraph(), 4)).ok);
      assert.deepEqual(
        node.dataPlane.readiness().map((entry) => [entry.name, entry.ok, entry.detail]),
        [
          ['http-listener', true, `listening on 127.0.0.1:0 (port ${node.port()})`],
          ['graph:default', true, 'graph version 4 applied'],
        ],
      );
    });

    it('a graph that does not even load names its domain; removing the domain clears the check', async () => {
      node = testDataPlane();
      await node.dataPlane.start();
      assert.ok(!(await node.dataPlane.apply({ domain: 'ops' }, 1)).ok);
      const check = node.dataPlane.readiness().find((entry) => entry.name === 'graph:ops');
      assert.equal(check?.ok, false);
      assert.match(check.detail, /^version 1 refused: .+ \(and \d+ more\); nothing runs$/);
      await node.dataPlane.removeDomain('ops');
      assert.deepEqual(
        node.dataPlane.readiness().map((entry) => entry.name),
        ['http-listener'],
      );
    });
  });

  it('a routed TLS vhost adds the HTTPS listener check', async () => {
    node = testDataPlane();
    const cert = makeSelfSignedCert('pay.example.com');
    node.files.set('pki@1/tls.crt', cert.cert);
    node.files.set('pki@1/tls.key', cert.key);
    const graph = paymentsGraph();
    const file = (name: string) => ({ resource: 'pki', version: 1, file: name });
    Object.assign(graph.httpIngestors['payments-in']!, {
      hostnames: ['pay.example.com'],
      tls: { certFile: file('tls.crt'), keyFile: file('tls.key') },
    });
    const applied = await node.dataPlane.apply(graph, 1);
    assert.ok(applied.ok);
    assert.deepEqual(applied.warnings, []);
    await node.dataPlane.start();
    await waitFor(() => node.dataPlane.httpIngestion.https.status.state === 'Running');
    assert.deepEqual(
      node.dataPlane.readiness().map((check) => [check.name, check.ok]),
      [
        ['http-listener', true],
        ['https-listener', true],
        ['graph:default', true],
      ],
    );
    const described = await node.dataPlane.describe('default', 'ingestor', 'payments-in');
    assert.equal(described?.state, 'Running');
    assert.deepEqual(described.details.listener, {
      name: 'https',
      address: '127.0.0.1:0',
      port: node.dataPlane.httpIngestion.https.status.port,
      state: 'Running',
    });
  });
});

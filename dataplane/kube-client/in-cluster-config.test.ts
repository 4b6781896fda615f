import assert from 'node:assert/strict';
import { copyFileSync, mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type RequestOptions, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { testPki } from '../../test/support/test-pki.js';
import { inCluster, inClusterConnection } from './in-cluster-config.js';
import { connectionOf, KubeApi, usesServiceAccount } from './kube-api.js';

describe('in-cluster config (the service account, without client-node)', () => {
  let dir: string;
  let serviceAccount: string;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'streamroute-in-cluster-'));
    serviceAccount = join(dir, 'serviceaccount');
    mkdirSync(serviceAccount);
    writeFileSync(join(serviceAccount, 'token'), 'token-1\n');
    writeFileSync(join(serviceAccount, 'ca.crt'), testPki().ca.cert);
    writeFileSync(join(serviceAccount, 'namespace'), 'streamroute-system');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const podEnv = {
    KUBERNETES_SERVICE_HOST: '10.96.0.1',
    KUBERNETES_SERVICE_PORT: '443',
    HOME: '/nonexistent',
  };

  it('is a pod when the token is mounted', () => {
    assert.equal(inCluster(serviceAccount), true);
    assert.equal(inCluster(join(dir, 'missing')), false);
  });

  it('takes the server from the service environment and the namespace from its file', () => {
    const connection = inClusterConnection(podEnv, serviceAccount);
    assert.equal(connection.server.href, 'https://10.96.0.1/');
    assert.equal(connection.namespace, 'streamroute-system');
    const v6 = inClusterConnection(
      { KUBERNETES_SERVICE_HOST: 'fd00::1', KUBERNETES_SERVICE_PORT: '6443' },
      serviceAccount,
    );
    assert.equal(v6.server.href, 'https://[fd00::1]:6443/');
  });

  it('says which variables are missing rather than calling https://undefined', () => {
    assert.throws(
      () => inClusterConnection({ KUBERNETES_SERVICE_HOST: '10.96.0.1' }, serviceAccount),
      /KUBERNETES_SERVICE_HOST and KUBERNETES_SERVICE_PORT/,
    );
  });

  it('reads the token again for every request (projected tokens rotate)', async () => {
    const connection = inClusterConnection(podEnv, serviceAccount);
    const first: RequestOptions = {};
    await connection.authorize(first);
    assert.deepEqual(first.headers, { authorization: 'Bearer token-1' });
    assert.deepEqual(first.ca, testPki().ca.cert);
    writeFileSync(join(serviceAccount, 'token'), 'token-2');
    const second: RequestOptions = { headers: { accept: 'application/json' } };
    await connection.authorize(second);
    assert.deepEqual(second.headers, { accept: 'application/json', authorization: 'Bearer token-2' });
  });

  it('is chosen only when no kubeconfig is named or found, as client-node chose', () => {
    const kubeconfig = join(dir, 'kubeconfig');
    writeFileSync(
      kubeconfig,
      JSON.stringify({
        apiVersion: 'v1',
        kind: 'Config',
        clusters: [{ name: 'c', cluster: { server: 'https://127.0.0.1:6443' } }],
        users: [{ name: 'u', user: { token: 't' } }],
        contexts: [{ name: 'x', context: { cluster: 'c', user: 'u', namespace: 'from-kubeconfig' } }],
        'current-context': 'x',
      }),
    );
    const pod = { env: podEnv, serviceAccountDir: serviceAccount };
    assert.equal(usesServiceAccount(pod), true);
    assert.equal(connectionOf(pod).server.href, 'https://10.96.0.1/');
    assert.equal(usesServiceAccount({ ...pod, kubeconfig }), false);
    assert.equal(connectionOf({ ...pod, kubeconfig }).namespace, 'from-kubeconfig');
    assert.equal(usesServiceAccount({ ...pod, context: 'x' }), false);
    assert.equal(usesServiceAccount({ ...pod, env: { ...podEnv, KUBECONFIG: kubeconfig } }), false);
    mkdirSync(join(dir, '.kube'));
    copyFileSync(kubeconfig, join(dir, '.kube', 'config'));
    assert.equal(usesServiceAccount({ ...pod, env: { ...podEnv, HOME: dir } }), false, '~/.kube/config wins');
    assert.equal(usesServiceAccount({ env: podEnv, serviceAccountDir: join(dir, 'missing') }), false);
  });

  it('refuses to start, rather than retry localhost:8080 forever, with no pod, no $KUBECONFIG and no ~/.kube/config', () => {
    const nowhere = { env: { HOME: join(dir, 'no-home') }, serviceAccountDir: join(dir, 'missing') };
    assert.throws(
      () => connectionOf(nowhere),
      /no Kubernetes API server: not in a pod \(no .*missing\/token\), \$KUBECONFIG is not set and ~\/\.kube\/config does not exist; pass --kubeconfig/,
    );
    assert.throws(() => connectionOf({ ...nowhere, context: 'x' }), /no Kubernetes API server/);
  });

  describe('a request from a pod', () => {
    let server: Server;
    const seen: (string | undefined)[] = [];

    before(async () => {
      const { server: pair } = testPki();
      server = createServer({ cert: pair.cert, key: pair.key }, (request, response) => {
        seen.push(request.headers.authorization);
        response.setHeader('content-type', 'application/json');
        response.end(JSON.stringify({ kind: 'ConfigMap', path: request.url }));
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    });
    after(() => new Promise((resolve) => server.close(resolve)));

    it('reaches the API server through its CA with the current token', async () => {
      const port = (server.address() as AddressInfo).port;
      const api = new KubeApi({
        rateLimit: { qps: 100, burst: 10 },
        userAgent: 'test',
        env: { KUBERNETES_SERVICE_HOST: '127.0.0.1', KUBERNETES_SERVICE_PORT: String(port), HOME: dir },
        serviceAccountDir: serviceAccount,
      });
      assert.equal(api.defaultNamespace, 'streamroute-system');
      assert.deepEqual(await api.request({ path: '/api/v1/namespaces/x/configmaps/y' }), {
        kind: 'ConfigMap',
        path: '/api/v1/namespaces/x/configmaps/y',
      });
      writeFileSync(join(serviceAccount, 'token'), 'token-2');
      await api.request({ path: '/api' });
      assert.deepEqual(seen, ['Bearer token-1', 'Bearer token-2']);
    });
  });
});

// The live API's way to the pods (internal-access.ts) against real admin servers with internal listeners
// (two "pods" on 127.0.0.1): records merged and DESCRIBE answered over mutual TLS, and a pod whose
// certificate does not carry the expected name is refused, not read.
import assert from 'node:assert/strict';
import { startAdmin } from '../../test/fixtures/admin-client.js';
import { waitFor } from '../../test/support/raw-http.js';
import { testPki } from '../../test/support/test-pki.js';
import type { ComponentDescription } from '../../dataplane/core/status.js';
import type { Cluster } from './cluster-target.js';
import { runClusterSubscribe } from './cluster-subscribe.js';
import { internalAccess } from './internal-access.js';
import { describeOnNodes } from './live-describe.js';
import type { DataplanePod } from './pod-access.js';

type Started = Awaited<ReturnType<typeof startAdmin>>;

async function dataplanePod(name: string): Promise<{ admin: Started; pod: DataplanePod }> {
  const pki = testPki();
  const admin = await startAdmin({
    internal: {
      address: { host: '127.0.0.1', port: 0 },
      cert: pki.server.cert,
      key: pki.server.key,
      clientCa: pki.ca.cert,
      clientName: 'client.test',
    },
  });
  const port = admin.server.internalStatus?.port ?? 0;
  const pod: DataplanePod = {
    metadata: { name },
    spec: { nodeName: `node-${name}`, containers: [{ ports: [{ name: 'internal', containerPort: port }] }] },
    status: { phase: 'Running', podIP: '127.0.0.1' },
  };
  return { admin, pod };
}

/** A description that says which pod gave it. */
function described(pod: DataplanePod): ComponentDescription {
  return {
    domain: 'shop',
    kind: 'http-ingestor',
    name: 'orders-in',
    graphVersion: 3,
    state: 'Running',
    transientError: null,
    backoffMs: null,
    metrics: { payloads: 1 },
    details: { listener: pod.metadata.name },
  };
}

describe('the live API reaching data-plane pods on their internal listeners', () => {
  const cluster = { namespace: 'shop' } as Cluster;
  let pods: { admin: Started; pod: DataplanePod }[] = [];
  before(async () => {
    pods = [await dataplanePod('dp-a'), await dataplanePod('dp-b')];
  });
  after(() => Promise.all(pods.map(({ admin }) => admin.server.stop(0))));

  const access = (serverName = 'localhost') => {
    const pki = testPki();
    return internalAccess(
      { running: () => Promise.resolve(pods.map(({ pod }) => pod)) },
      { ca: pki.ca.cert, cert: pki.client.cert, key: pki.client.key, serverName },
    );
  };

  it('merges every pod’s records over mutual TLS', async () => {
    const relays = pods.map(({ admin }) => admin.backend.addRelay('orders'));
    const out: string[] = [];
    const err: string[] = [];
    const stop = new AbortController();
    const done = runClusterSubscribe(
      {
        cluster,
        operatorNamespace: 'x',
        relay: 'orders',
        subscription: 'audit',
        signal: stop.signal,
        access: access(),
      },
      { out: (line) => out.push(line), err: (line) => err.push(line) },
    );
    await waitFor(() => pods.every(({ admin }) => admin.backend.activeCount('orders') === 1));
    relays.forEach((relay, index) => relay.publish({ from: index }));
    await waitFor(() => out.length === 2);
    stop.abort();
    await done;
    assert.deepEqual(out.sort(), ['{"from":0}', '{"from":1}']);
    assert.deepEqual(err, []);
  });

  it('answers describe from every pod', async () => {
    for (const { admin, pod } of pods)
      admin.backend.descriptions.set('shop/ingestor/orders-in', described(pod));
    const nodes = await describeOnNodes({
      cluster,
      operatorNamespace: 'x',
      kind: 'ingestor',
      name: 'orders-in',
      access: access(),
    });
    assert.deepEqual(
      nodes.map(({ node, pod, description, error }) => ({ node, pod, description, error })),
      pods.map(({ pod }) => ({
        node: `node-${pod.metadata.name}`,
        pod: pod.metadata.name,
        description: described(pod),
        error: undefined,
      })),
    );
  });

  it('refuses a pod whose certificate does not carry the expected name', async () => {
    const nodes = await describeOnNodes({
      cluster,
      operatorNamespace: 'x',
      kind: 'ingestor',
      name: 'orders-in',
      access: access('streamroute-dataplane'),
    });
    assert.equal(nodes.length, 2);
    for (const node of nodes) {
      assert.equal(node.description, undefined);
      assert.match(node.error ?? '', /streamroute-dataplane|altname|certificate/i);
    }
  });
});

// `graph --rates` on a cluster: every running data-plane pod's /metrics, read through a port-forward of
// the API server (the same path `subscribe` takes without the live API). The pods are a real embedded
// node's admin API behind the port-forward stand-in of the other cluster tests; a pod that cannot be
// reached is said on stderr and the others still count.
import assert from 'node:assert/strict';
import { fakeApiServer } from '../../../test/support/fake-port-forward.js';
import { CapturedOutput } from '../../../test/support/canned-node.js';
import { startNodeHarness, type NodeHarness } from '../../../test/fixtures/node-harness.js';
import { countersOf, RECORDS_IN } from '../../graph/metrics-rates.js';
import type { Cluster } from '../../cluster/cluster-target.js';
import { podMetrics } from './graph-sources.js';

const pod = (name: string, phase = 'Running') => ({
  metadata: { name },
  spec: { nodeName: `node-of-${name}`, containers: [{ ports: [{ name: 'admin', containerPort: 9191 }] }] },
  status: { phase },
});

function fakeCluster(list: () => Promise<unknown>): Cluster {
  return { api: { request: list }, namespace: 'default', options: {} } as unknown as Cluster;
}

describe('graph --rates on a cluster: the data-plane pods’ /metrics', function () {
  this.timeout(30_000);
  let node: NodeHarness;
  before(async () => (node = await startNodeHarness()));
  after(() => node?.close());

  it('adds up every running pod’s counters; a pod that cannot be reached is said and left out', async () => {
    assert.equal((await node.post('/web/orders', { order_id: 'C1', amount: 1 })).status, 202);
    const api = await fakeApiServer({ upstream: node.adminPort });
    const broken = await fakeApiServer({ fail: 'pod dp-c is gone' });
    try {
      const connection = { server: api.url, authorize: () => undefined };
      const output = new CapturedOutput();
      const cluster = fakeCluster(() =>
        Promise.resolve({ items: [pod('dp-a'), pod('dp-b'), pod('dp-p', 'Pending')] }),
      );
      const text = await podMetrics(
        { cluster, operatorNamespace: 'streamroute-system', forward: { connection } },
        output,
      );
      const single = countersOf(
        await (await fetch(`http://127.0.0.1:${node.adminPort}/metrics`)).text(),
        RECORDS_IN,
        'default',
      );
      const both = countersOf(text, RECORDS_IN, 'default');
      assert.ok((single.get('http-ingestor/web-in') ?? 0) >= 1);
      assert.equal(both.get('http-ingestor/web-in'), 2 * (single.get('http-ingestor/web-in') ?? 0));
      assert.equal(api.requests.length, 2, 'the Pending pod is not asked');
      assert.equal(output.stderr, '');

      const failing = new CapturedOutput();
      const partial = await podMetrics(
        {
          cluster: fakeCluster(() => Promise.resolve({ items: [pod('dp-c')] })),
          operatorNamespace: 'ns',
          forward: { connection: { server: broken.url, authorize: () => undefined } },
        },
        failing,
      );
      assert.equal(partial, '');
      assert.match(failing.stderr, /^streamroute: pod dp-c: cannot read \/metrics: .*pod dp-c is gone/mu);
    } finally {
      await api.close();
      await broken.close();
    }
  });

  it('pods that cannot be listed: exit 3 with the API server’s reason', async () => {
    const refused = Object.assign(new Error('pods is forbidden'), { name: 'KubeApiError' });
    await assert.rejects(
      podMetrics(
        { cluster: fakeCluster(() => Promise.reject(refused)), operatorNamespace: 'ns' },
        new CapturedOutput(),
      ),
      (error: Error) =>
        error.constructor.name === 'InputError' &&
        /--rates: cannot list the data-plane pods in ns: /u.test(error.message),
    );
  });
});

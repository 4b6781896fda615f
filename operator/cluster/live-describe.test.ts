import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fakeApiServer } from '../../test/support/fake-port-forward.js';
import type { Cluster } from './cluster-target.js';
import { describeOnNodes, liveText } from './live-describe.js';

const DESCRIPTION = {
  domain: 'shop',
  kind: 'http-ingestor',
  name: 'web-in',
  graphVersion: 3,
  state: 'Running',
  transientError: null,
  backoffMs: null,
  metrics: { records_in: 2 },
  details: {},
};

const pod = (name: string, nodeName: string, phase: string) => ({
  metadata: { name },
  spec: { nodeName, containers: [{ ports: [{ name: 'admin', containerPort: 9191 }] }] },
  status: { phase },
});

/** A Cluster whose API lists the given pods and records what was asked. */
function fakeCluster(pods: unknown[], asked: string[]): Cluster {
  const api = {
    request: (spec: { path: string; query?: Record<string, string> }) => {
      asked.push(`${spec.path}?${new URLSearchParams(spec.query).toString()}`);
      return Promise.resolve({ items: pods });
    },
  };
  return { api, namespace: 'shop', options: {} } as unknown as Cluster;
}

describe('live describe on a cluster', () => {
  it("reads each running pod's DESCRIBE through a port-forward to its admin port", async () => {
    const paths: string[] = [];
    const admin = createServer((request, response) => {
      paths.push(request.url ?? '');
      response.setHeader('content-type', 'application/json');
      response.end(JSON.stringify(DESCRIPTION));
    });
    await new Promise<void>((resolve) => admin.listen(0, '127.0.0.1', resolve));
    const api = await fakeApiServer({ upstream: (admin.address() as AddressInfo).port });
    const asked: string[] = [];
    try {
      const nodes = await describeOnNodes({
        cluster: fakeCluster(
          [
            pod('dp-b', 'node-b', 'Running'),
            pod('dp-a', 'node-a', 'Running'),
            pod('dp-c', 'node-c', 'Pending'),
          ],
          asked,
        ),
        operatorNamespace: 'streamroute-system',
        kind: 'ingestor',
        name: 'web-in',
        forward: { connection: { server: api.url, authorize: () => undefined } },
      });
      assert.deepEqual(
        nodes.map((each) => [each.node, each.pod, each.description?.graphVersion, each.error]),
        [
          ['node-a', 'dp-a', 3, undefined],
          ['node-b', 'dp-b', 3, undefined],
        ],
      );
      assert.deepEqual(paths, ['/v1/domains/shop/ingestors/web-in', '/v1/domains/shop/ingestors/web-in']);
      assert.deepEqual(
        api.requests.map((request) => request.url).sort(),
        [
          '/api/v1/namespaces/streamroute-system/pods/dp-a/portforward?ports=9191',
          '/api/v1/namespaces/streamroute-system/pods/dp-b/portforward?ports=9191',
        ].sort(),
      );
      assert.match(asked[0] ?? '', /^\/api\/v1\/namespaces\/streamroute-system\/pods\?labelSelector=/);
      const text = liveText(nodes, 'streamroute-system');
      assert.match(text, /^--- node node-a \(pod dp-a\)\n/);
      assert.match(text, /\n--- node node-b \(pod dp-b\)\n/);
    } finally {
      await api.close();
      admin.close();
    }
  });

  it('shows a node it cannot reach with the reason (a refused port-forward), and an empty list', async () => {
    const api = await fakeApiServer({ status: 403 });
    try {
      const nodes = await describeOnNodes({
        cluster: fakeCluster([pod('dp-a', 'node-a', 'Running')], []),
        operatorNamespace: 'streamroute-system',
        kind: 'emitter',
        name: 'out',
        forward: { connection: { server: api.url, authorize: () => undefined } },
      });
      assert.equal(nodes.length, 1);
      assert.match(nodes[0]?.error ?? '', /^cannot reach the admin API: .*port-forward refused: 40[13]/);
      assert.match(liveText(nodes, 'ns'), /^--- node node-a \(pod dp-a\): cannot reach the admin API/);
    } finally {
      await api.close();
    }
    assert.equal(
      liveText([], 'streamroute-system'),
      'live: no running data-plane pods in namespace streamroute-system',
    );
  });
});

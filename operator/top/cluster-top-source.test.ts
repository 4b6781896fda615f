// `top` on a cluster, with each "pod" read from a real embedded node's admin API (the routes a data-plane
// pod serves are the same): every component per pod through the pod access, a pod that cannot be
// reached shown with its reason, and the live API's describe when the pods cannot be listed (403).
import assert from 'node:assert/strict';
import { request, type IncomingMessage } from 'node:http';
import { KubeApiError } from '../../dataplane/kube-client/kube-api.js';
import { decodeDescription } from '../client/protocol.js';
import type { Cluster } from '../cluster/cluster-target.js';
import type { NodeDescription } from '../cluster/live-describe.js';
import type { DataplanePod, PodAccess } from '../cluster/pod-access.js';
import { nodeStatementTarget } from '../shell/statement-target.js';
import { parseServer } from '../client/endpoint.js';
import { eachTestNode, type NodeHarness } from '../../test/fixtures/node-harness.js';
import { clusterTopSource } from './cluster-top-source.js';
import type { NodeSample } from './top-sample.js';

const pod = (name: string, node: string): DataplanePod => ({
  metadata: { name },
  spec: { nodeName: node },
  status: { phase: 'Running' },
});

function adminGet(port: number, path: string): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const outgoing = request({ host: '127.0.0.1', port, path, agent: false }, resolve);
    outgoing.on('error', reject);
    outgoing.end();
  });
}

const row = (sample: NodeSample | undefined, name: string) =>
  sample?.components.find((each) => each.name === name);

describe('top on a cluster, per node', () => {
  let node: NodeHarness;
  eachTestNode((started) => (node = started));

  const sources = (
    access: PodAccess,
    live?: (plural: string, name: string) => Promise<NodeDescription[]>,
  ) => {
    const server = parseServer(`http://127.0.0.1:${node.adminPort}`);
    assert.ok(typeof server !== 'string');
    const statements = nodeStatementTarget({ server, domain: 'default' }, process.cwd());
    const cluster = { namespace: 'default', options: {} } as unknown as Cluster;
    return clusterTopSource({
      cluster,
      operatorNamespace: 'streamroute-system',
      access,
      statements,
      ...(live === undefined ? {} : { live }),
    });
  };

  it('reads every pod through the pod access: counters, pending and state per node; a lost pod says why', async () => {
    for (let index = 0; index < 3; index++)
      assert.equal((await node.post('/web/orders', { order_id: `O${index}`, amount: 2 })).status, 202);
    const asked: string[] = [];
    const access: PodAccess = {
      pods: () => Promise.resolve([pod('dp-a', 'node-a'), pod('dp-b', 'node-b')]),
      get: (target, path) => {
        asked.push(`${target.metadata.name} ${path}`);
        if (target.metadata.name === 'dp-b')
          return Promise.reject(Object.assign(new Error('x'), { code: 'ECONNRESET' }));
        return adminGet(node.adminPort, path);
      },
    };
    const [a, b] = await sources(access).look();
    assert.deepEqual([a?.node, a?.pod, b?.node, b?.pod], ['node-a', 'dp-a', 'node-b', 'dp-b']);
    assert.deepEqual(row(a, 'web_in'), {
      kind: 'http-ingestor',
      name: 'web_in',
      recordsIn: 3,
      recordsOut: 3,
      errors: 0,
      drops: 0,
      pending: 0,
      state: 'Running',
    });
    assert.equal(row(a, 'pay_first')?.pending, 3, 'three orders wait for a payment');
    assert.equal(row(a, 'all_orders')?.recordsOut, 3);
    assert.deepEqual(b?.components, []);
    assert.equal(b?.error, 'cannot read the admin API: the connection was reset');
    assert.ok(asked.includes('dp-a /metrics'));
    assert.ok(asked.includes('dp-a /v1/domains/default/ingestors/web-in'), asked.join('\n'));
  });

  it('without the right to list the pods, the live API describes the ingestors and emitters on each node', async () => {
    assert.equal((await node.post('/web/orders', { order_id: 'L1', amount: 2 })).status, 202);
    const forbidden = new KubeApiError({
      status: 403,
      reason: 'Forbidden',
      message: 'no',
      method: 'GET',
      path: '/api/v1/pods',
    });
    const access: PodAccess = {
      pods: () => Promise.reject(forbidden),
      get: () => assert.fail('no pod is read'),
    };
    const live = async (plural: string, name: string): Promise<NodeDescription[]> => {
      assert.equal(plural, 'httpingestors');
      const response = await adminGet(node.adminPort, `/v1/domains/default/ingestors/${name}`);
      const chunks: Buffer[] = [];
      for await (const chunk of response as AsyncIterable<Buffer>) chunks.push(chunk);
      const decoded = decodeDescription(JSON.parse(Buffer.concat(chunks).toString('utf8')));
      assert.ok(decoded.ok);
      return [{ node: 'node-a', pod: 'dp-a', description: decoded.value }];
    };
    const source = sources(access, live);
    const [a] = await source.look();
    assert.deepEqual(a?.components.map((each) => each.name).sort(), ['payments_in', 'shop_in', 'web_in']);
    assert.equal(row(a, 'web_in')?.recordsIn, 1);
    assert.match(
      source.note ?? '',
      /ingestors and emitters only: relays, junctions and correlators need pods\/portforward in streamroute-system/,
    );
  });
});

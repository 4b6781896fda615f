// The Endpoint kind's plural on a real kube-apiserver: with the CRDs installed, discovery maps
// `endpoints` to the core kind only and `vhostendpoints` to ours; and the upgrade from chart 0.1.0
// (CRD endpoints.streamroute.io) that docs/kubernetes.md describes works as written — the jq program is
// read from that page and run by the real jq.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { parse } from 'yaml';
import { GROUP, VERSION } from '../../operator/api/common.js';
import { crdFor } from '../../operator/api/crd.js';
import { endpointKind } from '../../operator/api/kinds/endpoint.js';
import { renderCrds } from '../../operator/api/render-crds.js';
import { KubeApi, isStatus } from '../../dataplane/kube-client/kube-api.js';
import { discoveredResources, kindsNamed } from '../support/discovery.js';
import {
  requireKubeOrSkip,
  sharedKubeApiServer,
  startKubeApiServer,
  type KubeTestServer,
} from '../support/kube-apiserver.js';
import { applyRaw, installCrds, kubeClients } from '../support/kube-client.js';
import { requirePeer } from '../support/peers.js';

const CRD_PATH = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
const OLD_CRD = `endpoints.${GROUP}`;
const NEW_CRD = `${endpointKind.plural}.${GROUP}`;
const OURS = `${GROUP}/Endpoint`;

function apiFor(server: KubeTestServer): KubeApi {
  return new KubeApi({
    kubeconfig: server.kubeconfigPath,
    rateLimit: { qps: 100, burst: 100 },
    userAgent: 'endpoint-plural-test',
  });
}

/** The jq program of the upgrade steps in docs/kubernetes.md. */
function documentedExportProgram(): string {
  const doc = readFileSync(join(import.meta.dirname, '..', '..', 'docs', 'kubernetes.md'), 'utf8');
  const section = doc.split('\n## Upgrading from chart 0.1.0\n')[1]?.split('\n## ')[0] ?? '';
  assert.ok(section.includes(`kubectl get ${OLD_CRD} --all-namespaces -o json`), 'step 1 reads the old CRD');
  assert.ok(section.includes(`kubectl delete crd ${OLD_CRD}`), 'step 3 deletes the old CRD');
  assert.ok(section.includes(`crd/${NEW_CRD}`), 'step 3 waits for the new CRD');
  const program = /\| jq '([^']+)'/.exec(section)?.[1];
  assert.ok(program !== undefined, 'the section has a jq program');
  return program;
}

interface Condition {
  type: string;
  status: string;
  reason?: string;
  message?: string;
}
interface EndpointObject {
  apiVersion: string;
  kind: string;
  metadata: {
    name: string;
    namespace: string;
    labels?: Record<string, string>;
    annotations?: Record<string, string>;
    resourceVersion?: string;
    uid?: string;
  };
  spec: unknown;
}

async function crdCondition(api: KubeApi, name: string, type: string): Promise<Condition | undefined> {
  const crd = await api.request<{ status?: { conditions?: Condition[] } }>({ path: `${CRD_PATH}/${name}` });
  return crd.status?.conditions?.find((condition) => condition.type === type);
}

async function eventually<T>(what: string, check: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}

describe('the Endpoint kind on a real kube-apiserver', function () {
  this.timeout(120_000);

  before(async function () {
    await requireKubeOrSkip(this);
  });

  it('with the CRDs installed, discovery maps `endpoints` to the core kind and `vhostendpoints` to ours', async () => {
    const server = await sharedKubeApiServer();
    await installCrds(kubeClients(server));
    const resources = await discoveredResources(apiFor(server));
    assert.deepEqual(kindsNamed(resources, 'endpoints'), ['core/Endpoints']);
    for (const word of ['vhostendpoints', 'vhostendpoint', 'srep'])
      assert.deepEqual(kindsNamed(resources, word), [OURS], word);
    assert.deepEqual(kindsNamed(resources, 'endpoint'), [], 'no singular `endpoint` either');
  });

  describe('upgrading from chart 0.1.0 as docs/kubernetes.md says', () => {
    const program = documentedExportProgram();
    let server: KubeTestServer;
    let api: KubeApi;
    const originals: EndpointObject[] = [
      {
        apiVersion: `${GROUP}/${VERSION}`,
        kind: 'Endpoint',
        metadata: {
          name: 'orders',
          namespace: 'shop',
          labels: { team: 'checkout' },
          annotations: { 'streamroute.io/transaction': 'tx-1', 'streamroute.io/transaction-size': '2' },
        },
        spec: { vhost: 'shop', path: '/orders', type: 'HTTP' },
      },
      {
        apiVersion: `${GROUP}/${VERSION}`,
        kind: 'Endpoint',
        metadata: { name: 'events', namespace: 'audit' },
        spec: { vhost: 'audit', path: '/v1/events', type: 'HTTP' },
      },
    ];
    let saved: EndpointObject[];

    before(async function () {
      requirePeer(
        this,
        spawnSync('jq', ['--version']).status === 0,
        'the jq binary is not installed (Debian package jq)',
      );
      // Its own server: the 0.1.0 CRD claims the kind Endpoint, which the shared server's CRDs also claim.
      server = await startKubeApiServer();
      api = apiFor(server);
      const old = crdFor({ ...endpointKind, plural: 'endpoints', singular: 'endpoint' });
      await applyRaw(server, `${CRD_PATH}/${OLD_CRD}`, old);
      await eventually('the 0.1.0 CRD', async () =>
        (await crdCondition(api, OLD_CRD, 'Established'))?.status === 'True' ? true : undefined,
      );
      for (const object of originals) {
        const { namespace } = object.metadata;
        await api.request({
          method: 'POST',
          path: '/api/v1/namespaces',
          body: { metadata: { name: namespace } },
        });
        await api.request({
          method: 'POST',
          path: `/apis/${GROUP}/${VERSION}/namespaces/${namespace}/endpoints`,
          body: object,
        });
      }
    });

    after(async () => {
      await server?.stop();
    });

    it('with the 0.1.0 CRD, `endpoints` names two kinds (the collision the rename removes)', async () => {
      const resources = await discoveredResources(api);
      assert.deepEqual(kindsNamed(resources, 'endpoints'), ['core/Endpoints', OURS]);
    });

    it('step 1: the documented jq program keeps names, labels, annotations and spec, and nothing the server wrote', async () => {
      const list = await api.request<unknown>({ path: `/apis/${GROUP}/${VERSION}/endpoints` });
      const jq = spawnSync('jq', ['-c', program], { input: JSON.stringify(list), encoding: 'utf8' });
      assert.equal(jq.status, 0, jq.stderr);
      const exported = JSON.parse(jq.stdout) as { apiVersion: string; kind: string; items: EndpointObject[] };
      assert.equal(exported.kind, 'List');
      saved = exported.items;
      const byName = (a: EndpointObject, b: EndpointObject) => a.metadata.name.localeCompare(b.metadata.name);
      assert.deepEqual([...saved].sort(byName), [...originals].sort(byName));
    });

    it('step 3: the new CRD is not served while the 0.1.0 CRD holds the kind (KindConflict)', async () => {
      await applyRaw(server, `${CRD_PATH}/${NEW_CRD}`, crdFor(endpointKind));
      const accepted = await eventually('NamesAccepted on the new CRD', () =>
        crdCondition(api, NEW_CRD, 'NamesAccepted'),
      );
      assert.equal(accepted.status, 'False');
      // The kind and its list kind are both taken; the API server names the one it checks first.
      assert.match(accepted.reason ?? '', /^(List)?KindConflict$/);
      assert.match(accepted.message ?? '', /"Endpoint(List)?" is already in use/);
      assert.notEqual((await crdCondition(api, NEW_CRD, 'Established'))?.status, 'True');
    });

    it('steps 3 and 4: delete the 0.1.0 CRD, apply the chart’s, create the saved objects under the new plural', async () => {
      await api.request({ method: 'DELETE', path: `${CRD_PATH}/${OLD_CRD}` });
      await eventually('the 0.1.0 CRD to be gone', async () => {
        try {
          await api.request({ path: `${CRD_PATH}/${OLD_CRD}` });
          return undefined;
        } catch (error: unknown) {
          if (isStatus(error, 404)) return true;
          throw error;
        }
      });
      for (const { yaml } of renderCrds()) {
        const crd = parse(yaml) as { metadata: { name: string } };
        await applyRaw(server, `${CRD_PATH}/${crd.metadata.name}`, crd);
      }
      await eventually('the new CRD to be Established', async () =>
        (await crdCondition(api, NEW_CRD, 'Established'))?.status === 'True' ? true : undefined,
      );
      // kubectl create -f: the file's kind and apiVersion resolve through discovery to the new plural.
      const resources = await discoveredResources(api);
      const plural = resources.find((r) => r.group === GROUP && r.kind === 'Endpoint')?.name;
      assert.equal(plural, 'vhostendpoints');
      for (const object of saved) {
        const path = `/apis/${GROUP}/${VERSION}/namespaces/${object.metadata.namespace}/${plural}`;
        await api.request({ method: 'POST', path, body: object });
      }
      const listed = await api.request<{ items: EndpointObject[] }>({
        path: `/apis/${GROUP}/${VERSION}/${plural}`,
      });
      for (const original of originals) {
        const found = listed.items.find((item) => item.metadata.name === original.metadata.name);
        assert.ok(found, original.metadata.name);
        assert.equal(found.metadata.namespace, original.metadata.namespace);
        assert.deepEqual(found.metadata.labels, original.metadata.labels);
        assert.deepEqual(found.metadata.annotations, original.metadata.annotations);
        assert.deepEqual(found.spec, original.spec);
      }
      assert.deepEqual(kindsNamed(resources, 'endpoints'), ['core/Endpoints']);
      assert.deepEqual(kindsNamed(resources, 'vhostendpoints'), [OURS]);
    });
  });
});

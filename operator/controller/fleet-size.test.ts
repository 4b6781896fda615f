import assert from 'node:assert/strict';
import { pino } from 'pino';
import { ManualClock } from '../../dataplane/core/clock.js';
import { ANNOTATION_FLEET_NODES } from '../../dataplane/kube/contract.js';
import { KubeApiError, type KubeApi, type RequestSpec } from '../../dataplane/kube-client/kube-api.js';
import { FleetSizePublisher } from './fleet-size.js';

/** An API holding the index (or none); records writes. */
function fakeApi(annotation: string | undefined, exists = true) {
  const writes: RequestSpec[] = [];
  let index = {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: {
      name: 'streamroute-index',
      namespace: 'sys',
      resourceVersion: '7',
      ...(annotation === undefined ? {} : { annotations: { [ANNOTATION_FLEET_NODES]: annotation } }),
    },
    data: { 'index.json': '{"domains":{}}' },
  };
  const api = {
    request: (spec: RequestSpec): Promise<unknown> => {
      if (spec.method === 'PUT') {
        writes.push(spec);
        index = spec.body as typeof index;
        return Promise.resolve(index);
      }
      if (!exists)
        return Promise.reject(
          new KubeApiError({
            status: 404,
            reason: 'NotFound',
            message: 'gone',
            method: 'GET',
            path: spec.path,
          }),
        );
      return Promise.resolve(index);
    },
  } as unknown as KubeApi;
  return { api, writes };
}

function publisher(api: KubeApi, count: number | undefined) {
  return new FleetSizePublisher({
    api: () => api,
    clock: new ManualClock(0),
    logger: pino({ level: 'silent' }),
    namespace: 'sys',
    count: () => count,
  });
}

describe('FleetSizePublisher', () => {
  it('writes the rounded fleet size on the index, keeping its data and metadata', async () => {
    const { api, writes } = fakeApi(undefined);
    const p = publisher(api, 15_000);
    assert.equal(await p.check(), true);
    assert.equal(p.published, 16_384);
    const body = writes[0]?.body as {
      metadata: { annotations: Record<string, string>; resourceVersion: string };
      data: unknown;
    };
    assert.equal(body.metadata.annotations[ANNOTATION_FLEET_NODES], '16384');
    assert.equal(body.metadata.resourceVersion, '7', 'a conflicting write fails instead of overwriting');
    assert.deepEqual(body.data, { 'index.json': '{"domains":{}}' });
  });

  it('writes nothing while the size stays in its bucket, before the cache listed, or without an index', async () => {
    assert.equal(await publisher(fakeApi('16384').api, 9_000).check(), false);
    assert.equal(await publisher(fakeApi(undefined).api, undefined).check(), false);
    assert.equal(await publisher(fakeApi(undefined, false).api, 10).check(), false);
    const shrunk = fakeApi('16384');
    assert.equal(await publisher(shrunk.api, 3_000).check(), true);
    assert.equal(
      (shrunk.writes[0]?.body as { metadata: { annotations: Record<string, string> } }).metadata.annotations[
        ANNOTATION_FLEET_NODES
      ],
      '4096',
    );
  });
});

import assert from 'node:assert/strict';
import { KubeApiError, missingCrd } from './kube-api.js';

const failure = (status: number, reason: string, path: string): KubeApiError =>
  new KubeApiError({ status, reason, message: 'm', method: 'GET', path });

describe('missingCrd', () => {
  it('names the CRD of a 404 on a streamroute.io collection, cluster-wide or namespaced', () => {
    assert.equal(
      missingCrd(failure(404, 'Unknown', '/apis/streamroute.io/v1alpha1/relays')),
      'relays.streamroute.io',
    );
    assert.equal(
      missingCrd(failure(404, 'NotFound', '/apis/streamroute.io/v1alpha1/namespaces/shop/httpingestors')),
      'httpingestors.streamroute.io',
    );
  });

  it('names it for an object only when the server did not serve the resource (its plain 404, not a Status)', () => {
    const object = '/apis/streamroute.io/v1alpha1/namespaces/shop/relays/orders';
    assert.equal(missingCrd(failure(404, 'Unknown', object)), 'relays.streamroute.io');
    assert.equal(
      missingCrd(failure(404, 'NotFound', object)),
      undefined,
      'a missing object is not a missing CRD',
    );
  });

  it('leaves other failures alone', () => {
    assert.equal(missingCrd(failure(403, 'Forbidden', '/apis/streamroute.io/v1alpha1/relays')), undefined);
    assert.equal(missingCrd(failure(404, 'NotFound', '/api/v1/namespaces/shop/configmaps')), undefined);
    assert.equal(missingCrd(new Error('ECONNREFUSED')), undefined);
  });
});

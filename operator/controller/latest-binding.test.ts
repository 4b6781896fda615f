import assert from 'node:assert/strict';
import type { GraphObject } from '../api/index.js';
import { toGraphObject } from './cluster-objects.js';
import { bindObject, latestRefs, recordedBindings } from './latest-binding.js';
import { cluster } from './controller.fixtures.js';

const client = (generation: number, version: number | 'LATEST'): GraphObject =>
  toGraphObject(
    cluster(
      'SyslogClient',
      'out',
      { mount: { resource: 'certs', version }, config: { protocol: 'tls', addr: 'a:1' } },
      { generation },
    ),
  );

describe('LATEST binding', () => {
  it('binds LATEST to the highest version at the first reconcile of a generation', () => {
    const binding = bindObject(client(1, 'LATEST'), [], () => 4);
    assert.deepEqual((binding.object.spec as { mount: unknown }).mount, { resource: 'certs', version: 4 });
    assert.deepEqual(binding.bound, [{ resource: 'certs', version: 4, generation: 1 }]);
  });

  it('keeps the recorded number for that generation after a later upload', () => {
    const recorded = recordedBindings({ boundVersions: [{ resource: 'certs', version: 4, generation: 1 }] });
    const binding = bindObject(client(1, 'LATEST'), recorded, () => 5);
    assert.deepEqual((binding.object.spec as { mount: unknown }).mount, { resource: 'certs', version: 4 });
  });

  it('binds again for a new generation', () => {
    const recorded = [{ resource: 'certs', version: 4, generation: 1 }];
    assert.deepEqual(bindObject(client(2, 'LATEST'), recorded, () => 5).bound, [
      { resource: 'certs', version: 5, generation: 2 },
    ]);
  });

  it('leaves an exact version and a resource with no version alone', () => {
    assert.deepEqual(bindObject(client(1, 3), [], () => 5).bound, []);
    const unbound = bindObject(client(1, 'LATEST'), [], () => undefined);
    assert.deepEqual((unbound.object.spec as { mount: unknown }).mount, {
      resource: 'certs',
      version: 'LATEST',
    });
    assert.deepEqual(unbound.bound, []);
  });

  it('finds LATEST in codecs and vhosts', () => {
    const codec = toGraphObject(
      cluster('Codec', 'c', {
        from: 'PROTOBUF',
        protobuf: { using: { resource: 'protos', version: 'LATEST' } },
      }),
    );
    const vhost = toGraphObject(
      cluster('Vhost', 'v', { hostnames: ['a'], tls: { mount: { resource: 'tls', version: 'LATEST' } } }),
    );
    assert.deepEqual(latestRefs(codec), ['protos']);
    assert.deepEqual(latestRefs(vhost), ['tls']);
    assert.deepEqual(recordedBindings({ boundVersions: [{ resource: 1 }] }), []);
  });
});

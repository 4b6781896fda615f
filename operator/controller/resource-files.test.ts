import assert from 'node:assert/strict';
import { editIndex } from './graph-index.js';
import { resourceVersionIndex } from './resource-files.js';

const labels = (resource: string, version: number) => ({
  'streamroute.io/resource': resource,
  'streamroute.io/resource-version': String(version),
});

describe('resourceVersionIndex', () => {
  const index = resourceVersionIndex([
    {
      metadata: {
        name: 'cm',
        labels: labels('protos', 1),
        annotations: { 'streamroute.io/files': '["a.proto","b.bin"]' },
      },
      data: { 'file-0': 'syntax = "proto3";' },
      binaryData: { 'file-1': Buffer.from('hi').toString('base64') },
    } as never,
    {
      kind: 'Secret',
      type: 'Opaque',
      metadata: {
        name: 'sec',
        labels: labels('protos', 3),
        annotations: { 'streamroute.io/files': '["tls.key"]' },
      },
    } as never,
    { metadata: { name: 'stranger' } },
  ]);

  it('reads ConfigMap contents and gives Secret paths empty content', () => {
    assert.equal(index.latestVersion('protos'), 3);
    assert.equal(index.latestVersion('nope'), undefined);
    assert.deepEqual(
      [...(index.files('protos', 1) ?? [])],
      [
        ['a.proto', 'syntax = "proto3";'],
        ['b.bin', 'hi'],
      ],
    );
    assert.deepEqual([...(index.files('protos', 3) ?? [])], [['tls.key', '']]);
    assert.deepEqual(
      index.versions('protos').map((v) => `${v.version}:${v.objectKind}`),
      ['1:ConfigMap', '3:Secret'],
    );
  });
});

describe('editIndex', () => {
  const configMap = (domains: object) => ({
    metadata: { name: 'streamroute-index' },
    data: { 'index.json': JSON.stringify({ domains }) },
  });

  it('sets, keeps and removes one domain entry', () => {
    const entry = { version: 2, sha256: 'a' };
    assert.deepEqual(editIndex(undefined, 'shop', entry), {
      'index.json': '{"domains":{"shop":{"sha256":"a","version":2}}}',
    });
    assert.equal(editIndex(configMap({ shop: entry }), 'shop', entry), undefined);
    assert.deepEqual(editIndex(configMap({ shop: entry, b: entry }), 'shop', undefined), {
      'index.json': '{"domains":{"b":{"sha256":"a","version":2}}}',
    });
    assert.equal(editIndex(undefined, 'shop', undefined), undefined);
  });
});

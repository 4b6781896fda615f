import assert from 'node:assert/strict';
import { decodeResourceVersion, decodeTlsSecret, mountsOf, ResourceCache } from './resource-versions.js';

describe('mountsOf', () => {
  it('collects clients’ mounts and TLS files and vhosts’ TLS files and Secrets, once each', () => {
    const pki = (file: string, version = 2) => ({ resource: 'pki', version, file });
    const mounts = mountsOf({
      clients: {
        a: { mount: { resource: 'pki', version: 2 }, tls: { certFile: pki('a.crt'), keyFile: pki('a.key') } },
        b: { tls: { caFile: pki('ca.crt', 3) } },
        c: { host: 'x' },
      },
      httpIngestors: {
        web: { tls: { secretName: 'web-tls' } },
        api: {
          tls: { certFile: { resource: 'certs', version: 1, file: 'api.crt' }, keyFile: pki('api.key') },
        },
        plain: {},
      },
    });
    assert.deepEqual(mounts.resources, [
      { resource: 'pki', version: 2 },
      { resource: 'pki', version: 3 },
      { resource: 'certs', version: 1 },
    ]);
    assert.deepEqual(mounts.secrets, ['web-tls']);
  });

  it('reads nothing from JSON that is not a graph', () => {
    assert.deepEqual(mountsOf(null), { resources: [], secrets: [] });
    assert.deepEqual(mountsOf({ clients: [1], httpIngestors: 'x' }), { resources: [], secrets: [] });
  });
});

describe('resource version objects', () => {
  const metadata = (files: string[]) => ({
    name: 'streamroute-resource-pki-v2',
    namespace: 'shop',
    annotations: { 'streamroute.io/files': JSON.stringify(files) },
  });

  it('reads a ConfigMap: text in data, bytes in binaryData, by the files annotation', () => {
    const files = decodeResourceVersion(
      {
        metadata: metadata(['ca.crt', 'sub/blob.bin']),
        data: { 'file-0': 'PEM' },
        binaryData: { 'file-1': Buffer.from([0, 255]).toString('base64') },
      },
      'ConfigMap',
    );
    assert.equal(files.get('ca.crt')?.toString(), 'PEM');
    assert.deepEqual([...files.get('sub/blob.bin')!], [0, 255]);
  });

  it('reads a Secret (base64 data)', () => {
    const files = decodeResourceVersion(
      { metadata: metadata(['server.key']), data: { 'file-0': Buffer.from('KEY').toString('base64') } },
      'Secret',
    );
    assert.equal(files.get('server.key')?.toString(), 'KEY');
  });

  it('refuses a missing key or a bad annotation, naming the object', () => {
    assert.throws(
      () => decodeResourceVersion({ metadata: metadata(['a', 'b']), data: { 'file-0': 'x' } }, 'ConfigMap'),
      /ConfigMap shop\/streamroute-resource-pki-v2 has no key file-1 \(file b\)/,
    );
    assert.throws(
      () => decodeResourceVersion({ metadata: { name: 'n', annotations: {} } }, 'Secret'),
      /annotation streamroute.io\/files is not a JSON array/,
    );
  });

  it('serves files and Secrets by domain; unknown ones throw ENOENT; a removed domain is forgotten', () => {
    const cache = new ResourceCache();
    cache.putVersion('shop', { resource: 'pki', version: 2 }, new Map([['a.crt', Buffer.from('C')]]));
    cache.putSecret(
      'shop',
      'web-tls',
      decodeTlsSecret({
        metadata: { name: 'web-tls' },
        data: {
          'tls.crt': Buffer.from('CRT').toString('base64'),
          'tls.key': Buffer.from('KEY').toString('base64'),
        },
      }),
    );
    assert.equal(
      cache.readMountedFile({ resource: 'pki', version: 2, file: 'a.crt' }, 'shop').toString(),
      'C',
    );
    assert.equal(cache.readSecret('web-tls', 'shop').key.toString(), 'KEY');
    assert.throws(() => cache.readMountedFile({ resource: 'pki', version: 2, file: 'a.crt' }, 'other'), {
      code: 'ENOENT',
    });
    assert.throws(
      () => cache.readMountedFile({ resource: 'pki', version: 2, file: 'b' }, 'shop'),
      /has no file b/,
    );
    cache.dropDomain('shop');
    assert.throws(() => cache.readSecret('web-tls', 'shop'), { code: 'ENOENT' });
    assert.equal(cache.bytes, 0);
  });
});

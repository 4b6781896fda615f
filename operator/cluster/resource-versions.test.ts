import assert from 'node:assert/strict';
import type { VersionObject } from './cluster-objects.js';
import {
  buildVersionObject,
  holdsPrivateKey,
  latestVersions,
  nextVersion,
  resourceFilesOf,
} from './resource-versions.js';

const file = (path: string, text: string | Buffer) => ({
  path,
  content: typeof text === 'string' ? Buffer.from(text) : text,
});

function versionObject(
  resource: string,
  version: string,
  kind: 'ConfigMap' | 'Secret' = 'ConfigMap',
): VersionObject {
  const labels = { 'streamroute.io/resource': resource, 'streamroute.io/resource-version': version };
  return { kind, object: { metadata: { name: `streamroute-resource-${resource}-v${version}`, labels } } };
}

describe('resource versions on a cluster', () => {
  it('chooses the version after the highest existing one, the first being 1', () => {
    assert.equal(nextVersion([]), 1);
    assert.equal(
      nextVersion([versionObject('p', '1'), versionObject('p', '3', 'Secret'), versionObject('p', '2')]),
      4,
    );
    assert.equal(nextVersion([versionObject('p', 'x')]), 1);
    assert.deepEqual(
      latestVersions([versionObject('p', '2'), versionObject('q', '5'), versionObject('p', '1')]),
      new Map([
        ['p', 2],
        ['q', 5],
      ]),
    );
  });

  for (const [name, text, secret] of [
    ['a PKCS#8 key', '-----BEGIN PRIVATE KEY-----\nMIIB\n-----END PRIVATE KEY-----\n', true],
    ['an RSA key', 'x\n-----BEGIN RSA PRIVATE KEY-----\n', true],
    ['an EC key', '-----BEGIN EC PRIVATE KEY-----', true],
    ['an encrypted key', '-----BEGIN ENCRYPTED PRIVATE KEY-----', true],
    ['a PGP key', '-----BEGIN PGP PRIVATE KEY BLOCK-----', true],
    ['a certificate', '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n', false],
    ['a public key', '-----BEGIN PUBLIC KEY-----', false],
    ['a proto file', 'syntax = "proto3";', false],
  ] as const) {
    it(`${secret ? 'puts' : 'does not put'} ${name} in a Secret`, () => {
      assert.equal(holdsPrivateKey([file('a.proto', 'x'), file('f', text)]), secret);
      assert.equal(
        buildVersionObject('ns', 'r', 1, [file('f', text)])['kind'],
        secret ? 'Secret' : 'ConfigMap',
      );
    });
  }

  for (const name of ['server.key', 'store.p12', 'client.pfx', 'trust.JKS', 'app.keystore']) {
    it(`puts a binary key file by its name (${name}) in a Secret`, () => {
      assert.equal(holdsPrivateKey([file(name, Buffer.from([0x30, 0x82, 0x01]))]), true);
    });
  }

  for (const name of ['password', 'kafka/kafka-password', 'sasl.PASSWD', 'client-secret.txt']) {
    it(`puts a password file by its name (${name}) in a Secret`, () => {
      assert.equal(holdsPrivateKey([file(name, 'hunter2\n')]), true);
      assert.equal(buildVersionObject('ns', 'r', 1, [file(name, 'hunter2\n')])['kind'], 'Secret');
    });
  }

  it('looks at the file name, not at its directory, for a password', () => {
    assert.equal(holdsPrivateKey([file('secrets/ca.crt', '-----BEGIN CERTIFICATE-----')]), false);
  });

  it('builds an immutable ConfigMap with labels, paths, a digest and binaryData for bytes that are not UTF-8', () => {
    const object = buildVersionObject('shop', 'protos', 2, [
      file('a.proto', 'syntax'),
      file('b.bin', Buffer.from([0xff, 0])),
    ]);
    assert.equal(object['immutable'], true);
    const metadata = object['metadata'] as {
      name: string;
      labels: Record<string, string>;
      annotations: Record<string, string>;
    };
    assert.equal(metadata.name, 'streamroute-resource-protos-v2');
    assert.equal(metadata.labels['streamroute.io/resource'], 'protos');
    assert.equal(metadata.labels['streamroute.io/resource-version'], '2');
    assert.equal(metadata.annotations['streamroute.io/files'], '["a.proto","b.bin"]');
    assert.match(metadata.annotations['streamroute.io/sha256'] ?? '', /^[0-9a-f]{64}$/);
    assert.deepEqual(object['data'], { 'file-0': 'syntax' });
    assert.deepEqual(object['binaryData'], { 'file-1': '/wA=' });
  });

  it('reads versions back for the compiler, with the uploads about to be made', () => {
    const built = buildVersionObject('ns', 'p', 1, [
      file('x.proto', 'one'),
    ]) as unknown as VersionObject['object'];
    const files = resourceFilesOf(
      [{ kind: 'ConfigMap', object: built }],
      new Map([['p', { version: 2, files: [file('x.proto', 'two')] }]]),
    );
    assert.equal(files.latestVersion('p'), 2);
    assert.equal(files.files('p', 1)?.get('x.proto'), 'one');
    assert.equal(files.files('p', 2)?.get('x.proto'), 'two');
    assert.equal(files.files('p', 3), undefined);
  });
});

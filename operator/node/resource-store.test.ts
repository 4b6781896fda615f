import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { memoryLogger } from '../../test/fixtures/graph-from-statements.js';
import { removeDir, tempDir } from '../../test/fixtures/embedded-node.js';
import type { MountedFile } from '../../dataplane/graph/types.js';
import { DataDirError } from './data-dir-error.js';
import { ResourceStore, unsafeUploadPath } from './resource-store.js';

const NOW = new Date('2026-11-22T03:08:00Z');
const file = (path: string, text: string) => ({ path, content: Buffer.from(text) });

describe('resource store', () => {
  let root: string;
  beforeEach(() => {
    root = tempDir();
  });
  afterEach(() => removeDir(root));

  it('numbers versions from 1 per domain and resource, and marks each complete last', async () => {
    const { logger } = memoryLogger();
    const store = ResourceStore.open(root, logger);
    assert.equal(
      await store.addVersion('default', 'pki', [file('a.crt', 'A'), file('dir/b.key', 'B')], NOW),
      1,
    );
    assert.equal(await store.addVersion('default', 'pki', [file('a.crt', 'A2')], NOW), 2);
    assert.equal(await store.addVersion('team-a', 'pki', [file('a.crt', 'other')], NOW), 1);
    assert.deepEqual(store.versions('default', 'pki'), [1, 2]);
    assert.deepEqual(readdirSync(join(root, 'default', 'pki', '1')).sort(), ['complete.json', 'files']);
    const info = JSON.parse(
      readFileSync(join(root, 'default', 'pki', '1', 'complete.json'), 'utf8'),
    ) as Record<string, unknown>;
    assert.deepEqual(info.files, ['a.crt', 'dir/b.key']);
    assert.equal(info.uploadedAt, '2026-11-22T03:08:00.000Z');
    assert.match(String(info.sha256), /^[0-9a-f]{64}$/);

    const view = store.view('default');
    assert.equal(view.latestVersion('pki'), 2);
    assert.deepEqual(
      [...(view.files('pki', 1) ?? [])],
      [
        ['a.crt', 'A'],
        ['dir/b.key', 'B'],
      ],
    );
    assert.equal(view.files('pki', 3), undefined);
    assert.equal(store.view('team-a').files('pki', 1)?.get('a.crt'), 'other');
  });

  it('a new store over the same directory sees the completed versions', async () => {
    const { logger } = memoryLogger();
    await ResourceStore.open(root, logger).addVersion('default', 'protos', [file('a.proto', 'x')], NOW);
    const again = ResourceStore.open(root, logger);
    assert.equal(again.latestVersion('default', 'protos'), 1);
    assert.equal(again.files('default', 'protos', 1)?.get('a.proto'), 'x');
  });

  it('deletes an upload that never completed (a crash mid-write) and reuses its number', async () => {
    const { logger } = memoryLogger();
    await ResourceStore.open(root, logger).addVersion('default', 'pki', [file('a.crt', 'A')], NOW);
    // Version 2 was being written when the node died: files, but no complete.json.
    mkdirSync(join(root, 'default', 'pki', '2', 'files'), { recursive: true });
    writeFileSync(join(root, 'default', 'pki', '2', 'files', 'a.crt'), 'half');
    writeFileSync(join(root, 'default', 'pki', '.x.tmp-1-2'), '');
    const { logger: second, logs } = memoryLogger();
    const store = ResourceStore.open(root, second);
    assert.deepEqual(store.versions('default', 'pki'), [1]);
    assert.equal(existsSync(join(root, 'default', 'pki', '2')), false);
    assert.equal(existsSync(join(root, 'default', 'pki', '.x.tmp-1-2')), false);
    assert.ok(
      logs.some((line) => line.msg === 'removed an upload that never completed' && line.version === 2),
    );
    assert.equal(await store.addVersion('default', 'pki', [file('a.crt', 'A2')], NOW), 2);
    assert.equal(store.files('default', 'pki', 2)?.get('a.crt'), 'A2');
  });

  it('refuses to start over a completion marker it did not write, naming the file', () => {
    mkdirSync(join(root, 'default', 'pki', '1'), { recursive: true });
    writeFileSync(join(root, 'default', 'pki', '1', 'complete.json'), '{"version": 2, "files": []}');
    const { logger } = memoryLogger();
    assert.throws(
      () => ResourceStore.open(root, logger),
      (error: unknown) =>
        error instanceof DataDirError &&
        error.message ===
          `${join(root, 'default', 'pki', '1', 'complete.json')} does not describe version 1 (it is not what the node wrote)`,
    );
  });

  it('bug: a resources directory that cannot be read crashed at start — now a DataDirError naming it', () => {
    const { logger } = memoryLogger();
    const missing = join(root, 'not-there');
    assert.throws(
      () => ResourceStore.open(missing, logger),
      (error: unknown) =>
        error instanceof DataDirError &&
        error.message === `cannot read ${missing}: no such file or directory`,
    );
  });

  it('reads mounted files of completed versions only', async () => {
    const { logger } = memoryLogger();
    const store = ResourceStore.open(root, logger);
    await store.addVersion('default', 'pki', [file('server.crt', 'CERT')], NOW);
    const read = (mounted: MountedFile) => store.readMountedFile('default', mounted);
    assert.deepEqual(read({ resource: 'pki', version: 1, file: 'server.crt' }), Buffer.from('CERT'));
    for (const [mounted, message] of [
      [
        { resource: 'pki', version: 2, file: 'server.crt' },
        'there is no resource pki version 2 of domain default',
      ],
      [
        { resource: 'pki', version: 1, file: 'other.crt' },
        'resource pki version 1 of domain default has no file other.crt',
      ],
      [
        { resource: 'pki', version: 1, file: '../../x' },
        '../../x is not a file of resource pki version 1 of domain default',
      ],
    ] as const) {
      assert.throws(() => read(mounted), { message });
    }
  });

  it('refuses upload paths that leave the version directory', async () => {
    const { logger } = memoryLogger();
    const store = ResourceStore.open(root, logger);
    await assert.rejects(
      store.addVersion('default', 'pki', [file('../escape', 'x')], NOW),
      /leaves the resource/,
    );
    assert.deepEqual(store.versions('default', 'pki'), []);
  });

  const paths: [string, string | undefined][] = [
    ['a.crt', undefined],
    ['orders/v1/order.proto', undefined],
    ['', 'is empty'],
    ['/etc/passwd', 'is absolute'],
    ['C:/x', 'is absolute'],
    ['a/../../b', 'leaves the resource or has an empty segment'],
    ['..', 'leaves the resource or has an empty segment'],
    ['a//b', 'leaves the resource or has an empty segment'],
    ['a\\b', 'holds a backslash or a NUL character'],
  ];
  for (const [path, problem] of paths) {
    it(`upload path ${JSON.stringify(path)}: ${problem ?? 'fine'}`, () => {
      assert.equal(unsafeUploadPath(path), problem);
    });
  }
});

import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { memoryLogger } from '../../test/fixtures/graph-from-statements.js';
import { removeDir, tempDir } from '../../test/fixtures/embedded-node.js';
import { startEmbeddedNode, type EmbeddedNodeOptions } from './embedded-node.js';
import { ManifestError } from './manifests.js';

const LOOPBACK = { host: '127.0.0.1', port: 0 };

function options(extra: Partial<EmbeddedNodeOptions> = {}): EmbeddedNodeOptions {
  return {
    httpAddress: LOOPBACK,
    httpsAddress: LOOPBACK,
    adminAddress: LOOPBACK,
    logger: memoryLogger().logger,
    ...extra,
  };
}

describe('embedded node', () => {
  let root: string;
  beforeEach(() => {
    root = tempDir('streamroute-embedded-');
  });
  afterEach(() => removeDir(root));

  it('bug: a second stop() ran the cleanup again, in the wrong order — now it waits for the first', async () => {
    const node = await startEmbeddedNode(options({ dataDir: join(root, 'data') }));
    assert.ok(existsSync(join(root, 'data', 'node.lock')));
    const [first, second] = [node.stop(), node.stop()];
    await Promise.all([first, second]);
    await node.stop();
    assert.equal(existsSync(join(root, 'data', 'node.lock')), false, 'the lock is released');
    assert.equal(node.dataPlane.versions().size, 0);
  });

  it('deletes its temporary data dir at stop', async () => {
    const node = await startEmbeddedNode(options());
    assert.ok(existsSync(node.dataDir));
    await Promise.all([node.stop(), node.stop()]);
    assert.equal(existsSync(node.dataDir), false);
  });

  it('a node that cannot start leaves nothing behind: the lock released, nothing listening', async () => {
    const dataDir = join(root, 'data');
    await assert.rejects(
      startEmbeddedNode(options({ dataDir, manifests: join(root, 'missing') })),
      ManifestError,
    );
    assert.deepEqual(readdirSync(dataDir).sort(), ['domains', 'resources']);
    // The data dir can be used again at once.
    const node = await startEmbeddedNode(options({ dataDir }));
    await node.stop();
  });
});

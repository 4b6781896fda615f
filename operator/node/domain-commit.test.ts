import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { openTestNode, removeDir, type TestNode } from '../../test/fixtures/embedded-node.js';
import { DomainCommitter, type Activate } from './domain-commit.js';
import { restoreGraphs } from './restore.js';
import { StatementExecutor } from './statement-executor.js';

interface Seen {
  domain: string;
  version: number;
  /** The graph version in state.json when the data plane was asked (null: no file). */
  onDisk: number | null;
}

/** A committer over `node`'s stores whose data plane records what it is asked and can refuse. */
function committerOf(node: TestNode) {
  const seen: Seen[] = [];
  const removed: string[] = [];
  const plane = { refuse: false };
  const onDisk = (domain: string): number | null => {
    try {
      const text = readFileSync(join(node.root, 'domains', domain, 'state.json'), 'utf8');
      return (JSON.parse(text) as { graphVersion: number }).graphVersion;
    } catch {
      return null; // no file (or a directory in its way)
    }
  };
  const activate: Activate = (domain, _graph, version) => {
    seen.push({ domain, version, onDisk: onDisk(domain) });
    return Promise.resolve(plane.refuse ? { ok: false, errors: ['cannot build it'] } : { ok: true });
  };
  const committer = new DomainCommitter({
    store: node.store,
    resources: node.resources,
    activate,
    deactivate: (domain) => Promise.resolve(void removed.push(domain)),
    logger: node.logger,
  });
  const executor = new StatementExecutor({
    store: node.store,
    resources: node.resources,
    committer,
    queue: node.queue,
    describe: () => Promise.resolve(undefined),
  });
  const run = (script: string, domain = 'default') =>
    executor.execute(domain, { script, source: '-c', uploads: [] });
  return { committer, run, seen, removed, plane, onDisk };
}

describe('domain commit', () => {
  let node: TestNode;
  beforeEach(() => {
    node = openTestNode();
  });
  afterEach(() => {
    node.close();
    removeDir(node.root);
  });

  it('bug: the new state was written before the data plane took it — now a graph is stored only once it runs', async () => {
    const { run, seen, plane, onDisk } = committerOf(node);
    assert.equal((await run('CREATE SCHEMA a (x STRING);')).ok, true);
    plane.refuse = true;
    const reply = await run('CREATE SCHEMA b (x STRING);');
    assert.deepEqual(reply.results[0]?.diagnostics, [
      '-c:1:1: error: the data plane refused graph version 2: cannot build it',
    ]);
    assert.deepEqual(seen, [
      { domain: 'default', version: 1, onDisk: null },
      { domain: 'default', version: 2, onDisk: 1 },
    ]);
    assert.equal(onDisk('default'), 1, 'the refused graph never reached the data dir');
    assert.deepEqual(
      node.store.objects('default').map((object) => object.metadata.name),
      ['a'],
    );
  });

  it('bug: a refused first change left an empty domain listed at version 0 — now nothing is left', async () => {
    const { run, plane } = committerOf(node);
    plane.refuse = true;
    const reply = await run('CREATE SCHEMA a (x STRING);', 'fresh');
    assert.equal(reply.ok, false);
    assert.deepEqual(node.store.summaries(), []);
    assert.equal(existsSync(join(node.root, 'domains', 'fresh', 'state.json')), false);
  });

  it('bug: changes were compared with the stored graph — now with what the data plane runs', async () => {
    const first = committerOf(node);
    assert.equal((await first.run('CREATE SCHEMA a (x STRING);')).ok, true);
    node.close();
    node = openTestNode(node.root);
    // A restart whose data plane refuses the stored graph: the domain runs nothing.
    const restarted = committerOf(node);
    restarted.plane.refuse = true;
    const restored = await restoreGraphs(node.store, restarted.committer, node.logger);
    assert.deepEqual(
      restored.map((r) => [r.domain, r.ok]),
      [['default', false]],
    );
    assert.equal(restarted.committer.running('default'), undefined);
    restarted.plane.refuse = false;
    // The same graph as the stored one: it is not what runs, so it is activated, as the next version.
    const reply = await restarted.run('CREATE OR REPLACE SCHEMA a (x STRING);');
    assert.equal(reply.results[0]?.graphVersion, 2);
    assert.deepEqual(restarted.seen.at(-1), { domain: 'default', version: 2, onDisk: 1 });
    assert.equal(restarted.committer.running('default')?.version, 2);
  });

  it('a graph that runs but cannot be stored is withdrawn: the previous one runs again', async () => {
    const { run, seen, committer, onDisk } = committerOf(node);
    assert.equal((await run('CREATE SCHEMA a (x STRING);')).ok, true);
    // state.json becomes a directory: the rename of the new state over it fails.
    const file = join(node.root, 'domains', 'default', 'state.json');
    rmSync(file);
    mkdirSync(join(file, 'in-the-way'), { recursive: true });
    const reply = await run('CREATE SCHEMA b (x STRING);');
    assert.equal(reply.ok, false);
    assert.match(reply.results[0]?.diagnostics?.[0] ?? '', /^-c:1:1: error: cannot write the data dir: /);
    assert.deepEqual(
      seen.map((s) => s.version),
      [1, 2, 1],
    );
    assert.equal(committer.running('default')?.version, 1);
    assert.equal(node.store.state('default').graphVersion, 1);
    assert.equal(onDisk('default'), null);
    assert.ok(node.logs.some((line) => line.msg.startsWith('cannot store the graph version just activated')));
  });

  it('a new domain whose first graph cannot be stored is removed from the data plane', async () => {
    const { run, removed, committer } = committerOf(node);
    mkdirSync(join(node.root, 'domains', 'fresh', 'state.json', 'in-the-way'), { recursive: true });
    const reply = await run('CREATE SCHEMA a (x STRING);', 'fresh');
    assert.equal(reply.ok, false);
    assert.deepEqual(removed, ['fresh']);
    assert.equal(committer.running('fresh'), undefined);
    assert.deepEqual(node.store.summaries(), []);
  });
});

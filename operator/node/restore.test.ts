import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { exampleText, openTestNode, removeDir } from '../../test/fixtures/embedded-node.js';
import type { Activate } from './domain-commit.js';
import { restoreGraphs } from './restore.js';

describe('restore at start', () => {
  it('activates every stored graph with its version; a refused one is reported and the others run', async () => {
    const first = openTestNode();
    await first.run(exampleText('quickstart/graph.sql'), { domain: 'shop' });
    await first.run('CREATE SCHEMA a (x STRING);', { domain: 'other' });
    await first.run('CREATE RESOURCE nothing_yet;', { domain: 'empty' });
    const graph = first.store.state('shop').graph;
    first.close();

    const node = openTestNode(first.root);
    const seen: string[] = [];
    const restore: Activate = (domain, restoredGraph, version) => {
      seen.push(`${domain} v${version}`);
      if (domain === 'shop') assert.deepEqual(restoredGraph, JSON.parse(JSON.stringify(graph)));
      return Promise.resolve(domain === 'other' ? { ok: false, errors: ['cannot run it'] } : { ok: true });
    };
    const recompileStored = () => Promise.resolve({ ok: true as const, warnings: [] });
    const restored = await restoreGraphs(node.store, { restore, recompileStored }, node.logger);
    assert.deepEqual(seen, ['empty v1', 'other v1', 'shop v4']);
    assert.deepEqual(
      restored.map((r) => [r.domain, r.ok, r.errors]),
      [
        ['empty', true, []],
        ['other', false, ['cannot run it']],
        ['shop', true, []],
      ],
    );
    assert.ok(
      node.logs.some(
        (line) => line.msg === 'the data plane refused the stored graph' && line.domain === 'other',
      ),
    );
    node.close();
    removeDir(node.root);
  });

  /** A node's state.json for `domain`, edited by `edit` while the node is down; the node reopened over it. */
  async function editedAndRestored(
    script: string,
    edit: (state: { statementObjects: { kind: string; metadata: { name: string } }[] }) => void,
  ) {
    const first = openTestNode();
    await first.run(script, { domain: 'shop' });
    const stored = first.store.state('shop');
    first.close();
    const file = join(first.root, 'domains', 'shop', 'state.json');
    const state = JSON.parse(readFileSync(file, 'utf8')) as Parameters<typeof edit>[0];
    edit(state);
    writeFileSync(file, JSON.stringify(state));
    const node = openTestNode(first.root);
    const restored = await restoreGraphs(node.store, node.committer, node.logger);
    return { stored, node, restored };
  }

  const without =
    (kind: string, name: string) => (state: Parameters<Parameters<typeof editedAndRestored>[1]>[0]) => {
      state.statementObjects = state.statementObjects.filter(
        (o) => !(o.kind === kind && o.metadata.name === name),
      );
    };

  it('runs what the stored objects compile to when state.json lost an object by hand (regression)', async () => {
    const { stored, node, restored } = await editedAndRestored(
      'CREATE SCHEMA a (x STRING); CREATE RELAY kept SCHEMA a UNBRANCHED; CREATE RELAY removed SCHEMA a UNBRANCHED;',
      without('Relay', 'removed'),
    );
    const next = stored.graphVersion + 1;
    assert.deepEqual(restored, [{ domain: 'shop', graphVersion: next, ok: true, errors: [] }]);
    const running = node.activations.at(-1);
    assert.equal(running?.version, next);
    assert.deepEqual(Object.keys(running?.graph.relays ?? {}), ['kept']);
    assert.equal(node.store.state('shop').graphVersion, next, 'the new version is stored with its objects');
    assert.ok(
      node.logs.some(
        (line) => line.level === 40 && line.domain === 'shop' && /state\.json edited/.test(line.msg),
      ),
    );
    node.close();
    removeDir(node.root);
  });

  it('keeps the stored graph running, and says why, when the stored objects no longer compile', async () => {
    const { stored, node, restored } = await editedAndRestored(
      'CREATE SCHEMA a (x STRING); CREATE RELAY r SCHEMA a UNBRANCHED;',
      without('Schema', 'a'),
    );
    assert.deepEqual(restored, [{ domain: 'shop', graphVersion: stored.graphVersion, ok: true, errors: [] }]);
    assert.equal(node.activations.length, 1, 'only the stored graph ran');
    const line = node.logs.find((entry) => entry.level === 50 && entry.domain === 'shop');
    assert.match(String(line?.msg), /stored objects do not compile/);
    assert.match(JSON.stringify(line?.diagnostics), /SR2\d{3}/);
    node.close();
    removeDir(node.root);
  });

  it('changes nothing when the stored graph is what the objects compile to', async () => {
    const { stored, node, restored } = await editedAndRestored(exampleText('quickstart/graph.sql'), () => {});
    assert.deepEqual(restored, [{ domain: 'shop', graphVersion: stored.graphVersion, ok: true, errors: [] }]);
    assert.equal(node.activations.length, 1);
    node.close();
    removeDir(node.root);
  });
});

import assert from 'node:assert/strict';
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
    const restored = await restoreGraphs(node.store, { restore }, node.logger);
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
});

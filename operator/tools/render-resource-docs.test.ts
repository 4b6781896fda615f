import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ALL_KINDS } from '../api/index.js';
import { renderResourceDocs } from './render-resource-docs.js';

const DOC = join(import.meta.dirname, '..', '..', 'docs', 'resources.md');

describe('docs/resources.md', () => {
  it('is what `npm run generate` writes from operator/api (run it after changing a kind)', () => {
    assert.equal(readFileSync(DOC, 'utf8'), renderResourceDocs());
  });

  it('has a section for every kind, with its fields, rules and columns', () => {
    const doc = renderResourceDocs();
    for (const definition of ALL_KINDS) {
      assert.match(doc, new RegExp(`^## ${definition.kind}$`, 'm'));
      for (const column of definition.printerColumns)
        assert.ok(doc.includes(`| ${column.name} |`), column.name);
    }
    assert.match(doc, /\| `spec\.config\.framing` \| framing is not allowed with protocol udp \| SR2032 \|/);
    assert.match(doc, /\| `routes\[\]\.onMessageError\.relay` \| string \| no \|/);
  });
});

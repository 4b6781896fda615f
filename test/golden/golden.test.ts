// Golden graphs: the examples compiled, compared with test/golden/*.graph.json. Regenerate with
// UPDATE_GOLDEN=1 npx mocha test/golden/golden.test.ts (then review the diff).
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadGraph } from '../../dataplane/graph/load.js';
import { formatDiagnostic } from '../../operator/diagnostics/diagnostic.js';
import { compileExample, EXAMPLE_DOMAINS } from '../fixtures/compile-cases.js';

describe('golden graphs from examples/', () => {
  for (const example of EXAMPLE_DOMAINS) {
    it(`${example.name}.graph.json`, () => {
      const result = compileExample(example);
      const errors = result.diagnostics.filter((d) => d.severity === 'error');
      assert.deepEqual(errors.map(formatDiagnostic), []);
      const loaded = loadGraph(JSON.parse(JSON.stringify(result.graph)));
      assert.deepEqual(loaded.ok ? [] : loaded.errors, []);
      const path = join(import.meta.dirname, `${example.name}.graph.json`);
      const actual = `${JSON.stringify(result.graph, null, 2)}\n`;
      if (process.env.UPDATE_GOLDEN === '1') writeFileSync(path, actual);
      assert.equal(actual, readFileSync(path, 'utf8'), `${path} is out of date: run UPDATE_GOLDEN=1`);
    });
  }
});

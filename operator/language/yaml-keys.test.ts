import assert from 'node:assert/strict';
import fc from 'fast-check';
import { MARKER, objectKeyCases, warningsDuring } from '../../test/fixtures/yaml-object-keys.js';
import { loadYamlObjects } from './yaml-input.js';

describe('resource YAML: mapping keys that are lists or mappings', () => {
  it('refuses every such key (block, flow, nested, in a list, aliased, in a later document) with SR1010 and prints none of its text', () => {
    fc.assert(
      fc.property(objectKeyCases, ({ text, document }) => {
        let loaded = loadYamlObjects('', 'graph.yaml');
        const warnings = warningsDuring(() => {
          loaded = loadYamlObjects(text, 'graph.yaml');
        });
        assert.deepEqual(warnings, []);
        const keyErrors = loaded.diagnostics.filter((d) => d.message.includes('a mapping key must be'));
        assert.equal(keyErrors.length, 1, loaded.diagnostics.map((d) => d.message).join('\n'));
        assert.equal(keyErrors[0]?.code, 'SR1010');
        for (const diagnostic of loaded.diagnostics) assert.ok(!diagnostic.message.includes(MARKER));
        // The documents before it still load; the one with the key does not.
        assert.equal(loaded.objects.length, document);
      }),
      { numRuns: 300 },
    );
  });
});

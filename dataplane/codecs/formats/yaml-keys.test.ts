import assert from 'node:assert/strict';
import fc from 'fast-check';
import { MARKER, objectKeyCases, warningsDuring } from '../../../test/fixtures/yaml-object-keys.js';
import type { ReadResult } from './payload-format.js';
import { yamlFormat } from './yaml-format.js';

const encoder = new TextEncoder();

describe('YAML payloads: mapping keys that are lists or mappings', () => {
  it('a list or mapping key (block, flow, nested, in a list, aliased, in a later document) is SR3010; no key prints a process warning or its text', () => {
    fc.assert(
      fc.property(objectKeyCases, ({ text, collection }) => {
        let result = { inputs: [] } as ReadResult;
        const warnings = warningsDuring(() => {
          result = yamlFormat.read(encoder.encode(text));
        });
        assert.deepEqual(warnings, []);
        if (!collection) return; // bytes and dates as keys are their text in the JSON view
        assert.ok('error' in result, 'the payload was read');
        assert.equal(result.error.code, 'SR3010');
        assert.ok(!JSON.stringify(result.error).includes(MARKER));
      }),
      { numRuns: 200 },
    );
  });
});

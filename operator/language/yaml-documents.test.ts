import assert from 'node:assert/strict';
import fc from 'fast-check';
import { errorStreams, streamText, timed, validText } from '../../test/fixtures/yaml-error-streams.js';
import { MAX_YAML_ERRORS } from './yaml-documents.js';
import { loadYamlObjects } from './yaml-input.js';

describe('resource YAML: text that is one error after another', () => {
  it(`stops after ${MAX_YAML_ERRORS} errors, with diagnostics and no throw, in about the time valid YAML of its size takes`, () => {
    fc.assert(
      fc.property(errorStreams, (stream) => {
        const text = streamText(stream);
        let diagnostics: unknown[] = [];
        const took = timed(() => {
          diagnostics = loadYamlObjects(text, 'graph.yaml').diagnostics;
        });
        const valid = timed(() => loadYamlObjects(validText(text.length), 'graph.yaml'));
        assert.ok(diagnostics.length > 0);
        // The limit counts errors as they come; those already in the documents read so far are reported too.
        assert.ok(diagnostics.length < 2 * MAX_YAML_ERRORS, `${diagnostics.length} diagnostics`);
        // Reading on cost 5–20 times what valid YAML costs (and threw past ~120,000 errors).
        assert.ok(took < 2 * valid + 100, `${took.toFixed(0)} ms, valid YAML ${valid.toFixed(0)} ms`);
      }),
      { numRuns: 8 },
    );
  });

  it('a few errors are all reported, and the documents before and after them still load', () => {
    const relay = (name: string): string =>
      `apiVersion: streamroute.io/v1alpha1\nkind: Relay\nmetadata:\n  name: ${name}\nspec:\n  schema: s\n  branching: UNBRANCHED\n`;
    const text = `${relay('a')}---\nk: [1, 2\n---\na: b: c\n---\n${relay('b')}`;
    const { objects, diagnostics } = loadYamlObjects(text, 'graph.yaml');
    assert.deepEqual(
      objects.map((object) => object.metadata.name),
      ['a', 'b'],
    );
    assert.ok(diagnostics.length >= 2 && diagnostics.length < MAX_YAML_ERRORS);
    assert.ok(diagnostics.every((d) => !d.message.includes('the rest of the file was not read')));
  });
});

// -o json and -o yaml carry the same data: for any document (hostile strings, numbers, nesting) and for
// the statement documents of generated objects of every kind, the YAML read back — by a YAML 1.2 reader
// and by a YAML 1.1 one, as PyYAML and kubectl read — equals the JSON read back. And the same value always
// prints the same text, whatever order its keys were built in.
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { parse } from 'yaml';
import { GRAPH_KINDS, type GraphKind } from '../api/index.js';
import { objectArbitrary } from '../../test/fixtures/graph-arbitraries.js';
import { documentText, OUTPUT_API_VERSION, outputDocument, sortedKeys } from './output-format.js';
import { resultEntry, statementDocument } from './statement-document.js';

const AWKWARD = [
  '\n',
  ' \n',
  '  ',
  'yes',
  'on',
  'off',
  'y',
  '~',
  'null',
  '0o14',
  '014',
  '1_000',
  '0x1F',
  '.inf',
  '-',
  '---',
  '"',
  "'",
  ': ',
  '#',
  '\n',
  '\\',
  '{',
  '}',
  '[',
  ']',
  '&a',
  '*a',
  '!tag',
  'é',
  '🚀',
  '\u2028',
  ' ',
];
const hostileString = fc.oneof(
  fc.string({ unit: fc.constantFrom(...AWKWARD), maxLength: 4 }),
  fc.string({ unit: 'binary', maxLength: 8 }),
);
const jsonValue = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    hostileString,
    fc.integer(),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(hostileString, tie('value'), { maxKeys: 4 }),
  ),
})).value;

async function bothWays(document: unknown): Promise<{ json: unknown; yaml11: unknown; yaml12: unknown }> {
  const yamlText = await documentText(document, 'yaml');
  return {
    json: JSON.parse(await documentText(document, 'json')) as unknown,
    yaml12: parse(yamlText) as unknown,
    yaml11: parse(yamlText, { version: '1.1' }) as unknown,
  };
}

describe('-o json and -o yaml', () => {
  it('carry the same data for any document', async () => {
    await fc.assert(
      fc.asyncProperty(jsonValue, async (value) => {
        const document = outputDocument('Test', { value });
        const { json, yaml11, yaml12 } = await bothWays(document);
        assert.deepEqual(json, JSON.parse(JSON.stringify(document)));
        assert.deepEqual(yaml12, json);
        assert.deepEqual(yaml11, json);
      }),
      { numRuns: 300 },
    );
  });

  it('carry the same data for SHOW and SHOW CREATE of generated objects of every kind', async () => {
    const kinds = GRAPH_KINDS.map((definition) => definition.kind) as GraphKind[];
    const objects = fc.array(
      fc.constantFrom(...kinds).chain((kind) => objectArbitrary(kind)),
      {
        minLength: 1,
        maxLength: 4,
      },
    );
    await fc.assert(
      fc.asyncProperty(objects, async (generated) => {
        const place = { statement: 'SHOW RELAYS', source: '-c', line: 1, column: 1 };
        const items = generated.map((resource) => ({ resource, declaredIn: 'statement' }));
        const results = [
          resultEntry(place, { type: 'show', what: 'Relay', items }),
          ...generated.map((resource) => resultEntry(place, { type: 'show-create', resource })),
        ];
        const { json, yaml11, yaml12 } = await bothWays(statementDocument('default', results));
        assert.deepEqual(yaml12, json);
        assert.deepEqual(yaml11, json);
        assert.equal((json as { apiVersion: string }).apiVersion, OUTPUT_API_VERSION);
      }),
      { numRuns: 60 },
    );
  });

  it('print the same text for the same value, whatever order its keys were built in', async () => {
    await fc.assert(
      fc.asyncProperty(fc.dictionary(fc.string(), fc.integer(), { maxKeys: 8 }), async (record) => {
        const reversed = Object.fromEntries(Object.entries(record).reverse());
        for (const format of ['json', 'yaml'] as const) {
          assert.equal(
            await documentText(outputDocument('Test', { value: sortedKeys(record) }), format),
            await documentText(outputDocument('Test', { value: sortedKeys(reversed) }), format),
          );
        }
      }),
    );
  });

  it('keep a line of blanks (yaml 2.9 wrote " \\n" as a block scalar that reads back as "\\n")', async () => {
    for (const value of [' \n', '\t\n', 'a\n  \nb', '  ', ' \n ', '\n \n']) {
      const { json, yaml11, yaml12 } = await bothWays(outputDocument('Test', { value: { '': value } }));
      assert.deepEqual(yaml12, json, JSON.stringify(value));
      assert.deepEqual(yaml11, json, JSON.stringify(value));
    }
  });

  it('put apiVersion and kind first, then the fields in the order given', async () => {
    const text = await documentText(outputDocument('Test', { b: 1, a: 2 }), 'json');
    assert.deepEqual(Object.keys(JSON.parse(text) as object), ['apiVersion', 'kind', 'b', 'a']);
  });
});

// Resource YAML: operator/language/yaml-input.ts loadYamlObjects (diagnostics, never a throw), and every
// document's plain value through operator/api/validate-object.ts checkGraphObject (problems, never a throw).
import { LineCounter } from 'yaml';
import { checkGraphObject } from '../../../operator/api/validate-object.js';
import { readYamlDocuments } from '../../../operator/language/yaml-documents.js';
import { loadYamlObjects } from '../../../operator/language/yaml-input.js';
import { firstObjectKey } from '../../../operator/language/yaml-keys.js';
import { docBlocks, filesEnding, texts } from '../seeds.js';
import type { FuzzTarget } from '../target.js';
import { YAML_TOKENS } from './payload-format.js';

const decoder = new TextDecoder();

/**
 * The documents' plain values, as the yaml library gives them; none when the library refuses the text.
 * Documents the loader refuses for a list or mapping as a key are skipped as it skips them (toJS would
 * stringify the key with a process warning, which the worker counts as a crash). Read as the loader reads
 * (readYamlDocuments, which stops after 100 errors): the library's own parseAllDocuments builds an error
 * with a stack for every later problem, ~1.6 s for 59 KB of `[1, 2][1, 2]…`, a hang of this check's own.
 */
function plainDocuments(text: string): unknown[] {
  try {
    const options = { schema: 'core', version: '1.2', prettyErrors: false } as const;
    return readYamlDocuments(text, options, new LineCounter())
      .documents.filter((document) => document.errors.length === 0 && firstObjectKey(document) === undefined)
      .map((document) => document.toJS({ maxAliasCount: 16 }) as unknown);
  } catch {
    return []; // the library's own refusal (aliases, a stream it cannot read): not what is fuzzed here
  }
}

export const target: FuzzTarget = {
  maxBytes: 1024 * 1024,
  // Linear, up to ~5 s per MiB on its slowest inputs found on the busy 2-core machine (docs/benchmarks.md).
  msPerMiB: 10000,
  tokens: [
    ...YAML_TOKENS,
    'apiVersion: streamroute.io/v1alpha1\n',
    'kind: ',
    'Relay',
    'Schema',
    'Codec',
    'HttpIngestor',
    'SyslogIngestor',
    'KafkaClient',
    'TopicIngestor',
    'Emitter',
    'Junction',
    'Correlator',
    'metadata:\n  name: ',
    'spec:\n',
    '__proto__',
    'constructor',
    'toString',
    '1e400',
    '%YAML 1.2\n',
  ],
  nests: [
    ['[', ']'],
    ['{', '}'],
    ['- ', ''],
    ['{a: ', '}'],
    ['  ', ''],
  ],
  seeds: () => [
    ...filesEnding(['examples', 'charts', 'test/fixtures'], ['.yaml', '.yml']),
    ...docBlocks(['yaml']),
    ...texts(
      'apiVersion: streamroute.io/v1alpha1\nkind: Schema\nmetadata:\n  name: s\nspec:\n  fields:\n    - name: a\n      type: string\n',
      'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n---\nkind: Relay\n',
      'a: &x [1, 2]\nb: *x\n',
    ),
  ],
  run(input) {
    const text = decoder.decode(input);
    const loaded = loadYamlObjects(text, 'fuzz.yaml');
    // Text the loader refuses before parsing (nesting beyond its limit) is not parsed here either, and big
    // inputs are left to the loader alone, so that a hang or memory outlier is the product's, not this check's.
    const refused = loaded.diagnostics.some((diagnostic) => diagnostic.message.includes('nests deeper than'));
    if (!refused && input.length <= 64 * 1024)
      for (const document of plainDocuments(text)) checkGraphObject(document);
    return loaded.diagnostics.length === 0 && loaded.objects.length > 0;
  },
};

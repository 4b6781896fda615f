// Golden graphs: the examples compiled, compared with test/golden/*.graph.json. Regenerate with
// UPDATE_GOLDEN=1 npx mocha test/golden/golden.test.ts (then review the diff).
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadGraph } from '../../dataplane/graph/load.js';
import { resourceDirectories } from '../../operator/cli/resource-dirs.js';
import { formatDiagnostic } from '../../operator/compiler/diagnostic.js';
import { compileDomain, type ResourceFiles } from '../../operator/compiler/index.js';
import { statementsToObjects } from '../../operator/language/convert.js';
import { parseScript } from '../../operator/language/parse.js';

const ROOT = join(import.meta.dirname, '..', '..');
const EXAMPLES = join(ROOT, 'examples');

/** The TLS files the full example mounts from resource pki (names only matter to the compiler). */
const PKI_FILES = [
  'payments.crt',
  'payments.key',
  'server.crt',
  'server.key',
  'ca.crt',
  'audit-ca.crt',
  'client.crt',
  'client.key',
];

function withPki(resources: ResourceFiles): ResourceFiles {
  const pki = new Map(PKI_FILES.map((file) => [file, '']));
  return {
    latestVersion: (resource) => (resource === 'pki' ? 1 : resources.latestVersion(resource)),
    files: (resource, version) =>
      resource === 'pki' ? (version === 1 ? pki : undefined) : resources.files(resource, version),
  };
}

interface GoldenCase {
  name: string;
  /** Statement files, converted together as one script. */
  files: string[];
  resources: ResourceFiles;
}

const CASES: GoldenCase[] = [
  {
    name: 'quickstart',
    files: [join(EXAMPLES, 'quickstart', 'graph.sql')],
    resources: resourceDirectories([]),
  },
  {
    name: 'full',
    // client-side.sql holds statements that run against a node or a cluster, not the graph.
    files: readdirSync(join(EXAMPLES, 'full'))
      .filter((file) => file.endsWith('.sql') && file !== 'client-side.sql')
      .sort()
      .map((file) => join(EXAMPLES, 'full', file)),
    resources: withPki(resourceDirectories([`order-protos=${join(EXAMPLES, 'full', 'protos')}`])),
  },
];

describe('golden graphs from examples/', () => {
  for (const golden of CASES) {
    it(`${golden.name}.graph.json`, () => {
      const text = golden.files.map((file) => readFileSync(file, 'utf8')).join('\n');
      const parsed = parseScript(text, golden.name);
      const converted = statementsToObjects(parsed.statements, { reported: parsed.diagnostics });
      const result = compileDomain(converted.objects, { domain: 'examples', resources: golden.resources });
      const errors = [...parsed.diagnostics, ...converted.diagnostics, ...result.diagnostics].filter(
        (d) => d.severity === 'error',
      );
      assert.deepEqual(errors.map(formatDiagnostic), []);
      const loaded = loadGraph(JSON.parse(JSON.stringify(result.graph)));
      assert.deepEqual(loaded.ok ? [] : loaded.errors, []);
      const path = join(import.meta.dirname, `${golden.name}.graph.json`);
      const actual = `${JSON.stringify(result.graph, null, 2)}\n`;
      if (process.env.UPDATE_GOLDEN === '1') writeFileSync(path, actual);
      assert.equal(actual, readFileSync(path, 'utf8'), `${path} is out of date: run UPDATE_GOLDEN=1`);
    });
  }
});

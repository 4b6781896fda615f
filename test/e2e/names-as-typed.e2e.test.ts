// Names as typed (docs/decisions/0025-names-as-typed.md), generated: for random identifiers with
// underscores and mixed case, a graph made from statements shows each object by the identifier its
// statement wrote — in diagnostics (validate, and statements run on a node), SHOW, SHOW CREATE, DESCRIBE,
// `streamroute describe`, a log line and a metric label of a running embedded node — and the same graph
// applied as YAML (no annotation) shows resource names in all of them. References are written in another
// case than their declaration: they still read back as declared.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { identifierToName } from '../../operator/api/names.js';
import type { GraphObject } from '../../operator/api/index.js';
import { runCli } from '../../operator/cli/program.js';
import { statementsToObjects } from '../../operator/language/convert.js';
import { parseScript } from '../../operator/language/parse.js';
import { objectsToYaml } from '../../operator/language/to-yaml.js';
import { CapturedOutput } from '../support/canned-node.js';
import {
  startNodeHarnessWithGraph,
  startNodeHarnessWithManifest,
  until,
  type NodeHarness,
} from '../fixtures/node-harness.js';

const ROLES = [
  'schema',
  'wire',
  'codec',
  'relay',
  'vhost',
  'endpoint',
  'ingestor',
  'target',
  'junction',
  'missing',
] as const;
type Names = Record<(typeof ROLES)[number], string>;

const LETTERS = [...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ'];
const segment = fc.string({ unit: fc.constantFrom(...LETTERS), minLength: 1, maxLength: 6 });
/** `Ab_cDe`, `x_Y_zz`: two or three segments, both cases, never the keyword NO_ACK. */
const identifier = fc
  .array(segment, { minLength: 2, maxLength: 3 })
  .map((parts) => parts.join('_'))
  .filter((id) => /[a-z]/.test(id) && /[A-Z]/.test(id) && id.toLowerCase() !== 'no_ack');
const names: fc.Arbitrary<Names> = fc
  .uniqueArray(identifier, {
    minLength: ROLES.length,
    maxLength: ROLES.length,
    selector: (id) => id.toLowerCase(),
  })
  .map((ids) => Object.fromEntries(ROLES.map((role, index) => [role, ids[index] ?? ''])) as Names);

/** The same identifier in the other case: it names the same object. */
const swapped = (id: string): string =>
  [...id].map((c) => (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase())).join('');
const resource = (id: string): string => {
  const mapped = identifierToName(id);
  assert.ok(mapped.ok);
  return mapped.name;
};

function graphOf(n: Names): string {
  return `CREATE SCHEMA ${n.schema} (id STRING, n I64);
CREATE WIRE JSON SCHEMA ${n.wire} MODE STRICT (id string, n integer);
CREATE CODEC ${n.codec} FROM WIRE JSON SCHEMA ${swapped(n.wire)} TO SCHEMA ${swapped(n.schema)};
CREATE RELAY ${n.relay} SCHEMA ${swapped(n.schema)} UNBRANCHED;
CREATE VHOST ${n.vhost} localhost;
CREATE ENDPOINT ${n.endpoint} ON ${swapped(n.vhost)} PATH '/p' TYPE HTTP;
CREATE HTTP ENDPOINT INGESTOR ${n.ingestor} FROM ${swapped(n.endpoint)} MODE NO ACK ON QUIESCE DROP
  DECODE USING ${swapped(n.codec)}
  TO ${swapped(n.relay)} INHERIT ALL UNBRANCHED FLUSH IMMEDIATE ON MESSAGE ERROR LOG
  ON GENERAL ERROR LOG;
`;
}

/** The graph's objects as resources applied from YAML: no identifier annotation. */
function yamlOf(n: Names): string {
  const parsed = parseScript(graphOf(n), 'graph.sql');
  const objects = statementsToObjects(parsed.statements).objects.map((object): GraphObject => ({
    ...object,
    metadata: { name: object.metadata.name },
  }));
  return objectsToYaml(objects);
}

/** How each object reads back: as typed from statements, by resource name from YAML. */
type Shown = (id: string) => string;

async function cli(node: NodeHarness, args: string[]): Promise<{ code: number; out: string; err: string }> {
  const output = new CapturedOutput();
  const code = await runCli(['--server', `http://127.0.0.1:${node.adminPort}`, ...args], output, { env: {} });
  return { code, out: output.stdout, err: output.stderr };
}

/** SHOW, SHOW CREATE, DESCRIBE (by either form), `streamroute describe`, a log line and metric labels. */
async function assertRunningSurfaces(node: NodeHarness, n: Names, shown: Shown): Promise<void> {
  const show = await node.sql('SHOW INGESTORS;');
  const lines = show.stdout.split('\n');
  const row = lines[lines.findIndex((text) => text.startsWith('NAME')) + 1]?.split(/ {2,}/) ?? [];
  assert.deepEqual(row.slice(0, 5), [
    shown(n.ingestor),
    'HTTP',
    shown(n.endpoint),
    shown(n.codec),
    shown(n.relay),
  ]);

  const create = await node.sql(`SHOW CREATE INGESTOR ${resource(n.ingestor)};`);
  const written = (id: string): string => (shown(id) === id ? id : resource(id).replaceAll('-', '_'));
  assert.match(create.stdout, new RegExp(`^CREATE HTTP ENDPOINT INGESTOR ${written(n.ingestor)}$`, 'm'));
  assert.match(create.stdout, new RegExp(`^  TO ${written(n.relay)}$`, 'm'));

  for (const asked of [resource(n.ingestor), swapped(n.ingestor)]) {
    const described = await node.sql(`DESCRIBE INGESTOR ${asked};`);
    assert.match(described.stdout, new RegExp(`^http-ingestor ${shown(n.ingestor)} \\(domain default`, 'm'));
    assert.match(described.stdout, new RegExp(`^  codec: ${shown(n.codec)}$`, 'm'));
    assert.match(described.stdout, new RegExp(`^  endpoint: ${shown(n.endpoint)}$`, 'm'));
    assert.match(described.stdout, new RegExp(`^  vhost: ${shown(n.vhost)}$`, 'm'));
  }
  const command = await cli(node, ['describe', 'ingestor', resource(n.ingestor)]);
  assert.match(command.out, new RegExp(`^http-ingestor ${shown(n.ingestor)} `));
  const nothing = await cli(node, ['describe', 'ingestor', n.missing]);
  assert.equal(
    nothing.err,
    `streamroute: there is no ingestor ${n.missing} in domain default on this node\n`,
  );

  assert.equal((await node.post('/p', { id: 'a', n: 1 })).status, 202);
  assert.equal((await node.post('/p', { id: 5, n: 1 })).status, 202);
  await until(async () => (await node.metric('streamroute_message_errors_total')) === 1, 'the message error');
  const line = node.logs.find((entry) => entry.msg === 'message error');
  assert.deepEqual([line?.name, line?.route], [shown(n.ingestor), shown(n.relay)]);
  const counted = (labels: Record<string, string>) => node.metric('streamroute_records_in_total', labels);
  assert.equal(await counted({ kind: 'relay', name: shown(n.relay) }), 1);
  assert.equal(await counted({ kind: 'http-ingestor', name: shown(n.ingestor) }), 1);
  const other = shown(n.ingestor) === n.ingestor ? resource(n.ingestor) : n.ingestor;
  assert.equal(await counted({ kind: 'http-ingestor', name: other }), 0, 'one spelling per series');
}

/** Statements run on the node, naming its objects: diagnostics name each as it is shown. */
async function assertStatementDiagnostics(node: NodeHarness, n: Names, shown: Shown): Promise<void> {
  const dangling = await node.sql(`CREATE RELAY ${n.target} SCHEMA ${n.missing} UNBRANCHED;`);
  const lower = resource(n.missing).replaceAll('-', '_');
  assert.match(
    dangling.stderr,
    new RegExp(
      `error SR2001: Relay ${n.target} spec\\.schema: Relay ${n.target} refers to Schema ${lower}, `,
    ),
  );
  const routed = await node.sql(`BEGIN;
CREATE RELAY ${n.target} SCHEMA ${swapped(n.schema)} UNBRANCHED;
CREATE JUNCTION ${n.junction} FROM ${swapped(n.relay)}
  TO ${swapped(n.target)} SET nope = input.id UNBRANCHED FLUSH IMMEDIATE ON MESSAGE ERROR LOG;
COMMIT;`);
  assert.match(
    routed.stderr,
    new RegExp(
      `error SR2003: Junction ${n.junction} spec\\.routes\\[0\\]\\.set\\[0\\]\\.field: route 1 of Junction ${n.junction}, SET nope: relay ${n.target} \\(schema ${shown(n.schema)}\\) has no field nope`,
    ),
  );
}

/** `streamroute validate` of the input with one dangling reference added. */
async function assertValidate(file: string, text: string, expected: RegExp): Promise<void> {
  const root = mkdtempSync(join(tmpdir(), 'streamroute-names-'));
  try {
    writeFileSync(join(root, file), text);
    const output = new CapturedOutput();
    const code = await runCli(['validate', join(root, file)], output, { env: {} });
    assert.equal(code, 1, output.stderr);
    assert.match(output.stderr, expected);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

describe('names as typed (generated identifiers, on a running embedded node)', function () {
  this.timeout(240_000);

  it('a graph from statements shows every identifier as typed; the same graph from YAML shows resource names', async () => {
    await fc.assert(
      fc.asyncProperty(names, async (n) => {
        const typed = (id: string): string => id;
        const dangling = `CREATE RELAY ${n.target} SCHEMA ${swapped(n.missing)} UNBRANCHED;\n`;
        const lower = resource(n.missing).replaceAll('-', '_');
        await assertValidate(
          'graph.sql',
          graphOf(n) + dangling,
          new RegExp(`Relay ${n.target} spec\\.schema: Relay ${n.target} refers to Schema ${lower}, `),
        );
        const fromStatements = await startNodeHarnessWithGraph(graphOf(n));
        try {
          await assertRunningSurfaces(fromStatements, n, typed);
          await assertStatementDiagnostics(fromStatements, n, typed);
        } finally {
          await fromStatements.close();
        }

        const badYaml = `---\napiVersion: streamroute.io/v1alpha1\nkind: Relay\nmetadata: {name: ${resource(n.target)}}\nspec: {schema: ${resource(n.missing)}, branching: UNBRANCHED}\n`;
        const target = resource(n.target);
        await assertValidate(
          'graph.yaml',
          yamlOf(n) + badYaml,
          new RegExp(
            `Relay ${target} spec\\.schema: Relay ${target} refers to Schema ${resource(n.missing)}, `,
          ),
        );
        const fromYaml = await startNodeHarnessWithManifest('graph.yaml', yamlOf(n));
        try {
          await assertRunningSurfaces(fromYaml, n, resource);
          // Statements beside YAML: the statement's objects as typed, the YAML schema by resource name.
          await assertStatementDiagnostics(fromYaml, n, resource);
        } finally {
          await fromYaml.close();
        }
      }),
      { numRuns: 8 },
    );
  });
});

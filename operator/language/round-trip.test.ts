// The fixed point: statements → objects → canonical statements → the same objects → YAML → the same
// objects again, over every statement form, every file in examples/, and random valid objects.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { extname, join, relative } from 'node:path';
import fc from 'fast-check';
import { IDENTIFIER_ANNOTATION, identifierOf } from '../api/display-names.js';
import { GRAPH_KINDS, type GraphKind, type GraphObject } from '../api/index.js';
import { formatDiagnostic, type Diagnostic } from '../diagnostics/diagnostic.js';
import { objectArbitrary, objectWithBadExpression } from '../../test/fixtures/graph-arbitraries.js';
import { DEFAULT_CLAUSE_NAMES, type DefaultClause } from './clause-defaults.js';
import { statementsToObjects } from './convert.js';
import { KIND_EXAMPLES } from './example-objects.js';
import { parseScript } from './parse.js';
import { printObject, printObjects } from './print.js';
import { STATEMENT_FORMS } from './statement-forms.js';
import { objectsToYaml } from './to-yaml.js';
import { loadYamlObjects } from './yaml-input.js';

const ROOT = join(import.meta.dirname, '..', '..');
const EXAMPLES = join(ROOT, 'examples');

function errorsOf(diagnostics: readonly Diagnostic[]): string[] {
  return diagnostics.filter((d) => d.severity === 'error').map(formatDiagnostic);
}

function fromStatements(text: string, file: string): GraphObject[] {
  const parsed = parseScript(text, file);
  const converted = statementsToObjects(parsed.statements, {});
  const errors = errorsOf([...parsed.diagnostics, ...converted.diagnostics]);
  assert.deepEqual(errors, [], `${file} converts without errors:\n${text}`);
  return converted.objects;
}

function fromYaml(text: string, file: string): GraphObject[] {
  const loaded = loadYamlObjects(text, file);
  assert.deepEqual(errorsOf(loaded.diagnostics), [], `${file} loads without errors:\n${text}`);
  return loaded.objects;
}

/** The object as a statement declares it: with the identifier it writes (decision 0025). */
function asFromStatement(object: GraphObject): GraphObject {
  const annotations = { ...object.metadata.annotations, [IDENTIFIER_ANNOTATION]: identifierOf(object) };
  return { ...object, metadata: { ...object.metadata, annotations } };
}

const KIND_ORDER = new Map<string, number>(GRAPH_KINDS.map((definition, index) => [definition.kind, index]));

/** printObjects' order, so objects from statements and from printed text compare element by element. */
function canonicalOrder(objects: readonly GraphObject[]): GraphObject[] {
  return [...objects].sort(
    (a, b) =>
      (KIND_ORDER.get(a.kind) ?? 0) - (KIND_ORDER.get(b.kind) ?? 0) ||
      (a.metadata.name < b.metadata.name ? -1 : a.metadata.name > b.metadata.name ? 1 : 0),
  );
}

/**
 * parse → objects₁ → print → parse → objects₂ → YAML → load → objects₃. Objects not made from statements
 * come back from their printed form with the identifier their statement writes.
 */
function assertFixedPoint(objects1: GraphObject[], source: string): void {
  const printed1 = printObjects(objects1);
  const objects2 = fromStatements(printed1, `${source} (printed)`);
  assert.deepEqual(
    canonicalOrder(objects2),
    canonicalOrder(objects1.map(asFromStatement)),
    `printed form of ${source}:\n${printed1}`,
  );
  assert.equal(printObjects(objects2), printed1, `printing ${source} again gives the same text`);
  const yaml = objectsToYaml(objects2);
  const objects3 = fromYaml(yaml, `${source} (as YAML)`);
  assert.deepEqual(objects3, objects2, `YAML form of ${source}:\n${yaml}`);
}

/** Statement and resource files under `directory`; `payloads/` folders hold bodies to POST, not graphs. */
function exampleFiles(directory: string): string[] {
  let entries;
  try {
    entries = readdirSync(directory, { withFileTypes: true });
  } catch {
    return [];
  }
  return entries
    .sort((a, b) => a.name.localeCompare(b.name))
    .flatMap((entry) => {
      const path = join(directory, entry.name);
      if (entry.isDirectory()) return entry.name === 'payloads' ? [] : exampleFiles(path);
      return ['.sql', '.yaml', '.yml'].includes(extname(entry.name)) ? [path] : [];
    });
}

describe('round trip: statements → objects → canonical statements → YAML', () => {
  describe('every statement form and optional clause', () => {
    for (const { title, text } of STATEMENT_FORMS) {
      it(title, () => {
        const objects = fromStatements(text, title);
        assert.ok(objects.length > 0, 'the form declares an object');
        assertFixedPoint(objects, title);
      });
    }
  });

  describe('every file in examples/', () => {
    const files = exampleFiles(EXAMPLES);
    if (files.length === 0) it('examples/ holds statement files (none yet)');
    for (const file of files) {
      const name = relative(ROOT, file);
      it(name, () => {
        const text = readFileSync(file, 'utf8');
        const objects = extname(file) === '.sql' ? fromStatements(text, name) : fromYaml(text, name);
        assertFixedPoint(objects, name);
      });
    }
  });

  it('the reference examples of every kind (docs/resources.md)', () => {
    assertFixedPoint(Object.values(KIND_EXAMPLES), 'KIND_EXAMPLES');
  });

  /** The canonical form half of the time, else a short form: some clauses with defaults left out. */
  const leaveOut: fc.Arbitrary<DefaultClause[]> = fc.oneof(
    fc.constant<DefaultClause[]>([]),
    fc.subarray(DEFAULT_CLAUSE_NAMES, { minLength: 1 }),
  );

  describe('property: any valid object prints, in full or short form, to a statement that parses back to it', () => {
    for (const { kind } of GRAPH_KINDS) {
      it(kind, () => {
        fc.assert(
          fc.property(objectArbitrary(kind as GraphKind), leaveOut, (object: GraphObject, left) => {
            const printed = printObject(object, { leaveOut: left });
            const parsed = parseScript(printed, 'printed.sql');
            const converted = statementsToObjects(parsed.statements, {});
            const diagnostics = [...parsed.diagnostics, ...converted.diagnostics].map(formatDiagnostic);
            assert.deepEqual(
              { diagnostics, objects: converted.objects },
              { diagnostics: [], objects: [asFromStatement(object)] },
              `printed statement:\n${printed}\n`,
            );
            assert.deepEqual(fromYaml(objectsToYaml([object]), 'object.yaml'), [object]);
          }),
          { numRuns: 150 },
        );
      });
    }
  });

  it('property: YAML whose expression text is malformed or holds more clauses is SR1015 (show-create refuses it)', () => {
    fc.assert(
      fc.property(objectWithBadExpression, ({ object, path }) => {
        const loaded = loadYamlObjects(objectsToYaml([object]), 'bad.yaml');
        const errors = loaded.diagnostics.filter((d) => d.severity === 'error');
        assert.deepEqual(
          errors.map((d) => `${d.code} ${d.path ?? ''}`),
          [`SR1015 ${path}`],
          errors.map(formatDiagnostic).join('\n'),
        );
        assert.equal(errors[0]?.location?.file, 'bad.yaml');
      }),
      { numRuns: 300 },
    );
  });
});

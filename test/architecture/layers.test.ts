// The tree keeps its layers (docs/architecture.md): every directory of operator/ and dataplane/ is a layer
// of eslint-rules/layers.json, the table has no cycle, every import between layers goes down the table,
// and so the directories import each other without a cycle. ESLint's `layers/direction` reports the same
// imports file by file; this test also catches a new directory nobody placed and a table that loops.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { allowedLayers, LAYERS, layerOf } from '../../eslint-rules/layer-imports.js';

const ROOT = join(import.meta.dirname, '..', '..');
const IMPORT = /(?:import|export)\s[^'";]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'testdata' ? [] : sourceFiles(path);
    const shipped = name.endsWith('.ts') && !name.endsWith('.d.ts') && !/\.(test|fixtures)\.ts$/.test(name);
    return shipped ? [path] : [];
  });
}

/** Layer → layers it imports, with one example import per edge. */
function importGraph(): Map<string, Map<string, string>> {
  const graph = new Map<string, Map<string, string>>();
  for (const file of ['operator', 'dataplane'].flatMap((top) => sourceFiles(join(ROOT, top)))) {
    const from = layerOf(relative(ROOT, file))!;
    for (const match of readFileSync(file, 'utf8').matchAll(IMPORT)) {
      const specifier = match[1] ?? match[2]!;
      if (!specifier.startsWith('.')) continue;
      const to = layerOf(relative(ROOT, resolve(dirname(file), specifier)));
      if (to === undefined || to === from) continue;
      if (!graph.has(from)) graph.set(from, new Map());
      graph.get(from)!.set(to, `${relative(ROOT, file)} imports ${specifier}`);
    }
  }
  return graph;
}

function findCycle(graph: Map<string, Map<string, string>>): string[] | undefined {
  const done = new Set<string>();
  const visit = (node: string, trail: string[]): string[] | undefined => {
    if (trail.includes(node)) return [...trail.slice(trail.indexOf(node)), node];
    if (done.has(node)) return undefined;
    for (const next of graph.get(node)?.keys() ?? []) {
      const cycle = visit(next, [...trail, node]);
      if (cycle) return cycle;
    }
    done.add(node);
    return undefined;
  };
  for (const node of graph.keys()) {
    const cycle = visit(node, []);
    if (cycle) return cycle;
  }
  return undefined;
}

describe('the layers of operator/ and dataplane/', () => {
  const graph = importGraph();

  it('places every directory in the table, and no source file outside a layer directory', () => {
    for (const top of ['operator', 'dataplane']) {
      for (const name of readdirSync(join(ROOT, top))) {
        const isDir = statSync(join(ROOT, top, name)).isDirectory();
        assert.ok(isDir, `${top}/${name}: files belong in a layer directory`);
        assert.ok(`${top}/${name}` in LAYERS, `${top}/${name} is not in eslint-rules/layers.json`);
      }
    }
  });

  it('has a table without cycles, and refuses one', () => {
    assert.doesNotThrow(() => allowedLayers());
    assert.throws(() => allowedLayers({ a: ['b'], b: ['c'], c: ['a'] }), /cycle: a → b → c → a/);
  });

  it('imports only down the table', () => {
    const allowed = allowedLayers();
    const wrong = [...graph].flatMap(([from, targets]) =>
      [...targets]
        .filter(([to]) => !allowed.get(from)?.has(to))
        .map(([to, example]) => `${from} → ${to}: ${example}`),
    );
    assert.deepEqual(wrong, []);
  });

  it('has no directory-level import cycle', () => {
    assert.equal(findCycle(graph), undefined);
    const looped = new Map([
      ['x', new Map([['y', '']])],
      ['y', new Map([['x', '']])],
    ]);
    assert.deepEqual(findCycle(looped), ['x', 'y', 'x'], 'the cycle finder finds one');
  });
});

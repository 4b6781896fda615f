// Reads the CLI's inputs — statement files (.sql), resource YAML (.yaml, .yml, .json), directories of
// them, or stdin — into graph objects with a source map, collecting every diagnostic on the way.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { extname, join } from 'node:path';
import type { GraphObject } from '../api/index.js';
import { SourceMap, type Diagnostic } from '../compiler/diagnostic.js';
import type { Statement } from '../language/ast.js';
import { duplicateDiagnostic } from '../language/check-object.js';
import { statementsToObjects } from '../language/convert.js';
import { parseScript } from '../language/parse.js';
import { loadYamlObjects } from '../language/yaml-input.js';

export type InputFormat = 'sql' | 'yaml';

export interface LoadedInputs {
  objects: GraphObject[];
  sourceMap: SourceMap;
  diagnostics: Diagnostic[];
}

const EXTENSIONS: Record<string, InputFormat> = {
  '.sql': 'sql',
  '.yaml': 'yaml',
  '.yml': 'yaml',
  '.json': 'yaml',
};

export class InputError extends Error {}

/** Expands directories (sorted, recursive) into the files of known extensions; `-` is stdin. */
export function expandPaths(paths: readonly string[]): string[] {
  return paths.flatMap((path) => {
    if (path === '-') return [path];
    let stats;
    try {
      stats = statSync(path);
    } catch {
      throw new InputError(`${path}: no such file or directory`);
    }
    if (!stats.isDirectory()) return [path];
    return readdirSync(path, { withFileTypes: true })
      .sort((a, b) => a.name.localeCompare(b.name))
      .flatMap((entry) => {
        const child = join(path, entry.name);
        if (entry.isDirectory()) return expandPaths([child]);
        return EXTENSIONS[extname(entry.name)] ? [child] : [];
      });
  });
}

export function formatOf(path: string, text: string, forced?: InputFormat): InputFormat {
  if (forced) return forced;
  const known = EXTENSIONS[extname(path)];
  if (known) return known;
  if (path !== '-') throw new InputError(`${path}: unknown file type (use .sql, .yaml, .yml or .json)`);
  // stdin: resources start with a key such as apiVersion; statements start with a keyword.
  return /^\s*(---|apiVersion\s*:|kind\s*:|#)/m.test(text) && !/;\s*$/.test(text.trim()) ? 'yaml' : 'sql';
}

export function readInput(path: string): string {
  return readFileSync(path === '-' ? 0 : path, 'utf8');
}

/**
 * Loads every input. Statement files are converted together, as one script in the order given, so an
 * ALTER in one file may change an object declared in another; an object declared again in a YAML file
 * (or twice across YAML files) is reported as a duplicate. `only` restricts the allowed format.
 */
export function loadInputs(
  paths: readonly string[],
  options: { format?: InputFormat; only?: InputFormat } = {},
): LoadedInputs {
  const statements: Statement[] = [];
  const parseDiagnostics: Diagnostic[] = [];
  const fromYaml: LoadedInputs[] = [];
  for (const path of expandPaths(paths.length > 0 ? paths : ['-'])) {
    const text = readInput(path);
    const file = path === '-' ? '<stdin>' : path;
    const format = formatOf(path, text, options.format);
    if (options.only && format !== options.only) {
      throw new InputError(
        `${file}: expected ${options.only === 'sql' ? 'statements (.sql)' : 'resources (.yaml)'}`,
      );
    }
    if (format === 'yaml') {
      fromYaml.push(loadYamlObjects(text, file));
      continue;
    }
    const parsed = parseScript(text, file);
    statements.push(...parsed.statements);
    parseDiagnostics.push(...parsed.diagnostics);
  }
  const converted = statementsToObjects(statements, { reported: parseDiagnostics });
  const loaded: LoadedInputs = { ...converted, diagnostics: [...parseDiagnostics, ...converted.diagnostics] };
  for (const part of fromYaml) addYaml(loaded, part);
  return loaded;
}

/** Adds the objects of one YAML file; one already loaded (same kind, namespace, name) is SR1014. */
function addYaml(loaded: LoadedInputs, part: LoadedInputs): void {
  const ids = new Set(loaded.objects.map(objectId));
  loaded.diagnostics.push(...part.diagnostics);
  for (const object of part.objects) {
    const key = { kind: object.kind, name: object.metadata.name };
    if (ids.has(objectId(object))) {
      const where = part.sourceMap.locate(key, 'metadata.name');
      loaded.diagnostics.push(duplicateDiagnostic(key, where, loaded.sourceMap.locate(key)));
      continue;
    }
    loaded.objects.push(object);
  }
  loaded.sourceMap.merge(part.sourceMap, { keepExisting: true });
}

function objectId(object: GraphObject): string {
  return `${object.kind}/${object.metadata.namespace ?? ''}/${object.metadata.name}`;
}

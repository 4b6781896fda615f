// Reads the CLI's inputs — statement files (.sql), resource YAML (.yaml, .yml, .json), directories of
// them, or stdin — into graph objects with a source map, collecting every diagnostic on the way.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { extname, join } from 'node:path';
import type { GraphObject } from '../api/index.js';
import type { Diagnostic, SourceMap } from '../diagnostics/diagnostic.js';
import type { Statement } from './ast.js';
import { statementsToObjects } from './convert.js';
import { Declarations } from './declarations.js';
import { parseScript, startsWithStatement } from './parse.js';
import { loadYamlObjects } from './yaml-input.js';
import { InputError, ioError } from './input-error.js';

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

/** Expands directories (sorted, recursive) into the files of known extensions; `-` is stdin. */
export function expandPaths(paths: readonly string[]): string[] {
  return paths.flatMap((path) => {
    if (path === '-') return [path];
    let stats;
    try {
      stats = statSync(path);
    } catch (error: unknown) {
      throw ioError('cannot read', path, error);
    }
    if (!stats.isDirectory()) return [path];
    let entries;
    try {
      entries = readdirSync(path, { withFileTypes: true });
    } catch (error: unknown) {
      throw ioError('cannot read directory', path, error);
    }
    return entries
      .sort((a, b) => a.name.localeCompare(b.name))
      .flatMap((entry) => {
        const child = join(path, entry.name);
        if (entry.isDirectory()) return expandPaths([child]);
        return EXTENSIONS[extname(entry.name)] ? [child] : [];
      });
  });
}

/**
 * A file's format comes from its extension. On stdin the input is statements when its first token that
 * is not a comment is a statement keyword, and YAML otherwise; input with no token at all is `empty`.
 */
export function formatOf(
  path: string,
  text: string,
  forced?: InputFormat,
  empty: InputFormat = 'sql',
): InputFormat {
  if (forced) return forced;
  const known = EXTENSIONS[extname(path)];
  if (known) return known;
  if (path !== '-') throw new InputError(`${path}: unknown file type (use .sql, .yaml, .yml or .json)`);
  const statements = startsWithStatement(text);
  if (statements === undefined) return empty;
  return statements ? 'sql' : 'yaml';
}

export function readInput(path: string): string {
  try {
    return readFileSync(path === '-' ? 0 : path, 'utf8');
  } catch (error: unknown) {
    throw ioError('cannot read', path === '-' ? 'stdin' : path, error);
  }
}

/**
 * Loads every input. Statement files are converted together, as one script in the order given, so an
 * ALTER in one file may change an object declared in another. YAML files are loaded after them; an
 * object declared again in a YAML file (same kind, namespace and name as one declared by the statements
 * or an earlier YAML file) is SR1014 and the first is kept. `only` restricts the allowed format.
 */
export function loadInputs(
  paths: readonly string[],
  options: { format?: InputFormat; only?: InputFormat } = {},
): LoadedInputs {
  const statements: Statement[] = [];
  const parseDiagnostics: Diagnostic[] = [];
  const yamlFiles: { text: string; file: string }[] = [];
  for (const path of expandPaths(paths.length > 0 ? paths : ['-'])) {
    const text = readInput(path);
    const file = path === '-' ? '<stdin>' : path;
    const format = formatOf(path, text, options.format, options.only);
    if (options.only && format !== options.only) {
      throw new InputError(
        `${file}: expected ${options.only === 'sql' ? 'statements (.sql)' : 'resources (.yaml)'}`,
      );
    }
    if (format === 'yaml') {
      yamlFiles.push({ text, file });
      continue;
    }
    const parsed = parseScript(text, file);
    statements.push(...parsed.statements);
    parseDiagnostics.push(...parsed.diagnostics);
  }
  const converted = statementsToObjects(statements, { reported: parseDiagnostics });
  const loaded: LoadedInputs = { ...converted, diagnostics: [...parseDiagnostics, ...converted.diagnostics] };
  addYamlFiles(loaded, yamlFiles);
  return loaded;
}

/** Loads the YAML files after the statements; an object the statements or an earlier file declared is SR1014. */
function addYamlFiles(loaded: LoadedInputs, files: readonly { text: string; file: string }[]): void {
  const declared = new Declarations<unknown>();
  for (const object of loaded.objects) {
    const key = { kind: object.kind, name: object.metadata.name };
    const at = loaded.sourceMap.locate(key, 'metadata.name');
    declared.claim({ ...key, namespace: object.metadata.namespace }, object, at);
  }
  for (const { text, file } of files) {
    const part = loadYamlObjects(text, file, { declared });
    loaded.objects.push(...part.objects);
    loaded.diagnostics.push(...part.diagnostics);
    loaded.sourceMap.merge(part.sourceMap, { keepExisting: true });
  }
}

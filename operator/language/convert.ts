// Statements → graph objects (the resources `kubectl apply` takes), with the statement locations in a
// SourceMap so that every later diagnostic points at the statement text. Each object is then checked
// against its kind's schema and rules, the same checks the API server applies.
import { API_VERSION, type GraphObject } from '../api/index.js';
import { identifierToName } from '../api/names.js';
import {
  parentPath,
  SourceMap,
  type Diagnostic,
  type ObjectKey,
  type SourceLocation,
} from '../compiler/diagnostic.js';
import type { DeclarationStatement, Statement } from './ast.js';
import { checkDocument, duplicateDiagnostic } from './check-object.js';

export interface ConvertOptions {
  /** The domain: every object is placed in this namespace. */
  namespace?: string;
  /**
   * Diagnostics already given for these statements (the parser's). A schema problem at a field the
   * parser already reported (a bad identifier, duration, size or CONFIG value) is not reported again.
   */
  reported?: readonly Diagnostic[];
}

export interface Converted {
  objects: GraphObject[];
  sourceMap: SourceMap;
  diagnostics: Diagnostic[];
}

/** Declarations by `Kind/name`, in the order they were first declared. */
type Declared = Map<string, DeclarationStatement>;

const NO_RESOURCE_FORM: Record<string, string> = {
  drop: 'DROP',
  show: 'SHOW',
  'show-create': 'SHOW CREATE',
  describe: 'DESCRIBE',
  'upload-resource': 'UPLOAD RESOURCE',
};

/**
 * CREATE, CREATE OR REPLACE and ALTER become objects. A later OR REPLACE or ALTER replaces an earlier
 * declaration in place; IF NOT EXISTS keeps the earlier one; any other repeat is SR1014. A ROLLBACK
 * discards what was declared since its BEGIN. Objects that fail their kind's checks are left out, and
 * the diagnostics say why.
 */
export function statementsToObjects(
  statements: readonly Statement[],
  options: ConvertOptions = {},
): Converted {
  const state: State = { declared: new Map(), diagnostics: [] };
  for (const statement of statements) apply(state, statement);
  const result: Converted = { objects: [], sourceMap: new SourceMap(), diagnostics: state.diagnostics };
  for (const statement of state.declared.values()) addObject(result, statement, options);
  return result;
}

interface State {
  declared: Declared;
  /** What was declared when the open BEGIN ran, for ROLLBACK. */
  beforeBatch?: Declared;
  diagnostics: Diagnostic[];
}

function apply(state: State, statement: Statement): void {
  switch (statement.type) {
    case 'begin':
      state.beforeBatch = new Map(state.declared);
      return;
    case 'commit':
      delete state.beforeBatch;
      return;
    case 'rollback':
      state.declared = state.beforeBatch ?? state.declared;
      delete state.beforeBatch;
      return;
    case 'create':
    case 'alter': {
      const problem = declare(state.declared, statement);
      if (problem !== undefined) state.diagnostics.push(problem);
      return;
    }
    default:
      state.diagnostics.push(noResourceForm(statement));
  }
}

function declare(declared: Declared, statement: DeclarationStatement): Diagnostic | undefined {
  const id = `${statement.kind}/${statement.name}`;
  const first = declared.get(id);
  if (first === undefined || statement.type === 'alter' || statement.orReplace) {
    declared.set(id, statement);
    return undefined;
  }
  if (statement.ifNotExists) return undefined;
  const key = { kind: statement.kind, name: statement.name };
  return duplicateDiagnostic(key, locate(statement, 'metadata.name'), first.location);
}

function addObject(result: Converted, statement: DeclarationStatement, options: ConvertOptions): void {
  const key: ObjectKey = { kind: statement.kind, name: statement.name };
  result.sourceMap.set(key, '', statement.location);
  for (const [path, location] of statement.locations) result.sourceMap.set(key, path, location);
  const metadata =
    options.namespace === undefined
      ? { name: statement.name }
      : { name: statement.name, namespace: options.namespace };
  const document = { apiVersion: API_VERSION, kind: statement.kind, metadata, spec: statement.spec };
  const check = checkDocument(document, (path) => locate(statement, path));
  if (check.ok) {
    result.objects.push(check.object);
    return;
  }
  const reported = reportedPaths(options.reported ?? [], key);
  // The parser reports a bad object identifier (SR1002) even when `reported` is not passed.
  if (!identifierToName(statement.identifier).ok) reported.push('metadata.name');
  result.diagnostics.push(
    ...check.diagnostics.filter((diagnostic) => !reported.includes(diagnostic.path ?? '')),
  );
}

/**
 * Paths of this object the parser already reported. Only the exact field is skipped: a problem with the
 * object holding it (a rule over several fields) is still news.
 */
function reportedPaths(reported: readonly Diagnostic[], key: ObjectKey): string[] {
  return reported
    .filter((d) => d.object?.kind === key.kind && d.object.name === key.name && d.path !== undefined)
    .map((d) => d.path ?? '');
}

/** The longest recorded prefix of the path; the statement itself when nothing closer is known. */
function locate(statement: DeclarationStatement, path: string): SourceLocation {
  for (let prefix = path; ; prefix = parentPath(prefix)) {
    const found = statement.locations.get(prefix);
    if (found !== undefined) return found;
    if (prefix === '') return statement.location;
  }
}

function noResourceForm(statement: Exclude<Statement, DeclarationStatement>): Diagnostic {
  const what = NO_RESOURCE_FORM[statement.type] ?? statement.type.toUpperCase();
  return {
    code: 'SR1009',
    severity: 'warning',
    message: `${what} has no resource form: it only runs against a node or a cluster, so it is skipped here`,
    location: statement.location,
  };
}

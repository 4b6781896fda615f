// Statements → graph objects (the resources `kubectl apply` takes), with the statement locations in a
// SourceMap so that every later diagnostic points at the statement text. Each object is then checked
// against its kind's schema and rules, the same checks the API server applies.
import { API_VERSION, type GraphObject } from '../api/index.js';
import { IDENTIFIER_ANNOTATION } from '../api/display-names.js';
import { identifierToName } from '../api/names.js';
import {
  SourceMap,
  type Diagnostic,
  type ObjectKey,
  type SourceLocation,
} from '../diagnostics/diagnostic.js';
import {
  kindsOf,
  kindsText,
  type DeclarationStatement,
  type DropStatement,
  type Statement,
  type TransactionStatement,
} from './ast.js';
import { checkDocument } from './check-object.js';
import { Declarations, type DeclaredKey } from './declarations.js';
import { reservedWireSchema } from './reserved-names.js';

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

const NO_RESOURCE_FORM: Record<string, string> = {
  show: 'SHOW',
  'show-create': 'SHOW CREATE',
  describe: 'DESCRIBE',
  'upload-resource': 'UPLOAD RESOURCE',
};

/**
 * CREATE, CREATE OR REPLACE and ALTER become objects. A later OR REPLACE or ALTER replaces an earlier
 * declaration in place; IF NOT EXISTS keeps the earlier one; any other repeat is SR1014. DROP removes
 * an earlier declaration. A ROLLBACK discards what was declared and dropped since its BEGIN; batches do
 * not nest (SR1008) and hold no UPLOAD RESOURCE (SR1007). Objects that fail their kind's checks are
 * kept too (the compiler rejects them again), and the diagnostics say why.
 */
export function statementsToObjects(
  statements: readonly Statement[],
  options: ConvertOptions = {},
): Converted {
  const state: State = { declared: new Declarations(), namespace: options.namespace, diagnostics: [] };
  for (const statement of statements) apply(state, statement);
  if (state.batch !== undefined) {
    const message = 'this BEGIN is never closed: end the batch with COMMIT or ROLLBACK';
    state.diagnostics.push(error('SR1008', message, state.batch.begin.location));
  }
  const result: Converted = { objects: [], sourceMap: new SourceMap(), diagnostics: state.diagnostics };
  for (const statement of state.declared.values()) addObject(result, statement, options);
  return result;
}

interface State {
  declared: Declarations<DeclarationStatement>;
  namespace: string | undefined;
  /** The open BEGIN and what was declared when it ran (for ROLLBACK). */
  batch?: { begin: TransactionStatement; before: Declarations<DeclarationStatement> };
  diagnostics: Diagnostic[];
}

function apply(state: State, statement: Statement): void {
  switch (statement.type) {
    case 'begin':
    case 'commit':
    case 'rollback':
      transaction(state, statement);
      return;
    case 'create':
    case 'alter':
      declare(state, statement);
      return;
    case 'drop':
      drop(state, statement);
      return;
    case 'upload-resource':
      if (state.batch === undefined) break;
      state.diagnostics.push(
        error(
          'SR1007',
          'UPLOAD RESOURCE cannot be used inside BEGIN … COMMIT: upload before the batch, then refer to the version',
          statement.location,
        ),
      );
      return;
    default:
  }
  state.diagnostics.push(noResourceForm(statement));
}

function transaction(state: State, statement: TransactionStatement): void {
  const { batch } = state;
  if (statement.type === 'begin') {
    if (batch === undefined) state.batch = { begin: statement, before: state.declared.snapshot() };
    else {
      const { line, column } = batch.begin.location;
      const message = `BEGIN inside a batch: the BEGIN at ${line}:${column} is still open, and batches do not nest`;
      state.diagnostics.push(error('SR1008', message, statement.location));
    }
    return;
  }
  const word = statement.type.toUpperCase();
  if (batch === undefined) {
    state.diagnostics.push(error('SR1008', `${word} without a BEGIN: no batch is open`, statement.location));
    return;
  }
  if (statement.type === 'rollback') state.declared.restore(batch.before);
  delete state.batch;
}

function declare(state: State, statement: DeclarationStatement): void {
  const key: DeclaredKey = { kind: statement.kind, name: statement.name, namespace: state.namespace };
  const at = SourceMap.locateIn(statement.locations, 'metadata.name');
  if (statement.type === 'alter' || statement.orReplace) {
    state.declared.replace(key, statement, at);
    return;
  }
  if (statement.ifNotExists && state.declared.get(key) !== undefined) return;
  const problem = state.declared.claim(key, statement, at);
  if (problem !== undefined) state.diagnostics.push(problem);
}

function drop(state: State, statement: DropStatement): void {
  // DROP INGESTOR names any ingestor kind, DROP CLIENT either client kind.
  const kinds = kindsOf(statement.kind);
  const keys = kinds.map((kind) => ({ kind, name: statement.name, namespace: state.namespace }));
  const dropped = keys.filter((key) => state.declared.delete(key));
  // DROP of the SYSLOG wire schema is already an error of its own (SR1002).
  const reserved = statement.kind === 'WireSchema' && reservedWireSchema(statement.name, 'drop');
  if (dropped.length > 0 || statement.ifExists || reserved) return;
  const what = `${kindsText(kinds)} ${statement.name}`;
  const message = `DROP: no ${what} is declared before this statement (DROP … IF EXISTS allows that)`;
  state.diagnostics.push(error('SR2001', message, statement.location));
}

function addObject(result: Converted, statement: DeclarationStatement, options: ConvertOptions): void {
  const key: ObjectKey = { kind: statement.kind, name: statement.name };
  result.sourceMap.set(key, '', statement.location);
  for (const [path, location] of statement.locations) result.sourceMap.set(key, path, location);
  const document = {
    apiVersion: API_VERSION,
    kind: statement.kind,
    metadata: metadataOf(statement, options.namespace),
    spec: statement.spec,
  };
  const check = checkDocument(document, (path) => result.sourceMap.locate(key, path));
  // Handed on even when it fails its checks (the diagnostics say why): the compiler rejects it again,
  // so the objects that refer to it wait for it instead of finding nothing.
  result.objects.push(check.ok ? check.object : (document as GraphObject));
  if (check.ok) return;
  const reported = reportedPaths(options.reported ?? [], key);
  // The parser reports a bad object identifier (SR1002) even when `reported` is not passed.
  if (!identifierToName(statement.identifier).ok) reported.push('metadata.name');
  result.diagnostics.push(
    ...check.diagnostics.filter((diagnostic) => !reported.includes(diagnostic.path ?? '')),
  );
}

/**
 * The name, the domain, and the identifier as the statement wrote it (docs/decisions/0025): the origin
 * marker that makes every surface show `Orders_In` rather than `orders-in`. A bad identifier (SR1002)
 * gets none.
 */
function metadataOf(statement: DeclarationStatement, namespace: string | undefined): GraphObject['metadata'] {
  const annotations = { [IDENTIFIER_ANNOTATION]: statement.identifier };
  return {
    name: statement.name,
    ...(namespace === undefined ? {} : { namespace }),
    ...(identifierToName(statement.identifier).ok ? { annotations } : {}),
  };
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

function error(code: Diagnostic['code'], message: string, location: SourceLocation): Diagnostic {
  return { code, severity: 'error', message, location };
}

function noResourceForm(statement: Statement): Diagnostic {
  const what = NO_RESOURCE_FORM[statement.type] ?? statement.type.toUpperCase();
  return {
    code: 'SR1009',
    severity: 'warning',
    message: `${what} has no resource form: it only runs against a node or a cluster, so it is skipped here`,
    location: statement.location,
  };
}

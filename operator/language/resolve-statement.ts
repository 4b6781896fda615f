// Reads one raw statement from the grammar into a Statement: unwraps the leaves, records where each
// was written, maps identifiers to resource names and reports what is wrong with single values
// (SR1002 identifiers, SR1003 durations, SR1004 sizes, SR1005/SR1006/SR1016 CONFIG blocks). A bad value
// is kept as written, so the statement still comes out and later checks still run.
import type { Statement } from './ast.js';
import type { Diagnostic, ObjectKey, SourceLocation } from '../diagnostics/diagnostic.js';
import { identifierToName } from '../api/names.js';
import { nameFromEither } from '../api/display-names.js';
import { readConfig } from './config-block.js';
import { readDuration, readSize } from '../api/literals.js';
import { reservedWireSchema, type WireSchemaUse } from './reserved-names.js';
import { isLeaf, type Leaf, type RawConfig, type RawPosition, type RawStatement } from './raw-syntax.js';

export type Locate = (position: RawPosition) => SourceLocation;

export interface Resolved {
  statement: Statement;
  diagnostics: Diagnostic[];
}

class Resolver {
  readonly diagnostics: Diagnostic[] = [];
  readonly locations = new Map<string, SourceLocation>();
  object: ObjectKey | undefined;

  constructor(private readonly locate: Locate) {}

  report(code: Diagnostic['code'], message: string, at: RawPosition, path?: string): void {
    const diagnostic: Diagnostic = { code, severity: 'error', message, location: this.locate(at) };
    if (this.object !== undefined) diagnostic.object = this.object;
    if (path !== undefined) diagnostic.path = path;
    this.diagnostics.push(diagnostic);
  }

  record(path: string, at: RawPosition): void {
    this.locations.set(path, this.locate(at));
  }

  name(leaf: Leaf, path: string): string {
    const identifier = String(leaf.value);
    this.record(path, leaf.at);
    const result = identifierToName(identifier);
    if (result.ok) return result.name;
    this.report('SR1002', `'${identifier}' cannot become an object name: ${result.reason}`, leaf.at, path);
    return identifier;
  }

  /** SR1002 when a wire schema this statement names is SYSLOG (reserved-names.ts). */
  wireSchema(leaf: unknown, path: string | undefined, use: WireSchemaUse): void {
    if (!isLeaf(leaf)) return;
    const message = reservedWireSchema(nameOf(String(leaf.value)), use);
    if (message !== undefined) this.report('SR1002', message, leaf.at, path);
  }

  node(node: unknown, path: string): unknown {
    if (isLeaf(node)) return this.leaf(node, path);
    if (Array.isArray(node)) return node.map((item: unknown, index) => this.node(item, `${path}[${index}]`));
    if (typeof node === 'object' && node !== null)
      return this.properties(node as Record<string, unknown>, path);
    return node;
  }

  /** Absent parts (null from the grammar, empty lists) are left out, never written as null or []. */
  properties(node: Record<string, unknown>, path: string): Record<string, unknown> {
    const result: Record<string, unknown> = {};
    for (const [key, child] of Object.entries(node)) {
      if (key === '$at') this.record(path, child as RawPosition);
      else if (key === '$config') Object.assign(result, this.config(child as RawConfig, path));
      else if (child !== null && child !== undefined) {
        const value = this.node(child, `${path}.${key}`);
        if (!(Array.isArray(value) && value.length === 0)) result[key] = value;
      }
    }
    return result;
  }

  leaf(leaf: Leaf, path: string): unknown {
    if (leaf.$leaf === 'name') return this.name(leaf, path);
    this.record(path, leaf.at);
    if (leaf.$leaf === 'expression') return String(leaf.value).trim();
    if (leaf.$leaf === 'duration' || leaf.$leaf === 'size') {
      const text = String(leaf.value);
      const result = leaf.$leaf === 'duration' ? readDuration(text) : readSize(text);
      if (!result.ok)
        this.report(leaf.$leaf === 'duration' ? 'SR1003' : 'SR1004', result.reason, leaf.at, path);
      return text;
    }
    return leaf.value;
  }

  /** The block's fields, to be merged into the object at `path` (which records its own location). */
  config(config: RawConfig, path: string): Record<string, unknown> {
    const { fields, problems } = readConfig(config);
    for (const problem of problems) {
      const fieldPath = problem.field === undefined ? path : `${path}.${problem.field}`;
      const first = problem.first === undefined ? undefined : this.locate(problem.first.at);
      const where = first === undefined ? '' : ` (first at ${first.line}:${first.column})`;
      this.report(problem.code, `${problem.message}${where}`, problem.leaf.at, fieldPath);
    }
    const result: Record<string, unknown> = {};
    for (const { field, value, leaf } of fields) {
      this.record(`${path}.${field}`, leaf.at);
      result[field] = value;
    }
    return result;
  }
}

/** The resource name of an identifier; one that cannot map (SR1002) stays as written. */
function nameOf(identifier: string): string {
  const result = identifierToName(identifier);
  return result.ok ? result.name : identifier;
}

export function resolveStatement(raw: RawStatement, locate: Locate): Resolved {
  const resolver = new Resolver(locate);
  const location = locate(raw.location);
  const statement = build(raw, resolver, location);
  return { statement, diagnostics: resolver.diagnostics };
}

function build(raw: RawStatement, resolver: Resolver, location: SourceLocation): Statement {
  switch (raw.type) {
    case 'create':
    case 'alter':
      return declaration(raw, resolver, location);
    case 'drop':
    case 'show-create':
      // No object to name: the statement is about one that cannot exist.
      if (raw.kind === 'WireSchema') resolver.wireSchema(raw.identifier, undefined, raw.type);
      return named(raw, resolver, location);
    case 'describe':
    case 'upload-resource':
      return named(raw, resolver, location);
    default:
      return { ...raw, location };
  }
}

function named(
  raw: Extract<RawStatement, { type: 'drop' | 'show-create' | 'describe' | 'upload-resource' }>,
  resolver: Resolver,
  location: SourceLocation,
): Statement {
  const { identifier, ...rest } = raw;
  const written = String(identifier.value);
  // DESCRIBE and SHOW CREATE only read an object that exists: its resource name (`orders-in`, as SHOW
  // prints a YAML object) names it as well as an identifier does (decision 0025).
  const either = raw.type === 'describe' || raw.type === 'show-create' ? nameFromEither(written) : undefined;
  if (either?.ok === true) {
    resolver.record('metadata.name', identifier.at);
    return { ...rest, identifier: written, name: either.name, location };
  }
  const name = resolver.name(identifier, 'metadata.name');
  return { ...rest, identifier: written, name, location };
}

function declaration(
  raw: Extract<RawStatement, { type: 'create' | 'alter' }>,
  resolver: Resolver,
  location: SourceLocation,
): Statement {
  const identifier = String(raw.identifier.value);
  // The object key is what diagnostics name; work it out before anything inside the spec is reported.
  // Diagnostics name the object as written (decision 0025), even when its identifier is itself bad.
  const key = { kind: raw.kind, name: nameOf(identifier) };
  resolver.object = key.name === identifier ? key : { ...key, display: identifier };
  const name = resolver.name(raw.identifier, 'metadata.name');
  if (raw.kind === 'WireSchema') resolver.wireSchema(raw.identifier, 'metadata.name', raw.type);
  if (raw.kind === 'Codec') resolver.wireSchema(raw.spec.wireSchema, 'spec.wireSchema', 'reference');
  resolver.locations.set('', location);
  const spec = resolver.properties(raw.spec, 'spec');
  const common = { kind: raw.kind, identifier, name, spec, locations: resolver.locations, location };
  const statement =
    raw.type === 'create'
      ? {
          type: 'create',
          orReplace: raw.orReplace === true,
          ifNotExists: raw.ifNotExists === true,
          ...common,
        }
      : { type: 'alter', ...common };
  return statement as Statement;
}

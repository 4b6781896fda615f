// The state of one compile: the objects, what each pass reported about them, and their verdicts as the
// layers are decided. Passes read other objects only through `accepted`, so a check never judges an
// object against a rejected or missing one.
import type { GraphKind, GraphObject } from '../api/index.js';
import type { Expr } from '../../dataplane/graph/expression.js';
import type { FieldType } from '../../dataplane/graph/field-types.js';
import type { ProtobufDescriptor } from '../../dataplane/graph/types.js';
import type { DiagnosticCode } from '../diagnostics/codes.js';
import { DisplayNames, displayName } from '../api/display-names.js';
import { objectKeyString, objectLabel, type Diagnostic, type ObjectKey } from '../diagnostics/diagnostic.js';
import type { ResourceIndex } from './resource-index.js';
import { parseExpression, type ExpressionResult } from '../language/parse.js';

export type Status = 'pending' | 'accepted' | 'rejected' | 'waiting';

export interface SchemaField {
  name: string;
  type: FieldType;
  optional: boolean;
  sensitive: boolean;
}

export interface RelaySchema {
  relay: string;
  schema: string;
  fields: ReadonlyMap<string, SchemaField>;
  /** The relay and schema as people read them, for messages. */
  shown: { relay: string; schema: string };
}

interface Entry {
  object: GraphObject | undefined;
  order: number;
  status: Status;
  /** Errors about the object itself (everything but SR2001 and SR2061). */
  ownErrors: number;
  diagnostics: Diagnostic[];
  waitingOn: ObjectKey[];
}

const NOT_OWN: ReadonlySet<DiagnosticCode> = new Set(['SR2001', 'SR2061']);

/** The object's key, with its display name when that is not its resource name (decision 0025). */
export function keyOf(object: GraphObject): ObjectKey {
  const key: ObjectKey = { kind: object.kind, name: object.metadata.name };
  const display = displayName(object);
  if (display !== key.name) key.display = display;
  return key;
}

/** `Kind name` as people read it: `Relay Orders_In` for an object a statement made. */
export function label(object: ObjectKey | GraphObject): string {
  return objectLabel('metadata' in object ? keyOf(object) : object);
}

export class CompileContext {
  readonly diagnostics: Diagnostic[] = [];
  /** Typed expressions by `Kind/name#path`, for lowering. */
  readonly typed = new Map<string, Expr>();
  /** Resolved protobuf messages by codec name: the pruned descriptor and the message's full name. */
  readonly descriptors = new Map<string, { descriptor: ProtobufDescriptor; message: string }>();
  /** How every declared object is shown (the first declaration of a name). */
  readonly names = new DisplayNames();
  readonly #entries = new Map<string, Entry>();
  readonly #parsed = new Map<string, ExpressionResult>();
  readonly #schemas = new Map<string, ReadonlyMap<string, SchemaField>>();
  /** Relays' schemas once their relay is accepted (a verdict never changes within a compile). */
  readonly #relaySchemas = new Map<string, RelaySchema>();

  /** `Kind/name#path` and `Kind/name#path#code` of the errors the caller already reported. */
  readonly #covered = new Set<string>();

  constructor(
    readonly domain: string,
    readonly resources: ResourceIndex,
    readonly reported: readonly Diagnostic[] = [],
  ) {
    for (const diagnostic of reported) {
      if (diagnostic.object === undefined || diagnostic.severity !== 'error') continue;
      const at = `${objectKeyString(diagnostic.object)}#${diagnostic.path ?? ''}`;
      this.#covered.add(at);
      this.#covered.add(`${at}#${diagnostic.code}`);
    }
  }

  /**
   * Counts the caller's diagnostics against the objects they name (after every object is declared):
   * an object the caller reported an error about is rejected, and its verdict lists the error.
   */
  adoptReported(): void {
    for (const diagnostic of this.reported) {
      const entry = diagnostic.object && this.#entries.get(objectKeyString(diagnostic.object));
      if (entry) this.#count(entry, diagnostic);
    }
  }

  /** Registers a declared object (`object` undefined when it failed its single-object checks). */
  declare(key: ObjectKey, object: GraphObject | undefined): void {
    const id = objectKeyString(key);
    if (this.#entries.has(id)) return;
    const order = this.#entries.size;
    this.#entries.set(id, { object, order, status: 'pending', ownErrors: 0, diagnostics: [], waitingOn: [] });
  }

  /**
   * The display name of `name` of `kind`: a declared object's own; an undeclared one's as `referrer`
   * would write it (decision 0025).
   */
  show(kind: GraphKind, name: string, referrer?: GraphObject): string {
    return this.names.of(kind, name, referrer);
  }

  /** An object's key with its display name, for a reference (`waits for …`). */
  keyFor(kind: GraphKind, name: string, referrer?: GraphObject): ObjectKey {
    const key: ObjectKey = { kind, name };
    const display = this.show(kind, name, referrer);
    if (display !== name) key.display = display;
    return key;
  }

  isDeclared(kind: GraphKind, name: string): boolean {
    return this.#entries.has(`${kind}/${name}`);
  }

  report(key: ObjectKey, code: DiagnosticCode, path: string, message: string): void {
    const diagnostic: Diagnostic = { code, severity: 'error', message, object: key, path };
    this.add(diagnostic);
  }

  /**
   * Records a diagnostic. One the caller already reported — the same code at the same object and
   * field, or with `singleObject` (a problem of the object's own schema or rules) any error at that
   * field, such as the parser's SR1003 where the schema's pattern fails too — is counted against its
   * object but not repeated: the caller's says it first, in the words of what the user wrote.
   */
  add(diagnostic: Diagnostic, singleObject = false): void {
    const at = diagnostic.object && `${objectKeyString(diagnostic.object)}#${diagnostic.path ?? ''}`;
    const covered = at !== undefined && this.#covered.has(singleObject ? at : `${at}#${diagnostic.code}`);
    if (!covered) this.diagnostics.push(diagnostic);
    const entry = diagnostic.object && this.#entries.get(objectKeyString(diagnostic.object));
    if (entry !== undefined) this.#count(entry, diagnostic);
  }

  #count(entry: Entry, diagnostic: Diagnostic): void {
    entry.diagnostics.push(diagnostic);
    if (diagnostic.severity === 'error' && !NOT_OWN.has(diagnostic.code)) entry.ownErrors += 1;
  }

  /** Whether the object already has a diagnostic (its own, or the caller's) at exactly this path. */
  hasDiagnosticAt(key: ObjectKey, path: string): boolean {
    return this.diagnosticsOf(key).some((diagnostic) => diagnostic.path === path);
  }

  hasOwnErrors(key: ObjectKey): boolean {
    return (this.#entries.get(objectKeyString(key))?.ownErrors ?? 0) > 0;
  }

  /** Objects that passed their single-object checks, in input order. */
  objects(kinds?: readonly GraphKind[]): GraphObject[] {
    const found: GraphObject[] = [];
    for (const entry of this.#entries.values()) {
      if (entry.object && (kinds === undefined || kinds.includes(entry.object.kind)))
        found.push(entry.object);
    }
    return found;
  }

  /** Input position, used to keep the first of two conflicting objects. */
  order(key: ObjectKey): number {
    return this.#entries.get(objectKeyString(key))?.order ?? Number.MAX_SAFE_INTEGER;
  }

  status(kind: string, name: string): Status | 'missing' {
    return this.#entries.get(`${kind}/${name}`)?.status ?? 'missing';
  }

  setStatus(key: ObjectKey, status: Status): void {
    const entry = this.#entries.get(objectKeyString(key));
    if (entry) entry.status = status;
  }

  waitOn(key: ObjectKey, on: readonly ObjectKey[]): void {
    const entry = this.#entries.get(objectKeyString(key));
    if (entry === undefined) return;
    for (const target of on) {
      if (!entry.waitingOn.some((known) => objectKeyString(known) === objectKeyString(target)))
        entry.waitingOn.push(target);
    }
  }

  waitingOn(key: ObjectKey): ObjectKey[] {
    return this.#entries.get(objectKeyString(key))?.waitingOn ?? [];
  }

  diagnosticsOf(key: ObjectKey): Diagnostic[] {
    return this.#entries.get(objectKeyString(key))?.diagnostics ?? [];
  }

  keys(): ObjectKey[] {
    return [...this.#entries.keys()].map((id) => {
      const cut = id.indexOf('/');
      return { kind: id.slice(0, cut), name: id.slice(cut + 1) };
    });
  }

  /** The object if it is accepted; undefined while it is pending, rejected, waiting or missing. */
  accepted<K extends GraphKind>(kind: K, name: string): GraphObject<K> | undefined {
    const entry = this.#entries.get(`${kind}/${name}`);
    return entry?.status === 'accepted' ? (entry.object as GraphObject<K> | undefined) : undefined;
  }

  /** Parses expression text once per compile. */
  parse(text: string): ExpressionResult {
    let result = this.#parsed.get(text);
    if (result === undefined) this.#parsed.set(text, (result = parseExpression(text)));
    return result;
  }

  schemaFields(name: string): ReadonlyMap<string, SchemaField> | undefined {
    const cached = this.#schemas.get(name);
    if (cached !== undefined) return cached;
    const schema = this.accepted('Schema', name);
    if (schema === undefined) return undefined;
    const fields = new Map(
      schema.spec.fields.map((field) => [
        field.name,
        {
          name: field.name,
          type: field.type,
          optional: field.optional === true,
          sensitive: field.sensitive === true,
        },
      ]),
    );
    this.#schemas.set(name, fields);
    return fields;
  }

  relaySchema(relay: string): RelaySchema | undefined {
    const cached = this.#relaySchemas.get(relay);
    if (cached !== undefined) return cached;
    const object = this.accepted('Relay', relay);
    const fields = object && this.schemaFields(object.spec.schema);
    if (object === undefined || fields === undefined) return undefined;
    const { schema } = object.spec;
    const shown = { relay: this.show('Relay', relay), schema: this.show('Schema', schema) };
    const found = { relay, schema, fields, shown };
    this.#relaySchemas.set(relay, found);
    return found;
  }

  /** Records a typed expression for lowering. */
  setTyped(key: ObjectKey, path: string, expr: Expr): void {
    this.typed.set(`${objectKeyString(key)}#${path}`, expr);
  }

  getTyped(key: ObjectKey, path: string): Expr | undefined {
    return this.typed.get(`${objectKeyString(key)}#${path}`);
  }
}

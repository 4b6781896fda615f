// A domain as a statement (or a batch of them) changes it: the manifest objects, read-only, and a copy of
// the statement objects that CREATE, ALTER and DROP change. Nothing is stored until the candidate
// compiles (domain-commit.ts). A statement may not change an object a manifest file declares (SR1018);
// CREATE of an existing object needs OR REPLACE or IF NOT EXISTS (SR1014); ALTER and DROP need one
// (SR2001, unless DROP … IF EXISTS).
import type { GraphKind, GraphObject } from '../api/index.js';
import type { DiagnosticCode } from '../diagnostics/codes.js';
import { objectKeyString, type Diagnostic } from '../diagnostics/diagnostic.js';
import type { DeclarationStatement, DropStatement } from '../language/ast.js';
import { displayName } from '../api/display-names.js';
import type { DomainState, ManifestObject } from './domain-state.js';
import { objectId } from './object-store.js';
import type { ShownObject } from './show-output.js';
import { kindsOf, kindsText } from '../language/ast.js';

export type Change = { ok: true; changed: boolean; notice?: string } | { ok: false; diagnostic: Diagnostic };

export class Candidate {
  readonly domain: string;
  readonly manifestObjects: readonly ManifestObject[];
  readonly #statements: Map<string, GraphObject>;
  #changed = false;

  constructor(domain: string, state: DomainState) {
    this.domain = domain;
    this.manifestObjects = state.manifestObjects;
    this.#statements = new Map(state.statementObjects.map((object) => [objectId(object), object]));
  }

  /** Whether any statement changed the statement objects. */
  get changed(): boolean {
    return this.#changed;
  }

  statementObjects(): GraphObject[] {
    return [...this.#statements.values()];
  }

  /** Every object with the manifest file that declares it. */
  shown(): ShownObject[] {
    return [
      ...this.manifestObjects.map(({ object, file }) => ({ object, file })),
      ...this.statementObjects().map((object) => ({ object })),
    ];
  }

  find(kinds: readonly GraphKind[], name: string): ShownObject | undefined {
    return this.shown().find(({ object }) => kinds.includes(object.kind) && object.metadata.name === name);
  }

  /**
   * `Kind name` for a message about the object a statement names: an existing object by its display
   * name, one that does not exist as the statement wrote it (decision 0025).
   */
  #what(kinds: readonly GraphKind[], statement: { name: string; identifier: string }): string {
    const found = this.find(kinds, statement.name)?.object;
    if (found === undefined) return `${kindsText(kinds)} ${statement.identifier}`;
    return `${found.kind} ${displayName(found)}`;
  }

  /** CREATE [OR REPLACE | IF NOT EXISTS] or ALTER, with the object the statement converts to. */
  declare(statement: DeclarationStatement, object: GraphObject): Change {
    const what = this.#what([statement.kind], statement);
    const owner = this.#manifestFile([statement.kind], statement.name);
    const exists = this.#statements.has(objectId(object));
    if (statement.type === 'create' && statement.ifNotExists && (owner !== undefined || exists)) {
      return { ok: true, changed: false, notice: `${what} already exists; nothing changed` };
    }
    const refused = this.#refusal(statement, { what, owner, exists });
    if (refused !== undefined) return refused;
    this.#statements.set(objectId(object), object);
    this.#changed = true;
    return { ok: true, changed: true };
  }

  /** Why the declaration cannot change the domain: a manifest owns the object, or it (does not) exist. */
  #refusal(
    statement: DeclarationStatement,
    found: { what: string; owner: string | undefined; exists: boolean },
  ): Change | undefined {
    const { what, owner, exists } = found;
    const at = statement.locations.get('metadata.name') ?? statement.location;
    if (owner !== undefined) return fail('SR1018', `${what} is declared in ${owner}; change it there`, at);
    if (statement.type === 'alter' && !exists) {
      return fail('SR2001', `ALTER: there is no ${what} in domain ${this.domain} (CREATE creates it)`, at);
    }
    if (statement.type === 'create' && !statement.orReplace && exists) {
      const message = `${what} already exists in domain ${this.domain} (ALTER or CREATE OR REPLACE changes it)`;
      return fail('SR1014', message, at);
    }
    return undefined;
  }

  drop(statement: DropStatement): Change {
    const kinds = kindsOf(statement.kind);
    const what = this.#what(kinds, statement);
    const owner = this.#manifestFile(kinds, statement.name);
    if (owner !== undefined) {
      return fail('SR1018', `${what} is declared in ${owner}; change it there`, statement.location);
    }
    const ids = kinds.map((kind) => objectKeyString({ kind, name: statement.name }));
    const dropped = ids.filter((id) => this.#statements.delete(id));
    if (dropped.length > 0) {
      this.#changed = true;
      return { ok: true, changed: true };
    }
    if (statement.ifExists)
      return { ok: true, changed: false, notice: `there is no ${what}; nothing dropped` };
    const message = `DROP: there is no ${what} in domain ${this.domain} (DROP … IF EXISTS allows that)`;
    return fail('SR2001', message, statement.location);
  }

  #manifestFile(kinds: readonly GraphKind[], name: string): string | undefined {
    return this.manifestObjects.find(
      ({ object }) => kinds.includes(object.kind) && object.metadata.name === name,
    )?.file;
  }
}

function fail(code: DiagnosticCode, message: string, location: Diagnostic['location']): Change {
  const diagnostic: Diagnostic = { code, severity: 'error', message };
  if (location !== undefined) diagnostic.location = location;
  return { ok: false, diagnostic };
}

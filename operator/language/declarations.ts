// The one rule for an object declared twice, shared by statements (convert.ts), YAML files
// (yaml-input.ts) and the CLI across all its inputs: two declarations are of the same object when kind,
// namespace and name are equal; the first is kept, and a later plain declaration is SR1014 at its name,
// saying where the first one is.
import {
  formatLocation,
  type Diagnostic,
  type ObjectKey,
  type SourceLocation,
} from '../diagnostics/diagnostic.js';

export interface DeclaredKey extends ObjectKey {
  namespace?: string | undefined;
}

interface Entry<T> {
  key: DeclaredKey;
  value: T;
  /** Where the declaration names the object. */
  at: SourceLocation | undefined;
}

/** Declarations in the order they were first made, each with a value (a statement, an object). */
export class Declarations<T> {
  #entries = new Map<string, Entry<T>>();

  get(key: DeclaredKey): T | undefined {
    return this.#entries.get(declarationId(key))?.value;
  }

  /** Adds a declaration; when the object is already declared, the first stays and this is SR1014. */
  claim(key: DeclaredKey, value: T, at: SourceLocation | undefined): Diagnostic | undefined {
    const first = this.#entries.get(declarationId(key));
    if (first !== undefined) return duplicateDiagnostic(key, at, first.at);
    this.#entries.set(declarationId(key), { key, value, at });
    return undefined;
  }

  /** Adds a declaration or replaces the value of an earlier one, which keeps its place and location. */
  replace(key: DeclaredKey, value: T, at: SourceLocation | undefined): void {
    const first = this.#entries.get(declarationId(key));
    this.#entries.set(declarationId(key), first === undefined ? { key, value, at } : { ...first, value });
  }

  /** Removes a declaration; false when there was none. */
  delete(key: DeclaredKey): boolean {
    return this.#entries.delete(declarationId(key));
  }

  values(): T[] {
    return [...this.#entries.values()].map((entry) => entry.value);
  }

  /** A copy of the current declarations, for `restore` (ROLLBACK). */
  snapshot(): Declarations<T> {
    const copy = new Declarations<T>();
    copy.#entries = new Map(this.#entries);
    return copy;
  }

  restore(snapshot: Declarations<T>): void {
    this.#entries = new Map(snapshot.#entries);
  }
}

function declarationId(key: DeclaredKey): string {
  return `${key.kind}/${key.namespace ?? ''}/${key.name}`;
}

/** SR1014, on the later declaration, saying where the first one is. */
function duplicateDiagnostic(
  key: DeclaredKey,
  location: SourceLocation | undefined,
  first: SourceLocation | undefined,
): Diagnostic {
  const where = first === undefined ? '' : ` (first declared at ${formatLocation(first)})`;
  const diagnostic: Diagnostic = {
    code: 'SR1014',
    severity: 'error',
    message: `${key.kind} ${key.name} is declared twice${where}`,
    object: { kind: key.kind, name: key.name },
    path: 'metadata.name',
  };
  if (location !== undefined) diagnostic.location = location;
  return diagnostic;
}

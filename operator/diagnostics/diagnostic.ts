// Diagnostics: every problem found in statements or resources, with a stable code, the object and field
// it concerns, and where it is (docs/errors.md; docs/language.md, "How mistakes are reported"). Collected,
// never thrown.
import type { DiagnosticCode } from './codes.js';

export interface SourceLocation {
  file?: string;
  /** 1-based. */
  line: number;
  /** 1-based. */
  column: number;
}

export interface ObjectKey {
  kind: string;
  name: string;
  /**
   * How people read the name when it is not the resource name: the identifier a statement wrote
   * (docs/decisions/0025-names-as-typed.md). Never part of the identity (objectKeyString).
   */
  display?: string;
}

/** `Kind name`, with the name as people read it. */
export function objectLabel(key: ObjectKey): string {
  return `${key.kind} ${key.display ?? key.name}`;
}

export interface Diagnostic {
  code: DiagnosticCode;
  severity: 'error' | 'warning';
  message: string;
  object?: ObjectKey;
  /** Field path inside the object, such as `spec.routes[1].set[0].value`. */
  path?: string;
  /**
   * Where inside the field's text the problem is (1-based, relative to the text), for a field that
   * holds an expression: `input.nope` on the second line of a SET value.
   */
  within?: { line: number; column: number };
  location?: SourceLocation;
}

export function objectKeyString(key: ObjectKey): string {
  return `${key.kind}/${key.name}`;
}

/**
 * Where each field of each object came from: statements record the token that produced a field, YAML
 * records the node. A diagnostic's path is looked up by its longest known prefix.
 */
export class SourceMap {
  readonly #locations = new Map<string, Map<string, SourceLocation>>();

  set(key: ObjectKey, path: string, location: SourceLocation): void {
    const id = objectKeyString(key);
    let paths = this.#locations.get(id);
    if (paths === undefined) this.#locations.set(id, (paths = new Map<string, SourceLocation>()));
    paths.set(path, location);
  }

  locate(key: ObjectKey, path = ''): SourceLocation | undefined {
    const paths = this.#locations.get(objectKeyString(key));
    return paths === undefined ? undefined : SourceMap.locateIn(paths, path);
  }

  /** The location of the longest prefix of `path` that `paths` (one object's locations) knows. */
  static locateIn(paths: ReadonlyMap<string, SourceLocation>, path: string): SourceLocation | undefined {
    for (let prefix = path; ; prefix = parentPath(prefix)) {
      const found = paths.get(prefix);
      if (found !== undefined || prefix === '') return found;
    }
  }

  /** Adds another map's locations; with `keepExisting`, objects already known keep theirs. */
  merge(other: SourceMap, options: { keepExisting?: boolean } = {}): void {
    for (const [id, paths] of other.#locations) {
      const mine = this.#locations.get(id);
      if (mine !== undefined && options.keepExisting) continue;
      const merged = mine ?? new Map<string, SourceLocation>();
      for (const [path, location] of paths) merged.set(path, location);
      this.#locations.set(id, merged);
    }
  }

  /**
   * Fills in `location` on diagnostics that name an object and lack one. `inText(location)` says whether
   * a field located there starts at its own first character, written verbatim (statement text, where
   * an expression is located at its start; not YAML, where a field is located at its key): then a
   * diagnostic's position `within` the field moves the location onto the fault itself.
   */
  attach(
    diagnostics: readonly Diagnostic[],
    inText: (location: SourceLocation) => boolean = () => false,
  ): Diagnostic[] {
    return diagnostics.map((diagnostic) => {
      if (diagnostic.location !== undefined || diagnostic.object === undefined) return diagnostic;
      const path = diagnostic.path ?? '';
      const location = this.locate(diagnostic.object, path);
      if (location === undefined) return diagnostic;
      const { within } = diagnostic;
      const exact = this.#locations.get(objectKeyString(diagnostic.object))?.get(path) === location;
      if (within === undefined || !exact || !inText(location)) return { ...diagnostic, location };
      return { ...diagnostic, location: shifted(location, within) };
    });
  }
}

/** A location moved by a 1-based position inside the text that starts there (later lines are verbatim). */
function shifted(start: SourceLocation, within: { line: number; column: number }): SourceLocation {
  const line = start.line + within.line - 1;
  const column = within.line === 1 ? start.column + within.column - 1 : within.column;
  return start.file === undefined ? { line, column } : { file: start.file, line, column };
}

/** The 1-based line and column of a 0-based offset into `text`. */
export function positionIn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  return { line, column: offset - before.lastIndexOf('\n') };
}

/** `spec.routes[1].set` → `spec.routes[1]` → `spec.routes` → `spec` → ``. */
export function parentPath(path: string): string {
  const cut = Math.max(path.lastIndexOf('.'), path.lastIndexOf('['));
  return cut <= 0 ? '' : path.slice(0, cut);
}

/** `FILE:LINE:COL: error CODE: message` (the CLI's format). */
/** `FILE:LINE:COL`, as a diagnostic starts. */
export function formatLocation(location: SourceLocation): string {
  return `${location.file ?? '<input>'}:${location.line}:${location.column}`;
}

export function formatDiagnostic(diagnostic: Diagnostic): string {
  const where = diagnostic.location ? `${formatLocation(diagnostic.location)}: ` : '';
  const what = diagnostic.object ? objectLabel(diagnostic.object) : '';
  const field = diagnostic.path ? `${what ? ' ' : ''}${diagnostic.path}` : '';
  const subject = what || field ? `${what}${field}: ` : '';
  return `${where}${diagnostic.severity} ${diagnostic.code}: ${subject}${diagnostic.message}`;
}

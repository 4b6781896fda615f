// UPLOAD RESOURCE is client-side (docs/language.md, "Resources"): the client reads each statement's directory
// where it runs and sends the files with the script. Regular files only, recursively, in name order; symbolic
// links are followed, but not into a directory that contains them (that would never end).
import { readdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { UploadResourceStatement } from '../language/ast.js';
import type { ScriptResult } from '../language/parse.js';
import { InputError, ioError } from '../language/input-error.js';
import type { Upload, UploadFile } from './protocol.js';

/**
 * The uploads of a parsed script, one per UPLOAD RESOURCE statement in script order. A script with errors the
 * parser finds runs nothing (the node reports them), so then no directory is read and none is sent.
 * Relative directories resolve against `cwd`. A directory or file that cannot be read is an InputError.
 */
export function collectUploads(parsed: ScriptResult, source: string, cwd: string): Upload[] {
  if (parsed.diagnostics.some((diagnostic) => diagnostic.severity === 'error')) return [];
  return parsed.statements
    .filter((statement): statement is UploadResourceStatement => statement.type === 'upload-resource')
    .map((statement) => ({
      resource: statement.name,
      directory: statement.directory,
      files: readUploadDirectory(statement, source, cwd),
    }));
}

/** Where the files come from, and how messages name them. */
interface Walk {
  root: string;
  /** The directory as written, so messages show the path the user wrote. */
  shown: string;
  /** `-c:1:1: UPLOAD RESOURCE protos:` */
  context: string;
  files: UploadFile[];
}

function readUploadDirectory(statement: UploadResourceStatement, source: string, cwd: string): UploadFile[] {
  const { line, column } = statement.location;
  const walk: Walk = {
    root: resolve(cwd, statement.directory),
    shown: statement.directory,
    context: `${source}:${line}:${column}: UPLOAD RESOURCE ${statement.identifier}:`,
    files: [],
  };
  visitDirectory(walk, [], new Set());
  return walk.files;
}

function visitDirectory(walk: Walk, parts: readonly string[], ancestors: ReadonlySet<string>): void {
  const path = join(walk.root, ...parts);
  const attempt = attemptOn(walk, parts, 'cannot read directory');
  const real = attempt(() => realpathSync(path));
  if (ancestors.has(real)) {
    throw new InputError(
      `${walk.context} cannot read directory ${shownPath(walk, parts)}: a symbolic link leads back into a directory that holds it`,
    );
  }
  const inside = new Set(ancestors).add(real);
  const names = attempt(() => readdirSync(path)).sort(byCodeUnits);
  for (const name of names) visitEntry(walk, [...parts, name], inside);
}

function visitEntry(walk: Walk, parts: readonly string[], ancestors: ReadonlySet<string>): void {
  const path = join(walk.root, ...parts);
  const attempt = attemptOn(walk, parts, 'cannot read');
  // stat follows symbolic links: a link is uploaded as what it points to, under the link's own name.
  const stats = attempt(() => statSync(path));
  if (stats.isDirectory()) {
    visitDirectory(walk, parts, ancestors);
  } else if (stats.isFile()) {
    walk.files.push({ path: parts.join('/'), base64: attempt(() => readFileSync(path)).toString('base64') });
  }
  // Sockets, FIFOs and devices are not files to upload (and reading a FIFO could wait forever).
}

function attemptOn(walk: Walk, parts: readonly string[], action: string) {
  return <T>(read: () => T): T => {
    try {
      return read();
    } catch (error: unknown) {
      throw ioError(`${walk.context} ${action}`, shownPath(walk, parts), error);
    }
  };
}

function shownPath(walk: Walk, parts: readonly string[]): string {
  return parts.length === 0 ? walk.shown : join(walk.shown, ...parts);
}

function byCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

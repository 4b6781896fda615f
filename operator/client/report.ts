// How the CLI reports: results on stdout, diagnostics on stderr, and documented exit codes.
import { formatDiagnostic, type Diagnostic } from '../diagnostics/diagnostic.js';

export const EXIT = {
  ok: 0,
  /** The input has errors; every diagnostic was printed. */
  invalid: 1,
  /** The command line itself is wrong (unknown option, missing argument). */
  usage: 2,
  /** A file could not be read or written. */
  io: 3,
} as const;

export interface Output {
  out(text: string): void;
  err(text: string): void;
}

export const processOutput: Output = {
  out: (text) => process.stdout.write(text.endsWith('\n') ? text : `${text}\n`),
  err: (text) => process.stderr.write(text.endsWith('\n') ? text : `${text}\n`),
};

/** Prints the diagnostics, errors and warnings in input order; returns whether any is an error. */
export function reportDiagnostics(diagnostics: readonly Diagnostic[], output: Output): boolean {
  const sorted = [...diagnostics].sort(byLocation);
  for (const diagnostic of sorted) output.err(formatDiagnostic(diagnostic));
  const errors = sorted.filter((diagnostic) => diagnostic.severity === 'error').length;
  if (errors > 0) output.err(`${errors} error${errors === 1 ? '' : 's'}`);
  return errors > 0;
}

function byLocation(a: Diagnostic, b: Diagnostic): number {
  const [fileA, lineA, columnA] = position(a);
  const [fileB, lineB, columnB] = position(b);
  return fileA.localeCompare(fileB) || lineA - lineB || columnA - columnB;
}

function position({ location }: Diagnostic): [string, number, number] {
  return location === undefined ? ['', 0, 0] : [location.file ?? '', location.line, location.column];
}

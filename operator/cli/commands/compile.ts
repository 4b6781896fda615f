// `streamroute validate` and `streamroute compile`: the whole-graph compiler over statements and YAML.
import type { Diagnostic, SourceLocation } from '../../compiler/diagnostic.js';
import { compileDomain, type CompileResult } from '../../compiler/index.js';
import { loadInputs, type InputFormat } from '../inputs.js';
import { EXIT, reportDiagnostics, type Output } from '../report.js';
import { resourceDirectories } from '../resource-dirs.js';

export interface CompileOptions {
  domain: string;
  resource: string[];
  format?: InputFormat;
}

function compileInputs(paths: string[], options: CompileOptions, output: Output): CompileResult | undefined {
  const loaded = loadInputs(paths, options.format ? { format: options.format } : {});
  // Every object goes to the compiler, also those the loaders found broken: it rejects them again, so
  // their dependents wait for them (SR2061) as they do on a cluster. What the loaders already reported
  // counts against its object and is not repeated.
  const result = compileDomain(loaded.objects, {
    domain: options.domain,
    resources: resourceDirectories(options.resource),
    reported: loaded.diagnostics,
  });
  const compiled = notReportedBefore(result.diagnostics, loaded.diagnostics);
  const inStatements = (location: SourceLocation): boolean =>
    (options.format ?? formatByExtension(location.file)) === 'sql';
  const diagnostics = loaded.sourceMap.attach([...loaded.diagnostics, ...compiled], inStatements);
  return reportDiagnostics(diagnostics, output) ? undefined : result;
}

/** A file's format as its name tells it; stdin does not say. */
function formatByExtension(file: string | undefined): InputFormat | undefined {
  return file === undefined || file === '<stdin>' ? undefined : file.endsWith('.sql') ? 'sql' : 'yaml';
}

/**
 * The compiler checks resources however they were written, so it finds again some problems the parser
 * already reported (a malformed duration or size: SR1003, SR1004). Each is shown once: a compiler
 * diagnostic with the code, object and field path of an earlier one is left out.
 */
export function notReportedBefore(
  diagnostics: readonly Diagnostic[],
  earlier: readonly Diagnostic[],
): Diagnostic[] {
  const seen = new Set(earlier.map(sameProblem));
  return diagnostics.filter(
    (diagnostic) => diagnostic.object === undefined || !seen.has(sameProblem(diagnostic)),
  );
}

function sameProblem({ code, object, path }: Diagnostic): string {
  return JSON.stringify([code, object?.kind, object?.name, path]);
}

export function runValidate(paths: string[], options: CompileOptions, output: Output): number {
  const result = compileInputs(paths, options, output);
  if (result === undefined) return EXIT.invalid;
  output.out(`valid: ${result.verdicts.size} objects in domain ${options.domain}`);
  return EXIT.ok;
}

export function runCompile(paths: string[], options: CompileOptions, output: Output): number {
  const result = compileInputs(paths, options, output);
  if (result === undefined) return EXIT.invalid;
  output.out(JSON.stringify(result.graph, null, 2));
  return EXIT.ok;
}

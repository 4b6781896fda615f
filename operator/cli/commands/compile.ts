// `streamroute validate` and `streamroute compile`: the whole-graph compiler over statements and YAML.
import type { GraphObject } from '../../api/index.js';
import type { SourceLocation } from '../../diagnostics/diagnostic.js';
import { compileDomain, prepareCompile, type CompileResult } from '../../compiler/index.js';
import { loadInputs, type InputFormat } from '../../language/inputs.js';
import { EXIT, reportDiagnostics, type Output } from '../../client/report.js';
import { resourceDirectories } from '../resource-dirs.js';

export interface CompileOptions {
  domain: string;
  resource: string[];
  format?: InputFormat;
}

/** The objects of the files, once the whole domain checked without errors (else undefined, reported). */
export async function checkedObjects(
  paths: string[],
  options: CompileOptions,
  output: Output,
): Promise<GraphObject[] | undefined> {
  return (await compileInputs(paths, options, output))?.objects;
}

async function compileInputs(
  paths: string[],
  options: CompileOptions,
  output: Output,
): Promise<(CompileResult & { objects: GraphObject[] }) | undefined> {
  const loaded = loadInputs(paths, options.format ? { format: options.format } : {});
  await prepareCompile(loaded.objects);
  // Every object goes to the compiler, also those the loaders found broken: it rejects them again, so
  // their dependents wait for them (SR2061) as they do on a cluster. What the loaders already reported
  // counts against its object and is not repeated.
  const result = compileDomain(loaded.objects, {
    domain: options.domain,
    resources: resourceDirectories(options.resource),
    reported: loaded.diagnostics,
  });
  const inStatements = (location: SourceLocation): boolean =>
    (options.format ?? formatByExtension(location.file)) === 'sql';
  const diagnostics = loaded.sourceMap.attach([...loaded.diagnostics, ...result.diagnostics], inStatements);
  return reportDiagnostics(diagnostics, output) ? undefined : { ...result, objects: loaded.objects };
}

/** A file's format as its name tells it; stdin does not say. */
function formatByExtension(file: string | undefined): InputFormat | undefined {
  return file === undefined || file === '<stdin>' ? undefined : file.endsWith('.sql') ? 'sql' : 'yaml';
}

export async function runValidate(paths: string[], options: CompileOptions, output: Output): Promise<number> {
  const result = await compileInputs(paths, options, output);
  if (result === undefined) return EXIT.invalid;
  output.out(`valid: ${result.verdicts.size} objects in domain ${options.domain}`);
  return EXIT.ok;
}

export async function runCompile(paths: string[], options: CompileOptions, output: Output): Promise<number> {
  const result = await compileInputs(paths, options, output);
  if (result === undefined) return EXIT.invalid;
  output.out(JSON.stringify(result.graph, null, 2));
  return EXIT.ok;
}

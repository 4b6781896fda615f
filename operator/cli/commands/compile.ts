// `streamroute validate` and `streamroute compile`: the whole-graph compiler over statements and YAML.
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
  const result = compileDomain(loaded.objects, {
    domain: options.domain,
    resources: resourceDirectories(options.resource),
  });
  const diagnostics = loaded.sourceMap.attach([...loaded.diagnostics, ...result.diagnostics]);
  return reportDiagnostics(diagnostics, output) ? undefined : result;
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

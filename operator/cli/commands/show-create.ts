// `streamroute show-create [FILE…]`: resource YAML → canonical statements (what SHOW CREATE prints).
import { printObjects } from '../../language/print.js';
import { loadInputs } from '../../language/inputs.js';
import { EXIT, reportDiagnostics, type Output } from '../../client/report.js';

export function runShowCreate(paths: string[], output: Output): number {
  const { objects, diagnostics, sourceMap } = loadInputs(paths, { only: 'yaml' });
  if (reportDiagnostics(sourceMap.attach(diagnostics), output)) return EXIT.invalid;
  output.out(printObjects(objects));
  return EXIT.ok;
}

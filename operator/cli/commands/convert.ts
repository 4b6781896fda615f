// `streamroute convert [FILE|-]…`: statements → resource YAML ready for `kubectl apply -f -`.
import { objectsToYaml } from '../../language/to-yaml.js';
import { loadInputs } from '../../language/inputs.js';
import { EXIT, reportDiagnostics, type Output } from '../../client/report.js';

export function runConvert(paths: string[], options: { namespace?: string }, output: Output): number {
  const { objects, diagnostics, sourceMap } = loadInputs(paths, { only: 'sql' });
  if (reportDiagnostics(sourceMap.attach(diagnostics), output)) return EXIT.invalid;
  const placed = options.namespace
    ? objects.map((object) => ({ ...object, metadata: { ...object.metadata, namespace: options.namespace } }))
    : objects;
  output.out(objectsToYaml(placed as typeof objects));
  return EXIT.ok;
}

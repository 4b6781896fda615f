// `streamroute crds [--out DIR]`: the CustomResourceDefinitions, for `kubectl apply -f -`.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { renderCrds } from '../../api/render-crds.js';
import { ioError } from '../../language/input-error.js';
import { EXIT, type Output } from '../../client/report.js';

export function runCrds(options: { out?: string }, output: Output): number {
  const crds = renderCrds();
  if (options.out === undefined) {
    output.out(crds.map(({ yaml }) => yaml).join('---\n'));
    return EXIT.ok;
  }
  try {
    mkdirSync(options.out, { recursive: true });
  } catch (error: unknown) {
    throw ioError('cannot create directory', options.out, error);
  }
  for (const { fileName, yaml } of crds) {
    const path = join(options.out, fileName);
    try {
      writeFileSync(path, yaml);
    } catch (error: unknown) {
      throw ioError('cannot write', path, error);
    }
  }
  output.err(`wrote ${crds.length} CRDs to ${options.out}`);
  return EXIT.ok;
}

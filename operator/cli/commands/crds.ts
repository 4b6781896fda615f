// `streamroute crds [--out DIR]`: the CustomResourceDefinitions, for `kubectl apply -f -`.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { renderCrds } from '../../api/render-crds.js';
import { EXIT, type Output } from '../report.js';

export function runCrds(options: { out?: string }, output: Output): number {
  const crds = renderCrds();
  if (options.out === undefined) {
    output.out(crds.map(({ yaml }) => yaml).join('---\n'));
    return EXIT.ok;
  }
  mkdirSync(options.out, { recursive: true });
  for (const { fileName, yaml } of crds) writeFileSync(join(options.out, fileName), yaml);
  output.err(`wrote ${crds.length} CRDs to ${options.out}`);
  return EXIT.ok;
}

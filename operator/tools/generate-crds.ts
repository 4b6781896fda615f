// Writes crds/<plural>.streamroute.io.yaml from operator/api, and the same files into the Helm chart's
// crds/ (Helm installs a chart's crds/ before its templates). CI regenerates and fails on drift.
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { renderCrds } from '../api/render-crds.js';

const root = join(import.meta.dirname, '..', '..');
const files = renderCrds();
for (const directory of [join(root, 'crds'), join(root, 'charts', 'streamroute', 'crds')]) {
  mkdirSync(directory, { recursive: true });
  for (const file of readdirSync(directory)) rmSync(join(directory, file));
  for (const { fileName, yaml } of files) writeFileSync(join(directory, fileName), yaml);
}

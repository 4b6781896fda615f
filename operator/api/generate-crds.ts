// Writes crds/<plural>.streamroute.io.yaml from operator/api. CI regenerates and fails on drift.
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { renderCrds } from './render-crds.js';

const directory = join(import.meta.dirname, '..', '..', 'crds');
mkdirSync(directory, { recursive: true });
for (const file of readdirSync(directory)) rmSync(join(directory, file));
for (const { fileName, yaml } of renderCrds()) writeFileSync(join(directory, fileName), yaml);

// Writes docs/resources.md from operator/api. CI regenerates it and fails on drift (npm run check:generated).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { renderResourceDocs } from './render-resource-docs.js';

writeFileSync(join(import.meta.dirname, '..', '..', 'docs', 'resources.md'), renderResourceDocs());

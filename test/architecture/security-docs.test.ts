// docs/security.md is the one list of limits against hostile input: every metric and error code it names
// must exist in the code, so a renamed counter or code cannot leave the page pointing at nothing.
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MESSAGE_ERROR_CODES } from '../../dataplane/core/errors.js';
import { DIAGNOSTIC_CODES } from '../../operator/diagnostics/codes.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const PAGE = readFileSync(join(ROOT, 'docs', 'security.md'), 'utf8');

/** The text of every non-test TypeScript file under `dir`. */
function sources(dir: string): string {
  return readdirSync(join(ROOT, dir), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts'))
    .map((entry) => readFileSync(join(entry.parentPath, entry.name), 'utf8'))
    .join('\n');
}

describe('docs/security.md', () => {
  const code = sources('dataplane') + sources('operator');

  it('names only metrics the code registers', () => {
    const metrics = [...new Set(PAGE.match(/streamroute_[a-z_]+/g) ?? [])];
    assert.ok(metrics.length > 10);
    assert.deepEqual(
      metrics.filter((metric) => !code.includes(`'${metric}'`)),
      [],
    );
  });

  it('names only error codes of the catalogs', () => {
    const codes = [...new Set(PAGE.match(/\bSR\d{4}\b/g) ?? [])];
    const known = new Set([...Object.keys(MESSAGE_ERROR_CODES), ...Object.keys(DIAGNOSTIC_CODES)]);
    assert.deepEqual(
      codes.filter((found) => !known.has(found)),
      [],
    );
  });
});

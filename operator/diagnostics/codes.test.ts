import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DIAGNOSTIC_CODES } from './codes.js';

// docs/errors.md is the user's copy of the catalog; the two must list the same codes and meanings.
describe('diagnostic catalog', () => {
  it('matches docs/errors.md', () => {
    const text = readFileSync(join(import.meta.dirname, '..', '..', 'docs', 'errors.md'), 'utf8');
    const documented = Object.fromEntries(
      [...text.matchAll(/^\| `(SR\d{4})` \| ([^|]+) \|/gm)].map(([, code = '', title = '']) => [
        code,
        title.trim(),
      ]),
    );
    assert.deepEqual(documented, { ...DIAGNOSTIC_CODES });
  });
});

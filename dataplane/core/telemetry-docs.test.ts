import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DROP_REASONS, GENERAL_ERROR_REASONS } from './telemetry.js';

// docs/runtime.md is the user's copy of the reasons a drop and a general error are counted with.
const DOCS = readFileSync(join(import.meta.dirname, '..', '..', 'docs', 'runtime.md'), 'utf8');

/** The backquoted words of the Telemetry table's row of `counter`. */
function reasonsOfRow(counter: string): string[] {
  const row = DOCS.split('\n').find((line) => line.startsWith(`| \`${counter}{reason}\``)) ?? '';
  return [...(row.split('|')[2] ?? '').matchAll(/`([a-z_]+)`/g)].map(([, word = '']) => word);
}

describe('telemetry reasons in docs/runtime.md', () => {
  it('lists every drop reason, in order', () => {
    assert.deepEqual(reasonsOfRow('streamroute_drops_total'), [...DROP_REASONS]);
  });

  it('lists every general-error reason, in the counter row and in the General errors table', () => {
    assert.deepEqual(reasonsOfRow('streamroute_general_errors_total'), [...GENERAL_ERROR_REASONS]);
    const section = DOCS.slice(DOCS.indexOf('### General errors'), DOCS.indexOf('## Message error codes'));
    const rows = [...section.matchAll(/^\| `([a-z_]+)` \|/gm)].map(([, reason = '']) => reason);
    assert.deepEqual(rows, [...GENERAL_ERROR_REASONS]);
  });
});

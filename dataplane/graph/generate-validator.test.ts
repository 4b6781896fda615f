import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { generateValidatorSource } from './generate-validator.js';

describe('the generated Graph validator', () => {
  it('is what generate-validator.ts makes of graph.schema.ts now (run `npm run generate`)', () => {
    const committed = readFileSync(new URL('graph-validator.generated.js', import.meta.url), 'utf8');
    assert.ok(committed === generateValidatorSource(), 'graph-validator.generated.js is stale');
  });
});

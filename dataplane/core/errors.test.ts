import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isMessageError, MESSAGE_ERROR_CODES, quoteName } from './errors.js';

const DOCS = join(import.meta.dirname, '..', '..', 'docs', 'runtime.md');

describe('message error codes', () => {
  it('are the table of docs/runtime.md, with the same meanings', () => {
    const text = readFileSync(DOCS, 'utf8');
    const section = text.slice(text.indexOf('## Message error codes'));
    const rows = [...section.matchAll(/^\| `(SR\d{4})` \| (.+) \|$/gm)].map(([, code, meaning]) => [
      code,
      meaning,
    ]);
    assert.deepEqual(rows, Object.entries(MESSAGE_ERROR_CODES));
  });

  it('recognises a message error by its code', () => {
    assert.equal(isMessageError({ code: 'SR3001', reason: 'x' }), true);
    assert.equal(isMessageError({ code: 'SR9999', reason: 'x' }), false);
    assert.equal(isMessageError(null), false);
  });

  it('quotes names from payloads safely and briefly', () => {
    assert.equal(quoteName('a"b'), '"a\\"b"');
    assert.equal(quoteName('x'.repeat(100)), `"${'x'.repeat(64)}…"`);
  });
});

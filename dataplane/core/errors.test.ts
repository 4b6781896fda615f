import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isMessageError, MESSAGE_ERROR_CODES, messageError, quoteGraphName } from './errors.js';

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

  it('quotes names of the graph; a detail is kept only when there is one', () => {
    assert.equal(quoteGraphName('order_id'), '"order_id"');
    assert.deepEqual(messageError('SR3004', 'r'), { code: 'SR3004', reason: 'r' });
    assert.deepEqual(messageError('SR3004', 'r', { keyPosition: 2 }), {
      code: 'SR3004',
      reason: 'r',
      detail: { keyPosition: 2 },
    });
  });
});

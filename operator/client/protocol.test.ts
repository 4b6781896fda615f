import assert from 'node:assert/strict';
import { decodeDescription, decodeErrorReply, decodeStatementsReply } from './protocol.js';

describe('checking replies against the protocol', () => {
  const REPLIES: [unknown, string | undefined][] = [
    [{ ok: true, diagnostics: [], results: [] }, undefined],
    [{ ok: true, diagnostics: [], results: [], newerField: 1 }, undefined],
    [
      {
        ok: false,
        diagnostics: [],
        results: [{ statement: 'S', line: 1, column: 2, status: 'not_run', warnings: ['w'] }],
      },
      undefined,
    ],
    [[], 'expected an object'],
    [{ ok: 'yes', diagnostics: [], results: [] }, 'ok: expected true or false'],
    [{ ok: true, results: [] }, 'diagnostics: missing'],
    [{ ok: true, diagnostics: [1], results: [] }, 'diagnostics[0]: expected a string'],
    [
      { ok: true, diagnostics: [], results: [{ statement: 'S', line: 1, column: 1, status: 'done' }] },
      'results[0].status: expected one of ok, error, not_run',
    ],
    [
      {
        ok: true,
        diagnostics: [],
        results: [{ statement: 'S', line: 1, column: 1, status: 'ok', graphVersion: 1.5 }],
      },
      'results[0].graphVersion: expected an integer',
    ],
  ];
  for (const [reply, problem] of REPLIES) {
    it(`${JSON.stringify(reply)} → ${problem ?? 'fits'}`, () => {
      const decoded = decodeStatementsReply(reply);
      assert.deepEqual(decoded, problem === undefined ? { ok: true, value: reply } : { ok: false, problem });
    });
  }

  it('error replies and descriptions', () => {
    assert.deepEqual(decodeErrorReply({ error: { code: 'x', message: 'y' } }), {
      ok: true,
      value: { code: 'x', message: 'y' },
    });
    assert.deepEqual(decodeErrorReply({ error: 'x' }), { ok: false, problem: 'error: expected an object' });
    assert.deepEqual(decodeDescription({ domain: 'd' }), { ok: false, problem: 'kind: missing' });
  });
});

import assert from 'node:assert/strict';
import fc from 'fast-check';
import { parseAllDocuments } from 'yaml';
import {
  ERROR_LINES,
  errorStreams,
  streamText,
  timed,
  validText,
} from '../../../test/fixtures/yaml-error-streams.js';
import type { ReadResult } from './payload-format.js';
import { parseUntilError } from './yaml-first-error.js';
import { yamlFormat } from './yaml-format.js';

const encoder = new TextEncoder();
const OPTIONS = { version: '1.2', schema: 'core', intAsBigInt: true, prettyErrors: false } as const;

describe('YAML payloads: text that is one error after another', () => {
  it('fails (SR3010) at its first error, in about the time valid YAML of its size takes', () => {
    fc.assert(
      fc.property(errorStreams, (stream) => {
        const payload = encoder.encode(streamText(stream));
        const validPayload = encoder.encode(validText(payload.length));
        let result = { inputs: [] } as ReadResult;
        const read = (): void => {
          result = yamlFormat.read(payload);
        };
        let took = timed(read);
        let valid = timed(() => yamlFormat.read(validPayload));
        // A pause of the machine (a shared CI core, a collection) can land in one timing: a timing over the
        // bound is taken twice more, and the fastest of each counts.
        for (let again = 0; again < 2 && took >= 2 * valid + 100; again++) {
          took = Math.min(took, timed(read));
          valid = Math.min(
            valid,
            timed(() => yamlFormat.read(validPayload)),
          );
        }
        assert.ok('error' in result, 'the payload was read');
        assert.equal(result.error.code, 'SR3010');
        // Reading on cost 5–20 times what valid YAML costs.
        assert.ok(took < 2 * valid + 100, `${took.toFixed(0)} ms, valid YAML ${valid.toFixed(0)} ms`);
      }),
      { numRuns: 8 },
    );
  });

  it('the error it stops at is the first the library reports, in the same document', () => {
    for (const line of ERROR_LINES) {
      for (const prefix of ['', 'a: 1\n---\n', 'a: 1\n---\nb: 2\n---\n']) {
        const text = prefix + line.repeat(3);
        const all = parseAllDocuments(text, OPTIONS);
        const index = all.findIndex((document) => document.errors.length > 0);
        const first = all[index]?.errors[0];
        const stopped = parseUntilError(text, OPTIONS);
        assert.ok('error' in stopped && first !== undefined, JSON.stringify(text));
        assert.deepEqual(
          stopped.error,
          { code: first.code, offset: first.pos[0], document: index },
          JSON.stringify(text),
        );
      }
    }
  });
});

// The yaml bundle `npm run build` writes is the yaml package as installed: the same version, and the same
// text for the same values, and the same values for the same text, on generated documents.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import * as yaml from 'yaml';
import { bundleYaml } from './bundle-yaml.js';

describe('the yaml bundle of npm run build', function () {
  this.timeout(30_000);
  let dir: string;
  let bundled: typeof yaml;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'streamroute-yaml-bundle-'));
    const file = join(dir, 'yaml.bundle.cjs');
    bundleYaml(file);
    bundled = createRequire(import.meta.url)(file) as typeof yaml;
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('writes and reads generated documents as the package does', () => {
    const value = fc.jsonValue({ maxDepth: 4 });
    fc.assert(
      fc.property(value, (document) => {
        const text = yaml.stringify(document);
        assert.equal(bundled.stringify(document), text);
        assert.deepEqual(bundled.parse(text), yaml.parse(text));
      }),
      { numRuns: 300 },
    );
  });

  it('refuses what the package refuses, with the same message', () => {
    for (const text of ['a: [1, 2', 'key: value\n  bad: indent', '- a\nb: c', '"unclosed']) {
      const message = (parse: (text: string) => unknown): string => {
        try {
          parse(text);
          return 'parsed';
        } catch (error: unknown) {
          return (error as Error).message;
        }
      };
      assert.notEqual(message(yaml.parse), 'parsed', text);
      assert.equal(message(bundled.parse), message(yaml.parse), text);
    }
  });
});

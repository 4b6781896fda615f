import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { compileJq } from './compile-jq.js';
import { VALUE_BUILTINS } from './jq-builtins.js';
import { GENERATOR_BUILTINS } from './jq-generators.js';

// docs/codecs.md lists the compiled subset exactly: its builtins row is the compiler's table, and what it
// names as outside is outside.
describe('compiled jq: the subset in docs/codecs.md', () => {
  const text = readFileSync(join(import.meta.dirname, '..', '..', '..', '..', 'docs', 'codecs.md'), 'utf8');

  it('the Builtins row lists exactly the builtins the compiler takes', () => {
    const row = text.split('\n').find((line) => line.startsWith('| Builtins |')) ?? '';
    const listed = [...row.matchAll(/`([a-z_0-9]+\/\d)`/g)].map(([, name]) => name);
    assert.deepEqual(listed, [...Object.keys(VALUE_BUILTINS), ...GENERATOR_BUILTINS].sort());
  });

  it('programs of what the page names as outside are not compiled', () => {
    const outside = [
      'def f: 1; f', '. as [$a] | $a', '.a = 1', '.a |= 1', '.a += 1', 'del(.a)', 'path(.a)', 'paths',
      'getpath(["a"])', 'test("a")', 'match("a")', 'sub("a"; "b")', 'split(","; null)', '@base64',
      'now', 'todate', 'fromjson', 'tostream', 'input', 'until(. > 1; . + 1)', 'repeat(.)',
      'recurse(.[])', 'range(0; 5; 2)', '$__loc__', 'halt', 'debug', 'label $out | 1', '{(null): 1}',
      '1.0', '1e2', 'log',
    ]; // prettier-ignore
    for (const program of outside) assert.ok('outside' in compileJq(program), program);
  });
});

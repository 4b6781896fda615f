// What `npm run build` compiles into dist/ (and so into the images) is only what runs: no test, fixture
// or testdata file, whether listed or pulled in by an import from shipped code.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { join, relative } from 'node:path';

const ROOT = join(import.meta.dirname, '..', '..');

describe('the build', () => {
  it('compiles no test, fixture or testdata file', function () {
    this.timeout(60_000);
    const tsc = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
    const listed = execFileSync(process.execPath, [tsc, '-p', 'tsconfig.build.json', '--listFilesOnly'], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    const ours = listed
      .split('\n')
      .filter((file) => file !== '' && !file.includes('/node_modules/'))
      .map((file) => relative(ROOT, file));
    assert.ok(ours.includes(join('operator', 'cli', 'main.ts')), 'the CLI entry is compiled');
    const testFiles = ours.filter((file) => /\.(test|fixtures)\.ts$|\/testdata\/|^test\//.test(file));
    assert.deepEqual(testFiles, []);
  });
});

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HOSTILE_EXAMPLES } from '../../test/fixtures/hostile-jaq-programs.js';
import { EXIT } from '../client/report.js';

const ROOT = join(import.meta.dirname, '..', '..');
const scratch = mkdtempSync(join(tmpdir(), 'streamroute-jaq-check-'));
after(() => rmSync(scratch, { recursive: true, force: true }));

const codec = (name: string, program: string): string =>
  `CREATE CODEC ${name} FROM JSON TO SCHEMA orders WITH JAQ TRANSFORMATIONS ON INGESTION $jaq$${program}$jaq$;`;

describe('streamroute validate: JAQ programs that exhaust jq’s compiler', () => {
  it('bug: a stack trace (RuntimeError) or a hang — now SR2065 for each, exit status 1, every other check done', function () {
    this.timeout(120_000);
    const file = join(scratch, 'hostile.sql');
    writeFileSync(
      file,
      [
        'CREATE SCHEMA orders (order_id STRING, amount I64);',
        ...HOSTILE_EXAMPLES.map(({ program }, index) => codec(`hostile_${index}`, program)),
        codec('fine', '{order_id: .id, amount: .amount}'),
        codec('broken', '{order_id: .id | frobnicate, amount: .amount}'),
        '',
      ].join('\n'),
    );
    const run = spawnSync(
      process.execPath,
      ['--import', 'tsx', join(ROOT, 'operator/cli/main.ts'), 'validate', file],
      { encoding: 'utf8', cwd: ROOT, timeout: 100_000 },
    );
    assert.doesNotMatch(run.stderr, /\n\s+at |RuntimeError|RangeError/, 'no stack trace');
    assert.equal(run.status, EXIT.invalid, run.stderr);
    const lines = run.stderr.trim().split('\n');
    HOSTILE_EXAMPLES.forEach((_, index) =>
      assert.ok(
        lines.some((line) =>
          new RegExp(
            `^${file}:${index + 2}:\\d+: error SR2065: Codec hostile_${index} spec\\.jaq\\.ingestion: Codec hostile_${index}: the ON INGESTION program cannot be checked: `,
          ).test(line),
        ),
        `hostile_${index} is SR2065:\n${run.stderr}`,
      ),
    );
    assert.ok(
      lines.some((line) => /error SR2009: Codec broken .*frobnicate\/0 is not defined/.test(line)),
      run.stderr,
    );
    assert.equal(
      lines.filter((line) => / error SR/.test(line)).length,
      HOSTILE_EXAMPLES.length + 1,
      run.stderr,
    );
  });
});

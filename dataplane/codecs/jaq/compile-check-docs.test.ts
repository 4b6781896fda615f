import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_JAQ_CHECK_LIMITS, jaqCheckStats, LIMIT_VARIABLES } from './compile-check.js';

// docs/codecs.md lists the compile check's limits, their variables and the counter's reasons.
describe('compile-check: docs/codecs.md', () => {
  const text = readFileSync(join(import.meta.dirname, '..', '..', '..', 'docs', 'codecs.md'), 'utf8');
  const row = (variable: string): string =>
    text.split('\n').find((line) => line.startsWith('| ') && line.includes(`\`${variable}\``)) ?? '';

  it('gives each limit’s default and variable', () => {
    const time = row(LIMIT_VARIABLES.timeLimitMs);
    assert.match(time, new RegExp(`\\| ${DEFAULT_JAQ_CHECK_LIMITS.timeLimitMs.toLocaleString('en-US')} ms `));
    assert.match(time, new RegExp(`time limit of ${DEFAULT_JAQ_CHECK_LIMITS.timeLimitMs} ms`));
    const memory = row(LIMIT_VARIABLES.maxMemoryMiB);
    assert.match(memory, new RegExp(`\\| ${DEFAULT_JAQ_CHECK_LIMITS.maxMemoryMiB} MiB \\|`));
  });

  it('names every reason of streamroute_jaq_compile_check_exhausted_total', () => {
    const line = text
      .split('\n')
      .findIndex((l) => l.includes('streamroute_jaq_compile_check_exhausted_total{reason}'));
    const paragraph = text
      .split('\n')
      .slice(line, line + 3)
      .join(' ');
    const named = [...paragraph.matchAll(/`([a-z_]+)`/g)].map(([, reason]) => reason);
    assert.deepEqual(named.sort(), Object.keys(jaqCheckStats.exhausted).sort());
  });
});

import assert from 'node:assert/strict';
import { logFormatFor } from './log-format.js';
import { processLogger } from './process-logger.js';

/** A logger of `format` whose lines are kept. */
function capture(format: 'json' | 'text') {
  const lines: string[] = [];
  const logger = processLogger('info', format, { write: (line: string) => lines.push(line) });
  return { logger, lines };
}

describe('the log format of a long-running command (process-logger.ts)', () => {
  it('keeps the JSON format as it was: pino fields, epoch-ms time', () => {
    const { logger, lines } = capture('json');
    logger.info({ event: 'x' }, 'hello');
    const record = JSON.parse(lines[0] ?? '') as Record<string, unknown>;
    assert.deepEqual(Object.keys(record), ['level', 'time', 'pid', 'hostname', 'event', 'msg']);
    assert.equal(typeof record['time'], 'number');
  });

  it('is text on a terminal and JSON otherwise, unless one is asked for', () => {
    assert.equal(logFormatFor(undefined, { isTTY: true }), 'text');
    assert.equal(logFormatFor(undefined, { isTTY: false }), 'json');
    assert.equal(logFormatFor(undefined, {}), 'json');
    assert.equal(logFormatFor('json', { isTTY: true }), 'json');
    assert.equal(logFormatFor('text', { isTTY: false }), 'text');
  });
});

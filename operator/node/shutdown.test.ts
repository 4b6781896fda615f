import assert from 'node:assert/strict';
import { memoryLogger } from '../../test/fixtures/graph-from-statements.js';
import { Shutdown } from './shutdown.js';

describe('shutdown', () => {
  it('bug: a second stop() ran the steps in the wrong order — now they run once, last added first', async () => {
    const { logger } = memoryLogger();
    const shutdown = new Shutdown(logger);
    const ran: string[] = [];
    for (const name of ['lock', 'data plane', 'admin']) shutdown.add(name, () => ran.push(name));
    const first = shutdown.run();
    const second = shutdown.run();
    assert.equal(first, second, 'the second call waits for the first');
    await Promise.all([first, second]);
    await shutdown.run();
    assert.deepEqual(ran, ['admin', 'data plane', 'lock']);
  });

  it('bug: a throwing step skipped the rest, the lock release too — now every step runs, and the first failure is reported', async () => {
    const { logger, logs } = memoryLogger();
    const shutdown = new Shutdown(logger);
    const ran: string[] = [];
    shutdown.add('delete the temporary data dir', () => ran.push('temp'));
    shutdown.add('release the lock', () => ran.push('lock'));
    shutdown.add('stop the data plane', () => Promise.reject(new RangeError('secret detail')));
    shutdown.add('stop the admin server', () => {
      throw new TypeError('another');
    });
    await assert.rejects(shutdown.run(), TypeError);
    assert.deepEqual(ran, ['lock', 'temp']);
    const failed = logs.filter((line) => line.level === 50).map((line) => [line.step, line.error]);
    assert.deepEqual(failed, [
      ['stop the admin server', 'TypeError'],
      ['stop the data plane', 'RangeError'],
    ]);
    assert.doesNotMatch(JSON.stringify(logs), /secret/);
  });
});

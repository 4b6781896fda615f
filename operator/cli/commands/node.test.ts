import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pino } from 'pino';
import { removeDir, tempDir } from '../../../test/fixtures/embedded-node.js';
import { EXIT, type Output } from '../../client/report.js';
import { runCli } from '../program.js';
import { runNode, type NodeOptions } from './node.js';

const LOOPBACK = {
  httpListenAddr: '127.0.0.1:0',
  httpsListenAddr: '127.0.0.1:0',
  adminListenAddr: '127.0.0.1:0',
  logLevel: 'info',
} as const satisfies Partial<NodeOptions>;

function capture(): Output & { outs: string[]; errs: string[] } {
  const outs: string[] = [];
  const errs: string[] = [];
  return { outs, errs, out: (text) => void outs.push(text), err: (text) => void errs.push(text) };
}

describe('streamroute node', () => {
  let root: string;
  beforeEach(() => {
    root = tempDir('streamroute-node-command-');
  });
  afterEach(() => removeDir(root));

  it('runs until interrupted, then stops (exit 0)', async () => {
    const controller = new AbortController();
    const output = capture();
    const logger = pino({ level: 'info' }, { write: () => undefined });
    const running = runNode({ ...LOOPBACK, dataDir: join(root, 'data') }, output, {
      signal: controller.signal,
      logger,
    });
    while (output.outs.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    assert.match(
      output.outs[0] ?? '',
      /^streamroute node: HTTP 127\.0\.0\.1:\d+ · admin http:\/\/127\.0\.0\.1:\d+ · /,
    );
    controller.abort();
    assert.equal(await running, EXIT.ok);
    assert.equal(existsSync(join(root, 'data', 'node.lock')), false);
  });

  for (const [flag, bad, choices] of [
    ['--on-bind-error', 'sometimes', 'exit, retry'],
    ['--http-error-body', 'verbose', 'explain, empty'],
  ] as const) {
    it(`refuses ${flag} ${bad} before starting anything, naming the flag and the choices (exit 2)`, async () => {
      const output = capture();
      const code = await runCli(['node', flag, bad, '--data-dir', join(root, 'data')], output, {});
      assert.equal(code, EXIT.usage);
      assert.deepEqual(output.outs, []);
      assert.match(output.errs.join(''), new RegExp(`${flag}.*'${bad}' is invalid.*${choices}`));
      assert.equal(existsSync(join(root, 'data')), false, 'no data dir was made');
    });
  }

  it('bug: a temporary data dir that cannot be made crashed with a stack trace — now one line and exit 3', async () => {
    const saved = process.env.TMPDIR;
    const missing = join(root, 'no-such-dir');
    process.env.TMPDIR = missing;
    try {
      const output = capture();
      const logger = pino({ level: 'info' }, { write: () => undefined });
      const code = await runNode({ ...LOOPBACK }, output, { signal: new AbortController().signal, logger });
      assert.equal(code, EXIT.io);
      assert.deepEqual(output.errs, [
        `streamroute node: cannot create a temporary data dir in ${missing}: no such file or directory`,
      ]);
    } finally {
      if (saved === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = saved;
    }
  });

  it('bug: a SIGINT while the node started skipped its cleanup — now it is caught from the start, and the node stops cleanly', async () => {
    const before = process.listeners('SIGINT').length;
    let caughtWhileStarting = false;
    const logger = pino(
      { level: 'info' },
      {
        write: () => {
          if (caughtWhileStarting) return;
          // Ctrl-C while the node starts: only the listeners the command added are called.
          const added = process.listeners('SIGINT').slice(before);
          caughtWhileStarting = added.length === 1;
          for (const listener of added) (listener as () => void)();
        },
      },
    );
    const output = capture();
    const code = await runNode({ ...LOOPBACK, dataDir: join(root, 'data') }, output, { logger });
    assert.equal(caughtWhileStarting, true, 'the handler was installed before the node started');
    assert.equal(code, EXIT.ok);
    assert.deepEqual(output.outs, [], 'stopped before it said it listens');
    assert.equal(existsSync(join(root, 'data', 'node.lock')), false, 'the lock is released');
    assert.equal(process.listeners('SIGINT').length, before, 'the handler is removed');
  });
});

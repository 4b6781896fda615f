import assert from 'node:assert/strict';
import { runCli as runLean } from './dataplane-cli.js';
import { runCli as runWhole } from './program.js';
import type { Output } from '../client/report.js';

async function capture(
  run: typeof runWhole,
  argv: string[],
): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const output: Output = { out: (text) => (out += text), err: (text) => (err += text) };
  const code = await run(argv, output, { env: {} });
  return { code, out, err };
}

describe('the lean command line of the data plane answers as the whole one', () => {
  for (const argv of [
    ['--version'],
    ['-V'],
    ['dataplane', '--help'],
    ['dataplane', '--no-such-flag'],
    ['dataplane', '--qps', '0', '--node-name', 'n'],
    ['dataplane'],
  ]) {
    it(`streamroute ${argv.join(' ')}`, async () => {
      assert.deepEqual(await capture(runLean, argv), await capture(runWhole, argv));
    });
  }
});

// Real peers a test needs (the jq binary, protoc, syslog daemons): found, or the test skips with a visible
// line — except in CI (CI set), where a missing peer fails the test instead of hiding it.
import { spawnSync } from 'node:child_process';

export function inCI(): boolean {
  const ci = process.env['CI'];
  return ci !== undefined && ci !== '' && ci !== '0' && ci.toLowerCase() !== 'false';
}

/** Whether `command args…` runs and exits 0. */
export function runs(command: string, args: readonly string[] = ['--version']): boolean {
  const result = spawnSync(command, args, { stdio: 'ignore', timeout: 10_000 });
  return result.error === undefined && result.status === 0;
}

/** For a before() hook: skips the suite (or fails it in CI) when `available` is false. */
export function requirePeer(ctx: Pick<Mocha.Context, 'skip'>, available: boolean, missing: string): void {
  if (available) return;
  if (inCI()) throw new Error(`${missing} (CI is set, so this fails instead of skipping)`);
  console.warn(`\n  [peer] SKIPPING: ${missing}\n`);
  ctx.skip();
}

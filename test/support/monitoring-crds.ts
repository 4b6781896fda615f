// The Prometheus Operator's ServiceMonitor and PodMonitor CRDs, generated from its own API types by
// test/monitoring-crds/build.sh (cached per version), for tests that create the chart's monitors on the
// real test kube-apiserver. Missing: skipped with a visible message, or a failure when CI is set.
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { parse } from 'yaml';

const run = promisify(execFile);
const BUILD_SCRIPT = fileURLToPath(new URL('../monitoring-crds/build.sh', import.meta.url));
const FILES = ['monitoring.coreos.com_servicemonitors.yaml', 'monitoring.coreos.com_podmonitors.yaml'];

export interface MonitoringCrd {
  metadata: { name: string };
  [field: string]: unknown;
}

function inCI(): boolean {
  const ci = process.env['CI'];
  return ci !== undefined && ci !== '' && ci !== '0' && ci.toLowerCase() !== 'false';
}

/** The two CRDs as objects, or undefined when `bash test/monitoring-crds/build.sh` has not run. */
async function readCrds(): Promise<{ dir: string; crds: MonitoringCrd[] | undefined }> {
  const dir = (await run('bash', [BUILD_SCRIPT, '--print-dir'])).stdout.trim();
  try {
    const texts = await Promise.all(FILES.map((file) => readFile(join(dir, file), 'utf8')));
    return { dir, crds: texts.map((text) => parse(text) as MonitoringCrd) };
  } catch {
    return { dir, crds: undefined };
  }
}

/** For a before() hook: the CRDs, or a skip with a warning (a failure in CI). */
export async function requireMonitoringCrdsOrSkip(
  ctx: Pick<Mocha.Context, 'skip'>,
): Promise<MonitoringCrd[]> {
  const { dir, crds } = await readCrds();
  if (crds !== undefined) return crds;
  const msg = `monitoring.coreos.com CRDs not generated (expected in ${dir}); run: bash test/monitoring-crds/build.sh`;
  if (inCI()) throw new Error(`${msg} (CI is set, so this fails instead of skipping)`);
  console.warn(`\n  [monitoring] SKIPPING: ${msg}\n`);
  ctx.skip();
}

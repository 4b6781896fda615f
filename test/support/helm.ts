// A real helm (built from Go modules by test/helm/build.sh, cached per version) for the chart tests,
// and renderChart(): the chart's objects as `helm template` renders them, for tests that install the
// chart's ServiceAccounts and RBAC into the real test API server.
import { execFile } from 'node:child_process';
import { access, constants, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { parseAllDocuments } from 'yaml';

const run = promisify(execFile);
const BUILD_SCRIPT = fileURLToPath(new URL('../helm/build.sh', import.meta.url));
/** charts/streamroute, the chart under test. */
export const CHART_DIR = fileURLToPath(new URL('../../charts/streamroute', import.meta.url));
export const DEFAULT_RELEASE = 'streamroute';
export const DEFAULT_NAMESPACE = 'streamroute-system';

/** One object of a rendered chart; the rest of its fields as helm printed them. */
export interface RenderedObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string> };
  [field: string]: unknown;
}

export interface RenderOptions {
  /** Release name (default `streamroute`, which names the objects `streamroute-…`). */
  release?: string;
  /** Release namespace (default `streamroute-system`). */
  namespace?: string;
}

let binaryDir: Promise<string> | undefined;

/** Cache directory build.sh uses for the pinned helm version (it owns the version key). */
export function helmBinaryDir(): Promise<string> {
  binaryDir ??= run('bash', [BUILD_SCRIPT, '--print-dir']).then((r) => r.stdout.trim());
  return binaryDir;
}

/** Path of the cached helm binary; undefined when `bash test/helm/build.sh` has not run. */
export async function helmBinary(): Promise<string | undefined> {
  const helm = join(await helmBinaryDir(), 'helm');
  try {
    await access(helm, constants.X_OK);
    return helm;
  } catch {
    return undefined;
  }
}

function inCI(): boolean {
  const ci = process.env['CI'];
  return ci !== undefined && ci !== '' && ci !== '0' && ci.toLowerCase() !== 'false';
}

async function missingMessage(): Promise<string> {
  return `helm not built (expected in ${await helmBinaryDir()}); run: bash test/helm/build.sh`;
}

/**
 * For a before() hook or test: returns the helm binary, or skips with a visible warning.
 * In CI (CI env var set) a missing build is a failure, so the chart tests cannot silently stop running.
 */
export async function requireHelmOrSkip(ctx: Pick<Mocha.Context, 'skip'>): Promise<string> {
  const helm = await helmBinary();
  if (helm !== undefined) return helm;
  const msg = await missingMessage();
  if (inCI()) throw new Error(`${msg} (CI is set, so this fails instead of skipping)`);
  console.warn(`\n  [helm] SKIPPING Helm chart tests: ${msg}\n`);
  ctx.skip();
}

/**
 * Runs helm with a values file written from `values` (JSON is YAML) appended to `args`.
 * HELM_* directories point into a temp dir, so no user configuration or cache is read or written.
 */
export async function runHelm(
  args: readonly string[],
  values: Record<string, unknown> = {},
): Promise<{ stdout: string; stderr: string }> {
  const helm = await helmBinary();
  if (helm === undefined) throw new Error(await missingMessage());
  const dir = await mkdtemp(join(tmpdir(), 'streamroute-helm-'));
  try {
    const valuesFile = join(dir, 'values.json');
    await writeFile(valuesFile, JSON.stringify(values));
    const env = {
      ...process.env,
      HELM_CONFIG_HOME: join(dir, 'config'),
      HELM_CACHE_HOME: join(dir, 'cache'),
      HELM_DATA_HOME: join(dir, 'data'),
    };
    return await run(helm, [...args, '--values', valuesFile], { env, maxBuffer: 32 * 1024 * 1024 });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** `helm template` of charts/streamroute with `values`, parsed: one object per YAML document. */
export async function renderChart(
  values: Record<string, unknown> = {},
  options: RenderOptions = {},
): Promise<RenderedObject[]> {
  const release = options.release ?? DEFAULT_RELEASE;
  const namespace = options.namespace ?? DEFAULT_NAMESPACE;
  const { stdout } = await runHelm(['template', release, CHART_DIR, '--namespace', namespace], values);
  return parseRendered(stdout);
}

/** The objects of a multi-document YAML stream, skipping empty documents; throws on a YAML error. */
export function parseRendered(text: string): RenderedObject[] {
  const objects: RenderedObject[] = [];
  for (const document of parseAllDocuments(text)) {
    const [error] = document.errors;
    if (error !== undefined) throw error;
    const object: unknown = document.toJS();
    if (object !== null && typeof object === 'object') objects.push(object as RenderedObject);
  }
  return objects;
}

const ACCESS_KINDS = new Set(['ServiceAccount', 'ClusterRole', 'ClusterRoleBinding', 'Role', 'RoleBinding']);

/** The ServiceAccounts and RBAC objects of a render, in an order the API server accepts them. */
export function accessObjects(objects: readonly RenderedObject[]): RenderedObject[] {
  return objects.filter((object) => ACCESS_KINDS.has(object.kind));
}

/** Runs helm expecting it to fail; resolves with what it printed (stderr, then stdout). */
export async function helmFailure(
  args: readonly string[],
  values: Record<string, unknown> = {},
): Promise<string> {
  try {
    const { stdout } = await runHelm(args, values);
    throw new Error(
      `helm ${args.join(' ')} succeeded; expected a failure. It printed:\n${stdout.slice(0, 2000)}`,
    );
  } catch (error: unknown) {
    const failed = error as { stderr?: string; stdout?: string };
    if (failed.stderr === undefined && failed.stdout === undefined) throw error;
    return `${failed.stderr ?? ''}${failed.stdout ?? ''}`;
  }
}

/** `helm template` of charts/streamroute expecting a failure; resolves with its error text. */
export function templateFailure(values: Record<string, unknown>): Promise<string> {
  return helmFailure(['template', DEFAULT_RELEASE, CHART_DIR, '--namespace', DEFAULT_NAMESPACE], values);
}

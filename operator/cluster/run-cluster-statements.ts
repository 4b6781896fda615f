// `streamroute --kubeconfig FILE [-d DOMAIN] -c … | -f … | < stdin` on a cluster. Each script is read,
// parsed and planned against the namespace as listed now (plan-script.ts); the whole plan is validated
// (validate-plan.ts); only then are its steps run in order: server-side apply, DELETE for drops (after
// the applies of a transaction), uploads, and the output of SHOW, SHOW CREATE and DESCRIBE. A script that
// fails stops the ones after it, as on the node.
import { formatDiagnostic, type SourceLocation } from '../diagnostics/diagnostic.js';
import type { GraphObject } from '../api/index.js';
import { prepareCompile } from '../compiler/index.js';
import { parseScript } from '../language/parse.js';
import { bindLatest } from '../compiler/bind-latest.js';
import { checkTransactions } from '../node/check-transactions.js';
import { sortByPlace } from '../node/domain-commit.js';
import { collectUploads } from '../client/uploads.js';
import { readScripts, type Script, type ScriptInput, type Stdin } from '../client/scripts.js';
import { EXIT, type Output } from '../client/report.js';
import {
  besideDocument,
  isDocumentFormat,
  printDocument,
  type OutputFormat,
} from '../client/output-format.js';
import { resultEntry, statementDocument, wideText } from '../client/statement-document.js';
import { applyObject, applyResult, createVersion, deleteObject, objectWords } from './apply-objects.js';
import { idOf, listDomain, type DomainObjects } from './cluster-objects.js';
import { apiFailureText, clusterCall, readCluster, type Cluster } from './cluster-target.js';
import { planScript, type ScriptPlan, type ScriptUpload, type Step } from './plan-script.js';
import { latestVersions, resourceFilesOf } from './resource-versions.js';
import { withTransaction } from './transaction.js';
import { validatePlan } from './validate-plan.js';
import { toGraphObject } from './cluster-objects.js';

export interface ClusterStatementsOptions {
  cluster: Cluster;
  inputs: readonly ScriptInput[];
  stdin: Stdin;
  cwd: string;
  /** -o: table (default), wide, json or yaml. */
  format?: OutputFormat;
}

/** Where a script's steps print: lines (stderr under -o json|yaml) and the document's entries. */
interface Printer {
  lines: Output;
  format: OutputFormat;
  results: unknown[];
  source: string;
}

export async function runClusterStatements(
  options: ClusterStatementsOptions,
  output: Output,
): Promise<number> {
  const scripts = await readScripts(options.inputs, options.stdin);
  const prepared = scripts.map((script) => prepare(script, options.cwd));
  const format = options.format ?? 'table';
  const results: unknown[] = [];
  let code: number = EXIT.ok;
  for (const [index, script] of prepared.entries()) {
    if (script === undefined) continue;
    const printer = { lines: besideDocument(output, format), format, results, source: script.script.source };
    const ok = await runScript(options.cluster, script, printer);
    if (!ok) {
      const rest = scripts.slice(index + 1).map((skipped) => skipped.source);
      if (rest.length > 0) output.err(`streamroute: not run after the error: ${rest.join(', ')}`);
      code = EXIT.invalid;
      break;
    }
  }
  if (isDocumentFormat(format)) {
    await printDocument(statementDocument(options.cluster.namespace, results), format, output);
  }
  return code;
}

interface PreparedScript {
  script: Script;
  parsed: ReturnType<typeof parseScript>;
  uploads: ScriptUpload[];
}

/** Parses a script and reads its upload directories (an unreadable one is an InputError: exit 3). */
function prepare(script: Script, cwd: string): PreparedScript | undefined {
  const parsed = parseScript(script.text, script.source);
  if (parsed.statements.length === 0 && parsed.diagnostics.length === 0) return undefined;
  const uploads = collectUploads(parsed, script.source, cwd).map((upload) => ({
    resource: upload.resource,
    directory: upload.directory,
    files: upload.files.map((file) => ({ path: file.path, content: Buffer.from(file.base64, 'base64') })),
  }));
  return { script, parsed, uploads };
}

async function runScript(cluster: Cluster, prepared: PreparedScript, printer: Printer): Promise<boolean> {
  const { parsed, script } = prepared;
  const output = printer.lines;
  const early = sortByPlace([...parsed.diagnostics, ...checkTransactions(parsed.statements)]);
  for (const diagnostic of early) output.err(formatDiagnostic(diagnostic));
  if (early.some((diagnostic) => diagnostic.severity === 'error')) return false;
  const domain = await readCluster(`list namespace ${cluster.namespace}`, () =>
    listDomain(cluster.api, cluster.namespace),
  );
  const planned = planScript(domain, parsed.statements, { uploads: prepared.uploads, reported: early });
  if (!planned.ok) {
    for (const line of planned.diagnostics) output.err(line);
    output.err(`streamroute: ${script.source}: nothing was applied`);
    return false;
  }
  await prepareCompile([...domain.listed.values(), ...planned.plan.after]);
  const validation = validate(domain, planned.plan, script.source);
  for (const line of validation.diagnostics) output.err(line);
  if (!validation.ok) {
    output.err(`streamroute: ${script.source}: nothing was applied`);
    return false;
  }
  return runSteps(cluster, domain, planned.plan.steps, printer);
}

function validate(domain: DomainObjects, plan: ScriptPlan, source: string) {
  const changed = new Set(
    plan.steps.flatMap((step) => (step.type === 'apply' ? step.objects.map(idOf) : [])),
  );
  if (changed.size === 0 && !plan.steps.some((step) => step.type === 'apply'))
    return { ok: true, diagnostics: [] };
  return validatePlan({
    namespace: domain.namespace,
    before: [...domain.listed.values()].map(toGraphObject),
    after: plan.after,
    changed,
    resourcesBefore: resourceFilesOf(domain.versions),
    resourcesAfter: resourceFilesOf(domain.versions, plan.pending),
    sourceMap: plan.sourceMap,
    reported: plan.reported,
    inText: (location: SourceLocation) => location.file === source,
  });
}

/** Runs the steps in order; an API failure stops the rest (what was applied before it stays). */
async function runSteps(cluster: Cluster, domain: DomainObjects, steps: readonly Step[], printer: Printer) {
  const run: StepContext = { cluster, domain, latest: latestVersions(domain.versions) };
  for (const step of steps) {
    try {
      if (step.type === 'output') printOutput(step, printer);
      else await clusterCall(() => runStep(run, step, printer.lines));
    } catch (error: unknown) {
      if (!(error instanceof Error) || error.name !== 'KubeApiError') throw error;
      printer.lines.err(`streamroute: the API server refused: ${apiFailureText(error)}`);
      return false;
    }
  }
  return true;
}

interface StepContext {
  cluster: Cluster;
  /** The namespace as listed, updated as the steps apply and delete. */
  domain: DomainObjects;
  /** The highest version of each resource, updated by uploads. */
  latest: Map<string, number>;
}

/** A SHOW, SHOW CREATE or DESCRIBE (or a notice): its text, its wide table, or its document entry. */
function printOutput(step: Extract<Step, { type: 'output' }>, printer: Printer): void {
  const { inspected } = step;
  if (isDocumentFormat(printer.format) && inspected !== undefined) {
    printer.results.push(resultEntry({ ...inspected, source: printer.source }, inspected.data));
    return;
  }
  const wide = printer.format === 'wide' ? wideText(inspected?.data) : undefined;
  printer.lines.out(wide ?? step.text);
}

async function runStep(
  run: StepContext,
  step: Exclude<Step, { type: 'output' }>,
  output: Output,
): Promise<void> {
  const { cluster, domain, latest } = run;
  const { api, namespace } = cluster;
  if (step.type === 'upload') {
    const version = await createVersion(api, namespace, {
      resource: step.resource,
      files: step.files,
      first: step.predicted,
    });
    latest.set(step.resource, version);
    output.out(`uploaded resource ${step.written} version ${version}`);
    return;
  }
  const bound: GraphObject[] = step.objects.map((object) =>
    bindLatest(object, (resource) => latest.get(resource)),
  );
  const objects = step.transaction ? withTransaction(bound) : bound;
  for (const object of objects) {
    await applyObject(api, namespace, object);
    const result = applyResult(object, domain.listed.get(idOf(object)));
    // A later statement of the script that changes it again configures what this one applied.
    domain.listed.set(idOf(object), {
      kind: object.kind,
      metadata: { ...object.metadata },
      spec: object.spec,
    });
    output.out(`${result} ${objectWords(object)}`);
  }
  for (const key of step.drops) {
    const deleted = await deleteObject(api, namespace, key);
    domain.listed.delete(idOf({ kind: key.kind, metadata: { name: key.name } }));
    output.out(`${deleted ? 'deleted' : 'already gone:'} ${objectWords(key)}`);
  }
}

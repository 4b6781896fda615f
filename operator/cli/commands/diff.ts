// `streamroute diff -f DIR|FILE` on a cluster, as `kubectl diff`: per object whether applying the files
// would create it, change it (with a unified diff of its spec as YAML) or leave it unchanged, and the
// objects of the namespace the files do not declare (candidates for pruning; apply never deletes them).
// Exit 0 when applying would change nothing, 1 when it would. `-o json|yaml` prints the `Diff` document
// (docs/cli.md#output-formats); `wide` is the table.
import { stringify } from 'yaml';
import { canonicalJson } from '../../api/canonical-json.js';
import { identifier } from '../../language/print-literals.js';
import {
  isDocumentFormat,
  outputDocument,
  printDocument,
  sortedKeys,
  type OutputFormat,
} from '../../client/output-format.js';
import { EXIT, reportDiagnostics, type Output } from '../../client/report.js';
import { objectWords } from '../../cluster/apply-objects.js';
import { listDomain } from '../../cluster/cluster-objects.js';
import { readCluster, type Cluster } from '../../cluster/cluster-target.js';
import {
  bindToDomain,
  compareWithDomain,
  loadManifests,
  type Comparison,
} from '../../cluster/load-manifests.js';
import { unifiedDiff } from '../../cluster/unified-diff.js';
import { isStatementText } from './apply.js';

export interface DiffOptions {
  cluster: Cluster;
  files: readonly string[];
  format?: OutputFormat;
}

export async function runDiff(options: DiffOptions, output: Output): Promise<number> {
  const { api, namespace } = options.cluster;
  const manifests = loadManifests(options.files, namespace);
  const located = manifests.loaded.sourceMap.attach(manifests.diagnostics, isStatementText);
  if (reportDiagnostics(located, output)) return EXIT.invalid;
  const domain = await readCluster(`list namespace ${namespace}`, () => listDomain(api, namespace));
  const compared = compareWithDomain(bindToDomain(manifests.objects, domain), domain);
  const differences = compared.filter((c) => c.change === 'created' || c.change === 'changed').length;
  const format = options.format ?? 'table';
  if (isDocumentFormat(format)) {
    const changes = compared.map((comparison) => changeEntry(comparison, namespace));
    await printDocument(outputDocument('Diff', { domain: namespace, differences, changes }), format, output);
  } else {
    for (const comparison of compared) printComparison(comparison, namespace, output);
    output.out(
      differences === 0
        ? `no differences in namespace ${namespace}`
        : `${differences} object${differences === 1 ? '' : 's'} would change in namespace ${namespace}`,
    );
  }
  return differences === 0 ? EXIT.ok : EXIT.invalid;
}

/** `{"change", "kind", "name", "before"?, "after"?, "diff"?}`: specs with sorted keys, the diff as text. */
function changeEntry(comparison: Comparison, namespace: string): Record<string, unknown> {
  const { kind, metadata } = comparison.change === 'prune-candidate' ? comparison.before : comparison.object;
  const head = { change: comparison.change, kind, name: identifier(metadata.name) };
  if (comparison.change === 'prune-candidate') return { ...head, before: sortedKeys(comparison.before.spec) };
  const after = sortedKeys(comparison.object.spec);
  if (comparison.change === 'created') return { ...head, after, diff: specDiff(comparison, namespace) };
  const before = sortedKeys(comparison.before.spec);
  if (comparison.change === 'unchanged') return { ...head, before, after };
  return { ...head, before, after, diff: specDiff(comparison, namespace) };
}

function printComparison(comparison: Comparison, namespace: string, output: Output): void {
  if (comparison.change === 'prune-candidate') {
    const { kind, metadata } = comparison.before;
    output.out(`prune candidate ${objectWords({ kind, metadata })} (in the namespace, not in the files)`);
    return;
  }
  const { object } = comparison;
  const words = objectWords(object);
  output.out(`${comparison.change} ${words}`);
  if (comparison.change === 'unchanged') return;
  output.out(specDiff(comparison, namespace));
}

function specDiff(comparison: Exclude<Comparison, { change: 'prune-candidate' }>, namespace: string) {
  const { object } = comparison;
  const label = `${object.kind}/${object.metadata.name}`;
  const before = 'before' in comparison ? specYaml(comparison.before.spec) : '';
  return unifiedDiff(before, specYaml(object.spec), {
    from: `${namespace}/${label} (cluster)`,
    to: `${label} (files)`,
  });
}

/** The spec as YAML with keys sorted, so the diff shows values, not key order. */
function specYaml(spec: unknown): string {
  return stringify({ spec: JSON.parse(canonicalJson(spec)) as unknown });
}

// `streamroute diff -f DIR|FILE` on a cluster, as `kubectl diff`: per object whether applying the files
// would create it, change it (with a unified diff of its spec as YAML) or leave it unchanged, and the
// objects of the namespace the files do not declare (candidates for pruning; apply never deletes them).
// Exit 0 when applying would change nothing, 1 when it would.
import { stringify } from 'yaml';
import { canonicalJson } from '../../api/canonical-json.js';
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
}

export async function runDiff(options: DiffOptions, output: Output): Promise<number> {
  const { api, namespace } = options.cluster;
  const manifests = loadManifests(options.files, namespace);
  const located = manifests.loaded.sourceMap.attach(manifests.diagnostics, isStatementText);
  if (reportDiagnostics(located, output)) return EXIT.invalid;
  const domain = await readCluster(`list namespace ${namespace}`, () => listDomain(api, namespace));
  const compared = compareWithDomain(bindToDomain(manifests.objects, domain), domain);
  for (const comparison of compared) printComparison(comparison, namespace, output);
  const differences = compared.filter((c) => c.change === 'created' || c.change === 'changed').length;
  output.out(
    differences === 0
      ? `no differences in namespace ${namespace}`
      : `${differences} object${differences === 1 ? '' : 's'} would change in namespace ${namespace}`,
  );
  return differences === 0 ? EXIT.ok : EXIT.invalid;
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
  const label = `${object.kind}/${object.metadata.name}`;
  const before = comparison.change === 'created' ? '' : specYaml(comparison.before.spec);
  output.out(
    unifiedDiff(before, specYaml(object.spec), {
      from: `${namespace}/${label} (cluster)`,
      to: `${label} (files)`,
    }),
  );
}

/** The spec as YAML with keys sorted, so the diff shows values, not key order. */
function specYaml(spec: unknown): string {
  return stringify({ spec: JSON.parse(canonicalJson(spec)) as unknown });
}

// `streamroute apply -f DIR|FILE` on a cluster: statement files and resource YAML, validated whole
// against the namespace (every object applied must be accepted; no object left as it was may break),
// then server-side applied as one transaction (decision 0015), one line per object.
import type { SourceLocation } from '../../diagnostics/diagnostic.js';
import { prepareCompile } from '../../compiler/index.js';
import { EXIT, reportDiagnostics, type Output } from '../../client/report.js';
import { applyObject, applyResult, objectWords } from '../../cluster/apply-objects.js';
import { idOf, listDomain, toGraphObject } from '../../cluster/cluster-objects.js';
import { apiFailureText, clusterCall, readCluster, type Cluster } from '../../cluster/cluster-target.js';
import { bindToDomain, loadManifests, overlay } from '../../cluster/load-manifests.js';
import { resourceFilesOf } from '../../cluster/resource-versions.js';
import { withTransaction } from '../../cluster/transaction.js';
import { validatePlan } from '../../cluster/validate-plan.js';

export interface ApplyOptions {
  cluster: Cluster;
  files: readonly string[];
}

export async function runApply(options: ApplyOptions, output: Output): Promise<number> {
  const { api, namespace } = options.cluster;
  const manifests = loadManifests(options.files, namespace);
  const located = manifests.loaded.sourceMap.attach(manifests.diagnostics, isStatementText);
  if (reportDiagnostics(located, output)) return EXIT.invalid;
  const domain = await readCluster(`list namespace ${namespace}`, () => listDomain(api, namespace));
  const objects = bindToDomain(manifests.objects, domain);
  const resources = resourceFilesOf(domain.versions);
  const after = overlay(domain, objects);
  await prepareCompile([...domain.listed.values(), ...after]);
  const validation = validatePlan({
    namespace,
    before: [...domain.listed.values()].map(toGraphObject),
    after,
    changed: new Set(objects.map(idOf)),
    resourcesBefore: resources,
    resourcesAfter: resources,
    sourceMap: manifests.loaded.sourceMap,
    reported: manifests.diagnostics,
    inText: isStatementText,
  });
  for (const line of validation.diagnostics) output.err(line);
  if (!validation.ok) {
    output.err(`streamroute: nothing was applied to namespace ${namespace}`);
    return EXIT.invalid;
  }
  for (const object of withTransaction(objects)) {
    try {
      await clusterCall(() => applyObject(api, namespace, object));
    } catch (error: unknown) {
      if (!(error instanceof Error) || error.name !== 'KubeApiError') throw error;
      output.err(`streamroute: the API server refused ${idOf(object)}: ${apiFailureText(error)}`);
      return EXIT.invalid;
    }
    output.out(`${applyResult(object, domain.listed.get(idOf(object)))} ${objectWords(object)}`);
  }
  return EXIT.ok;
}

/** Statement files locate expressions exactly; YAML locates a field at its key. */
export function isStatementText(location: SourceLocation): boolean {
  return (location.file ?? '').endsWith('.sql');
}

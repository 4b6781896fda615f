// A planned change is applied only if the namespace it leaves behind compiles well for it: every object
// the change applies must be accepted (not rejected, not waiting on another), and no object the change
// does not touch may stop being accepted (a DROP of something others use). Objects already broken in the
// namespace do not block a change that leaves them as they were. The same compiler runs as on the node
// and in the operator, with the namespace's resource versions and the uploads about to be made.
import type { GraphObject } from '../api/index.js';
import {
  formatDiagnostic,
  type Diagnostic,
  type SourceLocation,
  type SourceMap,
} from '../diagnostics/diagnostic.js';
import { compileDomain, type ResourceFiles, type Verdict } from '../compiler/index.js';
import { sortByPlace } from '../node/domain-commit.js';
import { idOf } from './cluster-objects.js';

export interface ValidationInput {
  namespace: string;
  before: readonly GraphObject[];
  after: readonly GraphObject[];
  /** `Kind/name` of the objects the change applies. */
  changed: ReadonlySet<string>;
  resourcesBefore: ResourceFiles;
  resourcesAfter: ResourceFiles;
  sourceMap: SourceMap;
  reported: readonly Diagnostic[];
  /** Whether a location is in the statement text (expression positions are then exact). */
  inText: (location: SourceLocation) => boolean;
}

export interface Validation {
  ok: boolean;
  /** Formatted, in the order of the text: errors that refuse the change, and warnings. */
  diagnostics: string[];
}

export function validatePlan(input: ValidationInput): Validation {
  const { namespace } = input;
  const before = compileDomain(input.before, { domain: namespace, resources: input.resourcesBefore });
  const after = compileDomain(input.after, {
    domain: namespace,
    resources: input.resourcesAfter,
    reported: input.reported,
  });
  const broken = brokenObjects(input, before.verdicts, after.verdicts);
  const concerned = (diagnostic: Diagnostic): boolean =>
    diagnostic.object === undefined
      ? diagnostic.location !== undefined
      : input.changed.has(
          idOf({ kind: diagnostic.object.kind, metadata: { name: diagnostic.object.name } }),
        ) || broken.has(idOf({ kind: diagnostic.object.kind, metadata: { name: diagnostic.object.name } }));
  const attached = input.sourceMap.attach([...input.reported, ...after.diagnostics], input.inText);
  const shown = sortByPlace(dedupe(attached.filter(concerned)));
  const lines = shown.map(formatDiagnostic);
  for (const id of broken) {
    if (
      shown.some(
        (d) => d.severity === 'error' && d.object !== undefined && `${d.object.kind}/${d.object.name}` === id,
      )
    )
      continue;
    lines.push(`error: ${id} ${verdictText(after.verdicts.get(id))}`);
  }
  return { ok: broken.size === 0 && !shown.some((d) => d.severity === 'error'), diagnostics: lines };
}

/** The objects the change applies that are not accepted, and the accepted ones it would break. */
function brokenObjects(
  input: ValidationInput,
  before: ReadonlyMap<string, Verdict>,
  after: ReadonlyMap<string, Verdict>,
): Set<string> {
  const present = new Set(input.after.map(idOf));
  const broken = new Set<string>();
  for (const [id, verdict] of after) {
    if (verdict.status === 'accepted') continue;
    const wasAccepted = before.get(id)?.status === 'accepted';
    if (input.changed.has(id) || (present.has(id) && wasAccepted)) broken.add(id);
  }
  return broken;
}

function verdictText(verdict: Verdict | undefined): string {
  if (verdict === undefined) return 'was not compiled';
  if (verdict.status === 'waiting')
    return `would wait on ${verdict.on.map((key) => `${key.kind}/${key.name}`).join(', ')}`;
  return verdict.status === 'rejected' ? 'would be rejected' : 'is accepted';
}

function dedupe(diagnostics: readonly Diagnostic[]): Diagnostic[] {
  const seen = new Set<string>();
  return diagnostics.filter((diagnostic) => {
    const key = formatDiagnostic(diagnostic);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

// DESCRIBE INGESTOR|EMITTER on a cluster: what the operator wrote into the object's status — its
// Accepted and Ready conditions and the roll-up of the data-plane nodes' reports (how many run it, how
// many report a transient error with a few samples, and the graph versions the nodes run). The same
// `key: value` layout as the embedded node's DESCRIBE (describe-text.ts).
import { displayName } from '../api/display-names.js';
import type { ListedObject } from './cluster-objects.js';

interface Condition {
  type?: string;
  status?: string;
  reason?: string;
  message?: string;
  lastTransitionTime?: string;
}

interface NodeRollup {
  running?: number;
  withError?: number;
  total?: number;
  errorSamples?: { node?: string; error?: string }[];
  versions?: { version?: number; nodes?: number }[];
}

export function describeStatus(object: ListedObject): string {
  const status = object.status ?? {};
  const { namespace = '', generation } = object.metadata;
  const lines = [`${object.kind} ${displayName(object)} (domain ${namespace})`];
  const observed = status['observedGeneration'];
  if (generation !== undefined) {
    lines.push(
      `generation: ${generation}${typeof observed === 'number' ? ` (status observed ${observed})` : ''}`,
    );
  }
  const conditions = Array.isArray(status['conditions']) ? (status['conditions'] as Condition[]) : [];
  for (const type of ['Accepted', 'Ready']) lines.push(conditionLine(type, conditions));
  lines.push(...rollupLines(status['nodes'] as NodeRollup | undefined));
  return lines.join('\n');
}

function conditionLine(type: string, conditions: readonly Condition[]): string {
  const condition = conditions.find((each) => each.type === type);
  if (condition === undefined) return `${type.toLowerCase()}: unknown (no condition yet)`;
  const reason = condition.reason === undefined || condition.reason === '' ? '' : ` ${condition.reason}`;
  const message = condition.message === undefined || condition.message === '' ? '' : `: ${condition.message}`;
  const since = condition.lastTransitionTime === undefined ? '' : ` (since ${condition.lastTransitionTime})`;
  return `${type.toLowerCase()}: ${condition.status ?? 'Unknown'}${reason}${message}${since}`;
}

function rollupLines(nodes: NodeRollup | undefined): string[] {
  if (nodes === undefined) return ['nodes: no reports yet'];
  const total = nodes.total === undefined ? '' : ` of ${nodes.total}`;
  const lines = [
    `nodes: ${nodes.running ?? 0}${total} running, ${nodes.withError ?? 0} with a transient error`,
  ];
  const samples = nodes.errorSamples ?? [];
  if (samples.length > 0) {
    lines.push('transient errors:', ...samples.map((s) => `  ${s.node ?? '?'}: ${s.error ?? '?'}`));
  }
  const versions = nodes.versions ?? [];
  if (versions.length > 0) {
    lines.push(
      'graph versions:',
      ...versions.map((v) => `  version ${v.version ?? '?'}: ${v.nodes ?? 0} node(s)`),
    );
  }
  return lines;
}

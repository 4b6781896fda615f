// Where `top` looks for the target the command line chose: a node's admin API, or a cluster's pods.
import type { ChosenTarget } from '../shell/statement-target.js';
import { nodeStatementTarget } from '../shell/statement-target.js';
import type { TopSource } from './node-top-source.js';
import { nodeTopSource } from './node-top-source.js';

export async function topSourceOf(chosen: ChosenTarget, cwd: string): Promise<TopSource> {
  if (chosen.kind === 'node') return nodeTopSource(chosen.node, nodeStatementTarget(chosen.node, cwd));
  const { clusterTopSource } = await import('./cluster-top-source.js');
  return clusterTopSource({ cluster: await chosen.connect(), operatorNamespace: chosen.operatorNamespace });
}

// The CLI's commands on a cluster, as the command line loads them (when a cluster is the target):
// statements, `subscribe`, and `describe` here.
import { customPath } from '../../dataplane/kube/contract.js';
import { isStatus } from '../../dataplane/kube-client/kube-api.js';
import { nameToIdentifier } from '../api/names.js';
import { EXIT, type Output } from '../client/report.js';
import type { ListedObject } from './cluster-objects.js';
import { apiFailureText, clusterCall } from './cluster-target.js';
import { describeStatus } from './describe-status.js';
import { describeLive, LiveRefusal, NOT_SERVED } from './live-client.js';
import {
  describeOnNodes,
  listFailureText,
  liveText,
  type LiveDescribeOptions,
  type NodeDescription,
} from './live-describe.js';

export { runClusterStatements } from './run-cluster-statements.js';
export { runClusterSubscribe } from './cluster-subscribe.js';
export { NOT_SERVED, runLiveSubscribe } from './live-client.js';
export type { Cluster } from './cluster-target.js';

const DESCRIBED_PLURALS = {
  ingestor: ['httpingestors', 'syslogingestors'],
  emitter: ['emitters'],
} as const;

/**
 * `describe ingestor|emitter NAME` on a cluster: the object's status as the operator wrote it, then each
 * data-plane node's live DESCRIBE through a port-forward (live-describe.ts). `--json` prints
 * `{"status": …, "nodes": [{"node", "pod", "description" | "error"}]}`.
 */
export async function runClusterDescribe(
  options: LiveDescribeOptions & { json: boolean },
  output: Output,
): Promise<number> {
  const { api, namespace } = options.cluster;
  for (const plural of DESCRIBED_PLURALS[options.kind]) {
    let object: ListedObject;
    const described = { ...options, plural };
    try {
      object = await clusterCall(() =>
        api.request<ListedObject>({ path: customPath(plural, namespace, options.name) }),
      );
    } catch (error: unknown) {
      if (isStatus(error, 404)) continue;
      output.err(`streamroute: cannot read ${options.kind} ${options.name}: ${apiFailureText(error)}`);
      return EXIT.invalid;
    }
    await printDescribed(described, object, output);
    return EXIT.ok;
  }
  output.err(
    `streamroute: there is no ${options.kind} ${nameToIdentifier(options.name)} in domain ${namespace}`,
  );
  return EXIT.invalid;
}

async function printDescribed(
  options: LiveDescribeOptions & { json: boolean; plural: string },
  object: ListedObject,
  output: Output,
): Promise<void> {
  let nodes: NodeDescription[] | undefined;
  let listFailure: string | undefined;
  try {
    // through the live API (the user's RBAC in the domain); port-forwards where it is not served
    const live = await describeLive(options.cluster, options.plural, options.name);
    nodes = live === NOT_SERVED ? await describeOnNodes(options) : live;
  } catch (error: unknown) {
    listFailure =
      error instanceof LiveRefusal
        ? `live: ${error.message}`
        : listFailureText(error, options.operatorNamespace);
  }
  if (options.json) {
    const live = nodes ?? { error: listFailure };
    output.out(JSON.stringify({ status: object.status ?? {}, nodes: live }, null, 2));
    return;
  }
  output.out(describeStatus(object));
  output.out(nodes === undefined ? (listFailure ?? '') : liveText(nodes, options.operatorNamespace));
}

// The CLI's commands on a cluster, as the command line loads them (when a cluster is the target):
// statements, `subscribe`, and `describe` here.
import { customPath } from '../../dataplane/kube/contract.js';
import { isStatus } from '../../dataplane/kube-client/kube-api.js';
import { EXIT, type Output } from '../client/report.js';
import {
  isDocumentFormat,
  outputDocument,
  printDocument,
  sortedKeys,
  type OutputFormat,
} from '../client/output-format.js';
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
  ingestor: ['httpingestors', 'syslogingestors', 'topicingestors'],
  emitter: ['emitters'],
} as const;

/**
 * `describe ingestor|emitter NAME` on a cluster: the object's status as the operator wrote it, then each
 * data-plane node's live DESCRIBE (live-describe.ts). `-o json|yaml` prints the `Description` document
 * with `status` and `nodes: [{"node", "pod", "description" | "error"}]` (docs/cli.md#output-formats).
 */
export async function runClusterDescribe(
  options: LiveDescribeOptions & { format: OutputFormat; written?: string | undefined },
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
    `streamroute: there is no ${options.kind} ${options.written ?? options.name} in domain ${namespace}`,
  );
  return EXIT.invalid;
}

async function printDescribed(
  options: LiveDescribeOptions & { format: OutputFormat; plural: string },
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
  if (isDocumentFormat(options.format)) {
    const fields = {
      domain: options.cluster.namespace,
      target: 'cluster',
      status: sortedKeys(object.status ?? {}),
      nodes: (nodes ?? []).map(({ node, pod, description, error }) => ({
        node,
        pod,
        ...(description === undefined ? {} : { description: sortedKeys(description) }),
        ...(error === undefined ? {} : { error }),
      })),
      ...(listFailure === undefined ? {} : { nodesError: listFailure }),
    };
    await printDocument(outputDocument('Description', fields), options.format, output);
    return;
  }
  output.out(describeStatus(object));
  output.out(nodes === undefined ? (listFailure ?? '') : liveText(nodes, options.operatorNamespace));
}

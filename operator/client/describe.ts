// `streamroute [-d DOMAIN] describe ingestor|emitter <name> [--json]`: the runtime state of one component
// on the node, as the DESCRIBE statement prints it (describeText), or the node's JSON as it came.
import type { DescribedKind } from '../../dataplane/core/status.js';
import { describeText } from '../node/describe-text.js';
import { EXIT, type Output } from './report.js';
import { domainUrl, type NodeTarget } from './endpoint.js';
import { callNode } from './node-call.js';
import { decodeDescription } from './protocol.js';

export interface DescribeOptions {
  target: NodeTarget;
  kind: DescribedKind;
  /** The resource name (the identifier already mapped). */
  name: string;
  /** The name as the user wrote it, for saying that it names nothing. */
  written?: string | undefined;
  json: boolean;
}

export async function runDescribe(options: DescribeOptions, output: Output): Promise<number> {
  const collection = options.kind === 'ingestor' ? 'ingestors' : 'emitters';
  const answer = await callNode(
    {
      server: options.target.server,
      method: 'GET',
      url: domainUrl(options.target, [collection, options.name]),
    },
    decodeDescription,
  );
  if (!answer.ok) {
    const { code, message } = answer.error;
    const missing = `there is no ${options.kind} ${options.written ?? options.name} in domain ${options.target.domain} on this node`;
    output.err(`streamroute: ${code === 'unknown_component' ? missing : message}`);
    return EXIT.invalid;
  }
  output.out(options.json ? JSON.stringify(answer.value, null, 2) : describeText(answer.value));
  return EXIT.ok;
}

// `streamroute [-d DOMAIN] describe ingestor|emitter <name> [-o FORMAT]`: the runtime state of one
// component on the node, as the DESCRIBE statement prints it (describeText; `wide` is the same), or the
// `Description` document (docs/cli.md#output-formats).
import type { DescribedKind } from '../../dataplane/core/status.js';
import { describeText } from '../node/describe-text.js';
import { EXIT, type Output } from './report.js';
import { domainUrl, type NodeTarget } from './endpoint.js';
import { callNode } from './node-call.js';
import {
  isDocumentFormat,
  outputDocument,
  printDocument,
  sortedKeys,
  type OutputFormat,
} from './output-format.js';
import { decodeDescription } from './protocol.js';

export interface DescribeOptions {
  target: NodeTarget;
  kind: DescribedKind;
  /** The resource name (the identifier already mapped). */
  name: string;
  /** The name as the user wrote it, for saying that it names nothing. */
  written?: string | undefined;
  format: OutputFormat;
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
  if (isDocumentFormat(options.format)) {
    const fields = { domain: options.target.domain, target: 'node', description: sortedKeys(answer.value) };
    await printDocument(outputDocument('Description', fields), options.format, output);
  } else output.out(describeText(answer.value));
  return EXIT.ok;
}

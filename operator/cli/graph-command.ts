// `streamroute graph` on the command line: its options, and which source it draws (files when given,
// else the target the rule of client/target-rule.ts chooses: a node or a cluster). The work is loaded
// only when it runs.
import { Command, Option } from 'commander';
import { secondsArgument } from '../client/arguments.js';
import { UsageError } from '../client/errors.js';
import type { Output } from '../client/report.js';
import { domainOption, serverOption, type ClientContext } from './node-commands.js';
import { addClusterOptions, onTarget, targetOf } from './target-options.js';
import { parseResourceOption } from './resource-dirs.js';

const FORMATS = ['mermaid', 'dot', 'svg', 'json'] as const;
type Format = (typeof FORMATS)[number];

interface GraphFlags {
  output: Format;
  rates?: number;
  resource: string[];
  format?: 'sql' | 'yaml';
  domain?: string;
}

export function addGraphCommand(
  program: Command,
  output: Output,
  exit: (code: number) => void,
  context: ClientContext,
): void {
  const env = context.env ?? process.env;
  const command = program
    .command('graph')
    .description('draw a domain: ingestors → codecs → relays → junctions and correlators → emitters')
    .argument(
      '[files...]',
      'statement (.sql) and resource (.yaml) files or directories; - reads stdin; none: the running node or cluster',
    )
    .addOption(
      new Option('-o, --output <format>', 'mermaid, dot, svg (runs Graphviz dot) or json')
        .choices(FORMATS)
        .default('mermaid'),
    )
    .addOption(
      new Option(
        '--rates [seconds]',
        'records/s per component from /metrics (the node, or every data-plane pod), read this far apart',
      )
        .argParser(secondsArgument(0.1, 60))
        .preset(2),
    )
    .option(
      '--resource <name[@version]=dir>',
      'serve a local directory as an uploaded resource version (files; repeatable)',
      parseResourceOption,
      [],
    )
    .addOption(
      new Option('--format <format>', 'input format when it cannot be told from the file name').choices([
        'sql',
        'yaml',
      ]),
    )
    .addOption(domainOption())
    .addOption(serverOption())
    .action(async (files: string[], flags: GraphFlags, self: Command) => {
      const { runGraph } = await import('./commands/graph.js');
      const options = { format: flags.output, ...(flags.rates === undefined ? {} : { rates: flags.rates }) };
      if (files.length > 0) {
        exit(await runGraph({ source: filesSource(files, flags, program), ...options }, output));
        return;
      }
      const target = targetOf(self, program, env);
      const source: Source =
        target.kind === 'node'
          ? { type: 'node', target: target.node }
          : {
              type: 'cluster',
              cluster: await target.connect(),
              pods: { operatorNamespace: target.operatorNamespace },
            };
      exit(await onTarget(target, () => runGraph({ source, ...options }, output)));
    });
  addClusterOptions(command, { operatorNamespace: true });
}

type Source = Parameters<typeof import('./commands/graph.js').runGraph>[0]['source'];

/** Files, read as validate reads them; -d after the command, else before it. */
function filesSource(files: string[], flags: GraphFlags, program: Command): Source {
  if (flags.rates !== undefined) {
    throw new UsageError('graph --rates reads what runs (a node or a cluster); it does not go with files');
  }
  const domain = flags.domain ?? program.opts<{ domain: string }>().domain;
  const format = flags.format === undefined ? {} : { format: flags.format };
  return { type: 'files', files, compile: { domain, resource: flags.resource, ...format } };
}

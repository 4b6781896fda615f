// The `streamroute` command line: commands, options and help. Each command is a plain function that
// returns an exit code, so tests call them directly.
import { Command, Option } from 'commander';
import { addNodeCommands, type ClientContext } from './node-commands.js';
import type { CompileOptions } from './commands/compile.js';
import { addDataplaneCommand } from './commands/dataplane.js';
import { LOG_LEVELS, logFormatOption, NODE_DEFAULTS } from './commands/node-defaults.js';
import type { NodeOptions } from './commands/node.js';
import { BIND_ERROR_MODES } from '../../dataplane/node/node-listeners.js';
import { HTTP_ERROR_BODIES } from '../../dataplane/sources/http/config.js';
import { connectionFlagHelp } from '../../dataplane/kube/dataplane-flags.js';
import { SUBSCRIPTION_FLAGS } from '../../dataplane/kube/subscription-flags.js';
import { addOperatorCommand } from './commands/operator.js';
import { addUninstallCleanupCommand } from './commands/uninstall-cleanup.js';
import { addClusterCommands } from './cluster-commands.js';
import { addCompletionCommand } from './commands/completion.js';
import { addTopCommand } from './commands/top.js';
import { addGraphCommand } from './graph-command.js';
import type { Output } from '../client/report.js';
import { parseResourceOption } from './resource-dirs.js';
import { rootProgram, runProgram } from './root-program.js';

function formatOption(): Option {
  return new Option('--format <format>', 'input format when it cannot be told from the file name').choices([
    'sql',
    'yaml',
  ]);
}

export function buildProgram(
  output: Output,
  exit: (code: number) => void,
  context: ClientContext = {},
): Command {
  const program = rootProgram(output);

  program
    .command('convert')
    .description('convert statements to resource YAML for kubectl apply')
    .argument('[files...]', 'statement files (.sql) or directories; - or nothing reads stdin')
    .option('-n, --namespace <namespace>', 'set metadata.namespace (the domain) on every resource')
    .action(async (files: string[], options: { namespace?: string }) => {
      const { runConvert } = await import('./commands/convert.js');
      exit(runConvert(files, options, output));
    });

  program
    .command('show-create')
    .description('print resources as canonical CREATE statements (what SHOW CREATE prints)')
    .argument('[files...]', 'resource YAML files or directories; - or nothing reads stdin')
    .action(async (files: string[]) => {
      const { runShowCreate } = await import('./commands/show-create.js');
      exit(runShowCreate(files, output));
    });

  for (const [name, description, runner] of [
    ['validate', 'check a whole domain: every object and every rule between them', 'runValidate'],
    ['compile', 'compile a domain to the Graph the data plane runs (JSON on stdout)', 'runCompile'],
  ] as const) {
    program
      .command(name)
      .description(description)
      .argument('[files...]', 'statement (.sql) and resource (.yaml) files or directories; - reads stdin')
      .option('-d, --domain <domain>', 'graph domain (a namespace on Kubernetes)', 'default')
      .option(
        '--resource <name[@version]=dir>',
        'serve a local directory as an uploaded resource version (repeatable)',
        parseResourceOption,
        [],
      )
      .addOption(formatOption())
      .action(async (files: string[], options: CompileOptions, command: Command) => {
        const run = (await import('./commands/compile.js'))[runner];
        exit(await run(files, withRootDomain(options, command, program), output));
      });
  }

  program
    .command('crds')
    .description('print the CustomResourceDefinitions (or write them to a directory)')
    .option('-o, --out <dir>', 'write one file per CRD into this directory')
    .action(async (options: { out?: string }) => {
      const { runCrds } = await import('./commands/crds.js');
      exit(runCrds(options, output));
    });

  program
    .command('node')
    .description('run the embedded node: compiler and data plane in one process, no Kubernetes')
    .option(
      '--manifests <path>',
      'statement (.sql) and resource (.yaml) files or a directory to run (watched)',
    )
    .option('--data-dir <dir>', 'keep applied objects, uploads and graphs here (default: nothing is kept)')
    .option('--http-listen-addr <ip:port>', 'HTTP ingestion listener', NODE_DEFAULTS.httpListenAddr)
    .option('--https-listen-addr <ip:port>', 'HTTPS listener for TLS vhosts', NODE_DEFAULTS.httpsListenAddr)
    .option(
      '--admin-listen-addr <ip:port>',
      'admin API: subscribe, describe, statements, metrics',
      NODE_DEFAULTS.adminListenAddr,
    )
    .option(
      '--admin-allowed-host <name>',
      'a Host the admin API answers besides localhost and IP addresses; .example allows subdomains (repeatable)',
      (value: string, previous: string[] = []) => [...previous, value],
    )
    .addOption(new Option('--log-level <level>', 'log level (on stderr)').choices(LOG_LEVELS).default('info'))
    .addOption(logFormatOption())
    .addOption(
      new Option(
        '--on-bind-error <mode>',
        'a listener that cannot bind at start: exit (one line on stderr, exit 3) or retry until it can',
      )
        .choices(BIND_ERROR_MODES)
        .default(NODE_DEFAULTS.onBindError),
    )
    .addOption(
      new Option(
        '--http-error-body <mode>',
        'a refused HTTP request (404, 405, 413) gets a line saying why (explain) or an empty body',
      )
        .choices(HTTP_ERROR_BODIES)
        .default(NODE_DEFAULTS.httpErrorBody),
    );
  const node = program.commands.find((command) => command.name() === 'node');
  for (const [, usage, description] of connectionFlagHelp()) node?.option(usage, description);
  for (const [, usage, description] of SUBSCRIPTION_FLAGS) node?.option(usage, description);
  node?.action(async (options: NodeOptions) => {
    const { runNode } = await import('./commands/node.js');
    exit(await runNode(options, output, context));
  });

  addOperatorCommand(program, output, exit, context);
  addDataplaneCommand(program, output, exit, context);
  addUninstallCleanupCommand(program, output, exit);
  addNodeCommands(program, output, exit, context);
  addClusterCommands(program, output, exit, context);
  addTopCommand(program, output, exit, context);
  addGraphCommand(program, output, exit, context);
  addCompletionCommand(program, output, exit);
  return program;
}

/** `streamroute -d prod validate …` means what `streamroute validate -d prod …` does. */
function withRootDomain(options: CompileOptions, command: Command, program: Command): CompileOptions {
  if (command.getOptionValueSource('domain') === 'cli') return options;
  if (program.getOptionValueSource('domain') !== 'cli') return options;
  return { ...options, domain: program.opts<{ domain: string }>().domain };
}

/**
 * Runs the command line and returns the exit code; never throws for bad input. `context` replaces what
 * the node commands take from the process (stdin, environment, working directory, interrupts).
 */
export async function runCli(
  argv: readonly string[],
  output: Output,
  context: ClientContext = {},
): Promise<number> {
  return runProgram((exit) => buildProgram(output, exit, context), argv, output);
}

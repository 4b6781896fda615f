// The commands that talk to a node, on the `streamroute` command line: statements run from the root
// command (-c, -f, stdin), `subscribe` and `describe`. -d and --server are accepted before the command
// (root options) and after it (the command's own); the command's own win.
import { didYouMean } from '../client/did-you-mean.js';
import { STATEMENT_KEYWORDS } from '../language/syntax-error.js';
import { Argument, Command, Option } from 'commander';
import { EXIT, type Output } from '../client/report.js';
import {
  countArgument,
  describedKindArgument,
  domainArgument,
  nameArgument,
  serverArgument,
} from '../client/arguments.js';
import { DEFAULT_SERVER, SERVER_ENV } from '../client/endpoint.js';
import { OUTPUT_FORMATS, type OutputFormat } from '../client/output-format.js';
import { UsageError } from '../client/errors.js';
import type { ScriptInput, Stdin } from '../client/scripts.js';
import { addClusterOptions, onTarget, targetOf } from './target-options.js';

/** What the node commands take from the process; tests pass their own. */
export interface ClientContext {
  stdin?: Stdin;
  /** For $STREAMROUTE_SERVER. */
  env?: Readonly<Record<string, string | undefined>>;
  /** Where relative UPLOAD RESOURCE directories resolve. */
  cwd?: string;
  /** Ends a running subscription (exit 0). Without it, SIGINT or SIGTERM does. */
  signal?: AbortSignal;
  /** The shell's terminal (default: the process's stdin, stdout and stderr). */
  terminal?: { input: NodeJS.ReadableStream; output: NodeJS.WritableStream; errors: NodeJS.WritableStream };
}

const SERVER_HELP = `the node's admin API (default: $${SERVER_ENV}, else a kubeconfig's cluster, else ${DEFAULT_SERVER})`;

/** Adds the root options and action (run statements), `subscribe` and `describe`. */
export function addNodeCommands(
  program: Command,
  output: Output,
  exit: (code: number) => void,
  context: ClientContext,
): void {
  const inputs: ScriptInput[] = [];
  const env = context.env ?? process.env;
  program.hook('preAction', (_root, command) => {
    if (command !== program && inputs.length > 0) {
      throw new UsageError(`-c and -f run statements; they do not go with ${command.name()}`);
    }
  });

  program
    .command('subscribe')
    .description('print the records arriving on a relay, one JSON object per line, until interrupted')
    .addArgument(
      new Argument('<subscription>', 'subscription name (subscribers of one name share records)').argParser(
        nameArgument,
      ),
    )
    .addArgument(new Argument('<relay>', 'relay name').argParser(nameArgument))
    .option(
      '--buffer <n>',
      'records the node keeps for this subscriber before dropping the oldest',
      countArgument,
    )
    .addOption(domainOption())
    .addOption(serverOption())
    .action(async (subscription: string, relay: string, options: { buffer?: number }, command: Command) => {
      const target = targetOf(command, program, env);
      const [{ untilInterrupted }, { drained }] = await Promise.all([
        import('../client/interrupt.js'),
        import('../client/drained.js'),
      ]);
      const interrupt = untilInterrupted(context.signal);
      const base = { subscription, relay, signal: interrupt.signal, ...buffered(options) };
      // the relay as typed, for saying that it names nothing (decision 0025)
      const relayWritten = command.args[1];
      try {
        if (target.kind === 'node') {
          const { runSubscribe } = await import('../client/subscribe.js');
          return exit(
            await onTarget(target, () =>
              runSubscribe({ ...base, relayWritten, target: target.node }, output),
            ),
          );
        }
        const { runClusterSubscribe, runLiveSubscribe, NOT_SERVED } = await import('../cluster/index.js');
        const spec = {
          ...base,
          cluster: await target.connect(),
          operatorNamespace: target.operatorNamespace,
          // a pipe that reads slowly (`| slow-tool`) holds the pods' streams back
          drained: () => drained(process.stdout),
        };
        const live = await onTarget(target, () => runLiveSubscribe(spec, output));
        if (live !== NOT_SERVED) return exit(live);
        output.err(
          `streamroute: the live API (live.streamroute.io) is not served on this cluster; subscribing through port-forwards (pods/portforward in ${spec.operatorNamespace})`,
        );
        exit(await runClusterSubscribe(spec, output));
      } finally {
        interrupt.dispose();
      }
    });

  program
    .command('describe')
    .description('show the runtime state and metrics of an ingestor or emitter (as DESCRIBE does)')
    .addArgument(new Argument('<kind>', 'ingestor or emitter').argParser(describedKindArgument))
    .addArgument(new Argument('<name>', 'its name (an identifier, as in statements)').argParser(nameArgument))
    .addOption(outputOption('(default: -o before the command, else table)'))
    .addOption(new Option('--json', 'the same as -o json').conflicts('output'))
    .addOption(domainOption())
    .addOption(serverOption())
    .action(
      async (kind: 'ingestor' | 'emitter', name: string, options: { json?: boolean }, command: Command) => {
        const format = options.json === true ? 'json' : formatOf(command, program);
        // `written`: the name as typed, for saying that it names nothing (decision 0025)
        const written = command.args[1];
        const target = targetOf(command, program, env);
        if (target.kind === 'node') {
          const { runDescribe } = await import('../client/describe.js');
          exit(
            await onTarget(target, () =>
              runDescribe({ target: target.node, kind, name, written, format }, output),
            ),
          );
          return;
        }
        const { runClusterDescribe } = await import('../cluster/index.js');
        const described = { cluster: await target.connect(), operatorNamespace: target.operatorNamespace };
        exit(
          await onTarget(target, () =>
            runClusterDescribe({ ...described, kind, name, written, format }, output),
          ),
        );
      },
    );

  addClusterOptions(program, { root: true });
  for (const command of program.commands) {
    if (command.name() === 'subscribe') addClusterOptions(command, { operatorNamespace: true });
    if (command.name() === 'describe') addClusterOptions(command, { operatorNamespace: true });
  }

  const collect = (make: (value: string) => ScriptInput) => (value: string) => {
    inputs.push(make(value));
    return inputs.length;
  };
  program
    .enablePositionalOptions()
    .allowExcessArguments()
    .addOption(
      new Option('-d, --domain <domain>', 'the domain (a namespace on Kubernetes) to work in')
        .default('default')
        .argParser(domainArgument),
    )
    .addOption(new Option('--server <url>', SERVER_HELP).argParser(serverArgument))
    .addOption(outputOption('(default: table)'))
    .addOption(
      new Option(
        '-c, --command <statements>',
        'run these statements on the node (repeatable, in order with -f)',
      ).argParser(collect((text) => ({ kind: 'command', text }))),
    )
    .addOption(
      new Option(
        '-f, --file <path>',
        'run the statements in this file; - reads stdin (repeatable)',
      ).argParser(collect((path) => ({ kind: 'file', path }))),
    )
    .action(async (_options: unknown, command: Command) => {
      const [unknown] = command.args;
      if (unknown !== undefined) unknownCommand(command, unknown);
      const stdin = context.stdin ?? (await import('../client/scripts.js')).processStdin;
      const target = targetOf(program, program, env);
      const cwd = context.cwd ?? process.cwd();
      if (inputs.length === 0 && stdin.isTTY) {
        const { runShell } = await import('../shell/run-shell.js');
        exit(await onTarget(target, () => runShell({ target, cwd, env, ...context.terminal })));
        return;
      }
      const format = formatOf(program, program);
      if (target.kind === 'cluster') {
        const { runClusterStatements } = await import('../cluster/index.js');
        const cluster = await target.connect();
        const run = { cluster, inputs, stdin, cwd, format };
        exit(await onTarget(target, () => runClusterStatements(run, output)));
        return;
      }
      const { runStatements } = await import('../client/run-statements.js');
      const run = { target: target.node, inputs, stdin, cwd, format };
      exit(await onTarget(target, () => runStatements(run, output)));
    });
}

/** `error: unknown command 'subscrib'` and the nearest commands; a statement gets a hint about -c. */
function unknownCommand(command: Command, unknown: string): never {
  const near = didYouMean(
    unknown,
    command.commands.map((each) => each.name()),
  );
  // `streamroute 'SHOW RELAYS;'`: statements given where a command goes
  const first = /^\s*([a-z]+)[\s;]/i.exec(unknown)?.[1]?.toUpperCase() ?? '';
  const hint = (STATEMENT_KEYWORDS as readonly string[]).includes(first)
    ? `\n(To run statements, pass them with -c: streamroute -c ${JSON.stringify(unknown)})`
    : near === ''
      ? ''
      : `\n${near}`;
  command.error(`error: unknown command '${unknown}'${hint}`, {
    code: 'commander.unknownCommand',
    exitCode: EXIT.usage,
  });
}

function buffered(options: { buffer?: number }): { buffer?: number } {
  return options.buffer === undefined ? {} : { buffer: options.buffer };
}

/** -d and --server after a command; without them, the root's (before the command) apply. */
export function domainOption(): Option {
  return new Option(
    '-d, --domain <domain>',
    'the domain to work in (default: -d before the command, else default)',
  ).argParser(domainArgument);
}

/** `-o table|wide|json|yaml` (docs/cli.md#output-formats). */
export function outputOption(defaultHelp: string): Option {
  return new Option(
    '-o, --output <format>',
    `table, wide (more columns), json or yaml (one document, docs/cli.md) ${defaultHelp}`,
  ).choices(OUTPUT_FORMATS);
}

/** The command's -o, else the one before the command, else table. */
export function formatOf(command: Command, program: Command): OutputFormat {
  const own = command.opts<{ output?: OutputFormat }>().output;
  return own ?? program.opts<{ output?: OutputFormat }>().output ?? 'table';
}

export function serverOption(): Option {
  return new Option('--server <url>', SERVER_HELP).argParser(serverArgument);
}

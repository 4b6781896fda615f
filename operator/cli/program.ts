// The `streamroute` command line: commands, options and help. Each command is a plain function that
// returns an exit code, so tests call them directly.
import { Command, CommanderError, Option } from 'commander';
import { runCompile, runValidate, type CompileOptions } from './commands/compile.js';
import { runConvert } from './commands/convert.js';
import { runCrds } from './commands/crds.js';
import { runShowCreate } from './commands/show-create.js';
import { InputError } from './input-error.js';
import { EXIT, type Output } from './report.js';
import { parseResourceOption } from './resource-dirs.js';

const EXIT_HELP = `
Exit status: 0 success; 1 the input has errors (each printed as FILE:LINE:COL: error CODE: message);
2 the command line is wrong; 3 a file could not be read or written.`;

function formatOption(): Option {
  return new Option('--format <format>', 'input format when it cannot be told from the file name').choices([
    'sql',
    'yaml',
  ]);
}

export function buildProgram(output: Output, exit: (code: number) => void): Command {
  const program = new Command('streamroute')
    .description(
      'Declare stream-routing graphs as statements or Kubernetes resources; convert, check and compile them.',
    )
    .version('0.1.0')
    .showHelpAfterError()
    .addHelpText('after', EXIT_HELP)
    .exitOverride()
    .configureOutput({ writeOut: (text) => output.out(text), writeErr: (text) => output.err(text) });

  program
    .command('convert')
    .description('convert statements to resource YAML for kubectl apply')
    .argument('[files...]', 'statement files (.sql) or directories; - or nothing reads stdin')
    .option('-n, --namespace <namespace>', 'set metadata.namespace (the domain) on every resource')
    .action((files: string[], options: { namespace?: string }) => exit(runConvert(files, options, output)));

  program
    .command('show-create')
    .description('print resources as canonical CREATE statements (what SHOW CREATE prints)')
    .argument('[files...]', 'resource YAML files or directories; - or nothing reads stdin')
    .action((files: string[]) => exit(runShowCreate(files, output)));

  for (const [name, description, run] of [
    ['validate', 'check a whole domain: every object and every rule between them', runValidate],
    ['compile', 'compile a domain to the Graph the data plane runs (JSON on stdout)', runCompile],
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
      .action((files: string[], options: CompileOptions) => exit(run(files, options, output)));
  }

  program
    .command('crds')
    .description('print the CustomResourceDefinitions (or write them to a directory)')
    .option('-o, --out <dir>', 'write one file per CRD into this directory')
    .action((options: { out?: string }) => exit(runCrds(options, output)));

  return program;
}

/** Runs the command line and returns the exit code; never throws for bad input. */
export async function runCli(argv: readonly string[], output: Output): Promise<number> {
  let code: number = EXIT.ok;
  const program = buildProgram(output, (exitCode) => (code = exitCode));
  try {
    await program.parseAsync([...argv], { from: 'user' });
    return code;
  } catch (error: unknown) {
    if (error instanceof CommanderError) {
      return error.exitCode === 0 ? EXIT.ok : EXIT.usage;
    }
    if (error instanceof InputError) {
      output.err(`streamroute: ${error.message}`);
      return EXIT.io;
    }
    throw error;
  }
}

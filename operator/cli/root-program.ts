// The root of the `streamroute` command line, shared by the whole CLI (program.ts) and the lean one of
// `streamroute dataplane` (dataplane-cli.ts): its name, version, help and output, and how an error of the
// command line becomes an exit code.
import { Command, CommanderError } from 'commander';
import { UsageError } from '../client/errors.js';
import { InputError } from '../language/input-error.js';
import { EXIT, type Output } from '../client/report.js';

const EXIT_HELP = `
Run statements on a node or a cluster (the target: docs/cli.md, "Choosing the target"):
streamroute [-d DOMAIN] -c 'SHOW RELAYS;', -f FILE, or statements on stdin.

Exit status: 0 success; 1 the input has errors (each printed as FILE:LINE:COL: error CODE: message),
or a statement failed on the node; 2 the command line is wrong; 3 a file could not be read or written,
or the node or the cluster does not answer, or the server does not speak the node's protocol.`;

/** `streamroute` with no commands yet. */
export function rootProgram(output: Output): Command {
  return new Command('streamroute')
    .description(
      'Declare stream-routing graphs as statements or Kubernetes resources; convert, check and compile them; run statements on a node.',
    )
    .version('0.1.0')
    .showHelpAfterError()
    .addHelpText('after', EXIT_HELP)
    .exitOverride()
    .configureOutput({ writeOut: (text) => output.out(text), writeErr: (text) => output.err(text) });
}

/**
 * Runs the command line on the program `build` makes (its commands report their exit code through
 * `exit`) and returns the exit code; never throws for bad input.
 */
export async function runProgram(
  build: (exit: (code: number) => void) => Command,
  argv: readonly string[],
  output: Output,
): Promise<number> {
  let code: number = EXIT.ok;
  const program = build((exitCode) => (code = exitCode));
  try {
    await program.parseAsync([...argv], { from: 'user' });
    return code;
  } catch (error: unknown) {
    if (error instanceof CommanderError) {
      return error.exitCode === 0 ? EXIT.ok : EXIT.usage;
    }
    if (error instanceof UsageError) {
      output.err(`streamroute: ${error.message}`);
      return EXIT.usage;
    }
    if (error instanceof InputError) {
      output.err(`streamroute: ${error.message}`);
      return EXIT.io;
    }
    throw error;
  }
}

// The scripts to run, psql-style: each -c and -f in the order given, or stdin when there is neither.
// Each is one script with its own source name, which the node's diagnostics name as the file.
import { readInput } from '../language/inputs.js';
import { ioError } from '../language/input-error.js';
import { UsageError } from './errors.js';

/** A -c or -f option as given (`-f -` is stdin), or text the shell read, under its own source name. */
export type ScriptInput =
  | { kind: 'command'; text: string }
  | { kind: 'file'; path: string }
  | { kind: 'text'; source: string; text: string };

export interface Script {
  /** `-c`, the path given to -f, or `<stdin>`. */
  source: string;
  text: string;
}

/** Standard input, injectable so tests need no process. */
export interface Stdin {
  readonly isTTY: boolean;
  read(): Promise<string>;
}

export const STDIN_SOURCE = '<stdin>';

export const processStdin: Stdin = {
  get isTTY() {
    return process.stdin.isTTY === true;
  },
  async read() {
    const chunks: Buffer[] = [];
    try {
      for await (const chunk of process.stdin as AsyncIterable<Buffer>) chunks.push(chunk);
    } catch (error: unknown) {
      throw ioError('cannot read', 'stdin', error);
    }
    return Buffer.concat(chunks).toString('utf8');
  },
};

/**
 * Reads every script before any is sent, so a file that cannot be read stops the run before the node
 * has seen anything. With no -c or -f, stdin is the script (the caller checks it is not a terminal).
 */
export async function readScripts(inputs: readonly ScriptInput[], stdin: Stdin): Promise<Script[]> {
  if (inputs.filter((input) => input.kind === 'file' && input.path === '-').length > 1) {
    throw new UsageError('-f - reads stdin, which can be read only once');
  }
  if (inputs.length === 0) return [{ source: STDIN_SOURCE, text: await stdin.read() }];
  const scripts: Script[] = [];
  for (const input of inputs) {
    if (input.kind === 'command') scripts.push({ source: '-c', text: input.text });
    else if (input.kind === 'text') scripts.push({ source: input.source, text: input.text });
    else if (input.path === '-') scripts.push({ source: STDIN_SOURCE, text: await stdin.read() });
    else scripts.push({ source: input.path, text: readInput(input.path) });
  }
  return scripts;
}

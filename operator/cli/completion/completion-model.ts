// What the shell completion scripts complete, read from the command line itself (commander's commands,
// options, choices and arguments), so a new command or option is completed without anyone remembering
// to: `streamroute completion bash|zsh|fish` renders this model. Option values: files where the value
// is a path, the choices where commander has them, the grammar's keywords after -c.
import type { Argument, Command, Option } from 'commander';
import { KEYWORDS } from '../../language/keywords.generated.js';

/** What an option's value or a positional argument takes. */
export type ValueKind =
  | { kind: 'file' }
  | { kind: 'keywords' }
  | { kind: 'text'; name: string }
  | { kind: 'choices'; choices: readonly string[] };

export interface OptionModel {
  short?: string;
  long?: string;
  description: string;
  /** Undefined for a flag. */
  value?: ValueKind;
}

export interface CommandModel {
  name: string;
  description: string;
  options: OptionModel[];
  /** The positional arguments in order; the last may repeat. */
  positionals: { value: ValueKind; variadic: boolean }[];
}

export interface CompletionModel {
  root: CommandModel;
  commands: CommandModel[];
  keywords: readonly string[];
}

/** Arguments whose values commander checks with a parser of ours rather than `choices`. */
const ARGUMENT_VALUES: Readonly<Record<string, readonly string[]>> = {
  'describe kind': ['ingestor', 'emitter'],
};

/** A value named like a path (`<file>`, `<dir>`, `<path>`, `<name[@version]=dir>`) completes files. */
const PATH_VALUE = /(file|dir|path)>$/;

export function completionModel(program: Command): CompletionModel {
  const commands = program.commands.map((command) => commandModel(command));
  return { root: commandModel(program, true), commands, keywords: KEYWORDS };
}

function commandModel(command: Command, root = false): CommandModel {
  const options = command.options.filter((option) => !option.hidden).map(optionModel);
  options.push({ short: '-h', long: '--help', description: 'display help for command' });
  return {
    name: command.name(),
    description: command.description(),
    options,
    positionals: root
      ? []
      : command.registeredArguments.map((argument) => ({
          value: argumentValue(command.name(), argument),
          variadic: argument.variadic,
        })),
  };
}

function optionModel(option: Option): OptionModel {
  const takes = option.required || option.optional;
  return {
    ...(option.short === undefined ? {} : { short: option.short }),
    ...(option.long === undefined ? {} : { long: option.long }),
    description: option.description,
    ...(takes ? { value: optionValue(option) } : {}),
  };
}

function optionValue(option: Option): ValueKind {
  if (option.argChoices !== undefined) return { kind: 'choices', choices: option.argChoices };
  if (option.long === '--command') return { kind: 'keywords' };
  const placeholder = /[<[]([^>\]]+)[>\]]/.exec(option.flags)?.[0] ?? '';
  if (PATH_VALUE.test(placeholder)) return { kind: 'file' };
  return { kind: 'text', name: placeholder.slice(1, -1) || 'value' };
}

function argumentValue(command: string, argument: Argument): ValueKind {
  const choices = argument.argChoices ?? ARGUMENT_VALUES[`${command} ${argument.name()}`];
  if (choices !== undefined) return { kind: 'choices', choices };
  if (argument.name() === 'files') return { kind: 'file' };
  return { kind: 'text', name: argument.name() };
}

/** The option's spellings: `-d`, `--domain`. */
export function spellings(option: OptionModel): string[] {
  return [option.short, option.long].filter((each): each is string => each !== undefined);
}

// The shell's backslash commands, psql's habits: `\d` lists objects, `\d NAME` shows one, `\dr` `\di`
// `\de` … list one kind, `\c DOMAIN` switches the domain, `\i FILE` runs a file, `\r` forgets the
// statement being typed, `\?` helps, `\q` quits. A command the shell does not know is named back with
// the nearest ones it does.
import { didYouMean } from '../client/did-you-mean.js';
import type { ShowTarget } from '../language/ast.js';

export type BackslashAction =
  | { type: 'help' }
  | { type: 'quit' }
  | { type: 'reset' }
  | { type: 'list'; name?: string }
  | { type: 'show'; kind: ShowTarget }
  | { type: 'domain'; domain?: string }
  | { type: 'include'; file: string };

interface CommandSpec {
  name: string;
  usage: string;
  help: string;
  argument: 'none' | 'optional' | 'required';
  action: (argument: string | undefined) => BackslashAction;
}

const show = (name: string, kind: ShowTarget, words: string): CommandSpec => ({
  name,
  usage: name,
  help: `list the ${words} (SHOW ${words.toUpperCase()})`,
  argument: 'none',
  action: () => ({ type: 'show', kind }),
});

export const BACKSLASH_COMMANDS: readonly CommandSpec[] = [
  {
    name: '\\d',
    usage: '\\d [NAME]',
    help: 'list every object of the domain; with NAME, its CREATE statement and, for an ingestor or emitter, DESCRIBE',
    argument: 'optional',
    action: (name) => (name === undefined ? { type: 'list' } : { type: 'list', name }),
  },
  show('\\dr', 'Relay', 'relays'),
  show('\\di', 'Ingestor', 'ingestors'),
  show('\\de', 'Emitter', 'emitters'),
  show('\\dc', 'Correlator', 'correlators'),
  show('\\dj', 'Junction', 'junctions'),
  show('\\ds', 'Schema', 'schemas'),
  {
    name: '\\c',
    usage: '\\c [DOMAIN]',
    help: 'work in DOMAIN; without it, say where the shell works',
    argument: 'optional',
    action: (domain) => (domain === undefined ? { type: 'domain' } : { type: 'domain', domain }),
  },
  {
    name: '\\i',
    usage: '\\i FILE',
    help: 'run the statements in FILE, as -f does',
    argument: 'required',
    action: (file) => ({ type: 'include', file: file ?? '' }),
  },
  {
    name: '\\r',
    usage: '\\r',
    help: 'forget the statement being typed (Ctrl-C too)',
    argument: 'none',
    action: () => ({ type: 'reset' }),
  },
  { name: '\\?', usage: '\\?', help: 'this help', argument: 'none', action: () => ({ type: 'help' }) },
  {
    name: '\\q',
    usage: '\\q',
    help: 'quit (Ctrl-D too)',
    argument: 'none',
    action: () => ({ type: 'quit' }),
  },
];

/** The action a backslash line asks for, or why there is none (in words, for the user). */
export function parseBackslash(line: string): BackslashAction | { error: string } {
  const [name = '', ...rest] = line.trim().split(/\s+/);
  const spec = BACKSLASH_COMMANDS.find((each) => each.name === name);
  if (spec === undefined) {
    const hint = didYouMean(
      name,
      BACKSLASH_COMMANDS.map((each) => each.name),
    );
    return { error: `invalid command ${name}; try \\? for help${hint === '' ? '' : ` ${hint}`}` };
  }
  if (rest.length > 1 || (rest.length === 1 && spec.argument === 'none'))
    return { error: `${name} takes ${argumentWords(spec)}: ${spec.usage}` };
  if (rest.length === 0 && spec.argument === 'required') return { error: `${name} needs ${spec.usage}` };
  return spec.action(rest[0]);
}

function argumentWords(spec: CommandSpec): string {
  return spec.argument === 'none' ? 'no argument' : 'one argument';
}

/** What `\?` prints. */
export function backslashHelp(): string {
  const width = Math.max(...BACKSLASH_COMMANDS.map((each) => each.usage.length));
  const lines = BACKSLASH_COMMANDS.map((each) => `  ${each.usage.padEnd(width)}  ${each.help}`);
  return [
    'Statements end with ; and may span lines (quotes, $jaq$ programs and comments may hold ;).',
    'BEGIN holds the statements after it until COMMIT sends them as one batch (one graph version) or',
    'ROLLBACK drops them. Tab completes keywords and the names of the objects of the domain.',
    '',
    ...lines,
  ].join('\n');
}

// Tab completion in the shell: backslash commands and their arguments (object names, domains, files),
// the words that start a statement, every keyword of the grammar, and the names of the domain's objects
// — only that kind's names right after a kind word (`DROP RELAY <Tab>`), none where a new name goes
// (`CREATE RELAY <Tab>`), nothing inside a string, a $jaq$ program or a comment. Keywords come in the
// case of what was typed, as psql does.
import { readdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { nameToIdentifier } from '../api/names.js';
import type { ShowTarget } from '../language/ast.js';
import { KEYWORDS } from '../language/keywords.generated.js';
import { splitStatements } from '../language/split-statements.js';
import { STATEMENT_KEYWORDS } from '../language/syntax-error.js';
import { BACKSLASH_COMMANDS } from './backslash-commands.js';
import type { ListedObject } from './object-names.js';
import type { Waiting } from './statement-buffer.js';

export interface CompletionContext {
  /** The statement typed on earlier lines. */
  before: string;
  waiting: Waiting;
  /** The current line up to the cursor. */
  line: string;
  objects: readonly ListedObject[];
  domains: readonly string[];
}

const KIND_WORDS: Readonly<Record<string, ShowTarget>> = {
  SCHEMA: 'Schema',
  CODEC: 'Codec',
  RESOURCE: 'Resource',
  RELAY: 'Relay',
  VHOST: 'Vhost',
  ENDPOINT: 'Endpoint',
  CLIENT: 'Client',
  INGESTOR: 'Ingestor',
  JUNCTION: 'Junction',
  CORRELATOR: 'Correlator',
  EMITTER: 'Emitter',
};

/** The words before a new object's name in CREATE, besides the kind words. */
const KIND_PHRASE = new Set([
  ...Object.keys(KIND_WORDS),
  'HTTP',
  'SYSLOG',
  'LISTENER',
  'TOPIC',
  'WIRE',
  'JSON',
  'IF',
  'NOT',
  'EXISTS',
]);

const WORD = /[A-Za-z_][A-Za-z0-9_]*$/;

/** readline's answer: the candidates, and the text before the cursor they replace. */
export function complete(context: CompletionContext): [string[], string] {
  const free = context.waiting === 'nothing' || context.waiting === 'statement';
  if (free && context.line.trimStart().startsWith('\\')) return completeBackslash(context);
  return completeStatement(context);
}

function completeStatement(context: CompletionContext): [string[], string] {
  const text = context.before === '' ? context.line : `${context.before}\n${context.line}`;
  const split = splitStatements(text);
  if (split.unclosed !== undefined) return [[], ''];
  const word = WORD.exec(context.line)?.[0] ?? '';
  const statement = split.segments.at(-1)?.text ?? '';
  const before = statement.slice(0, statement.length - word.length);
  const tokens = [...before.matchAll(/[A-Za-z_][A-Za-z0-9_]*/g)].map((match) => match[0].toUpperCase());
  return [matching(word, candidates(tokens, context.objects)), word];
}

function candidates(tokens: readonly string[], objects: readonly ListedObject[]): string[] {
  if (tokens.length === 0) return [...STATEMENT_KEYWORDS];
  const previous = tokens.at(-1) ?? '';
  const kind = previous === 'SCHEMA' && tokens.at(-3) === 'WIRE' ? 'WireSchema' : KIND_WORDS[previous];
  if (kind === undefined) return [...KEYWORDS, ...objects.map(written)];
  // `CREATE [IF NOT EXISTS] HTTP ENDPOINT INGESTOR <name>`: a new name, which no list holds
  const naming = tokens[0] === 'CREATE' && tokens.slice(1).every((token) => KIND_PHRASE.has(token));
  if (naming) return [];
  return objects.filter((each) => each.kind === kind).map(written);
}

/** How a statement writes a listed object: SHOW's display name, a YAML object's `-` as `_` (decision 0025). */
function written(object: ListedObject): string {
  return nameToIdentifier(object.name);
}

/** The candidates that start with `word` (ignoring case), keywords in the case of `word`, sorted. */
function matching(word: string, all: readonly string[]): string[] {
  const lower = /[a-z]/.test(word);
  const keywords = new Set(KEYWORDS);
  const shown = all.map((each) => (lower && keywords.has(each) ? each.toLowerCase() : each));
  const prefix = word.toLowerCase();
  return [...new Set(shown.filter((each) => each.toLowerCase().startsWith(prefix)))].sort();
}

function completeBackslash(context: CompletionContext): [string[], string] {
  const line = context.line.trimStart();
  const command = /^(\\\S*)$/.exec(line);
  if (command !== null) {
    const typed = command[1] ?? '';
    return [BACKSLASH_COMMANDS.map((each) => each.name).filter((name) => name.startsWith(typed)), typed];
  }
  const argument = /^(\\\S+)\s+(\S*)$/.exec(line);
  const typed = argument?.[2] ?? '';
  switch (argument?.[1]) {
    case '\\d':
      return [
        matching(
          typed,
          context.objects.map((each) => each.name),
        ),
        typed,
      ];
    case '\\c':
      return [matching(typed, context.domains), typed];
    case '\\i':
      return [files(typed), typed];
    default:
      return [[], typed];
  }
}

/** The entries of the directory `typed` is in whose names start as it does; directories end with `/`. */
function files(typed: string): string[] {
  const directory = typed.includes('/') ? dirname(`${typed}x`) : '.';
  const prefix = typed.includes('/') ? typed.slice(0, typed.lastIndexOf('/') + 1) : '';
  try {
    return readdirSync(directory, { withFileTypes: true })
      .map((entry) => `${prefix}${entry.name}${entry.isDirectory() ? '/' : ''}`)
      .filter((path) => path.startsWith(typed))
      .sort();
  } catch {
    return [];
  }
}

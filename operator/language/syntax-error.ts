// Turns a Peggy syntax error into a diagnostic a user can act on: `found 'FORM' but expected FROM`.
// Peggy lists every alternative it tried at the failing position; we show the grammar's display names,
// fold the long families (statement keywords, object kinds, expression starts, operators) into one
// phrase each, and never show more than a handful.
import type { DiagnosticCode } from '../diagnostics/codes.js';
import type { Diagnostic, SourceLocation } from '../diagnostics/diagnostic.js';
import type { PeggyExpectation, SyntaxError as PeggySyntaxError } from './grammar.generated.js';
import { lineStarts, positionAt } from './text-positions.js';
import { endOfTokensBefore } from './tokens.js';

const MAX_EXPECTED = 8;
const MAX_FOUND_LENGTH = 24;

interface Family {
  /** The family is folded when all of these are expected… */
  when: readonly string[];
  /** …and then these are replaced by `phrase` (`drop` are removed as noise). */
  members: readonly string[];
  phrase: string;
  drop?: readonly string[];
}

/** The keywords a statement starts with. */
export const STATEMENT_KEYWORDS = [
  'CREATE',
  'ALTER',
  'DROP',
  'SHOW',
  'DESCRIBE',
  'UPLOAD',
  'BEGIN',
  'COMMIT',
  'ROLLBACK',
] as const;
const KINDS = [
  'SCHEMA',
  'WIRE',
  'CODEC',
  'RESOURCE',
  'RELAY',
  'VHOST',
  'ENDPOINT',
  'CLIENT',
  'HTTP',
  'SYSLOG',
  'TOPIC',
  'INGESTOR',
  'JUNCTION',
  'CORRELATOR',
  'EMITTER',
];
const PLURALS = [
  'SCHEMAS',
  'WIRE',
  'CODECS',
  'RESOURCES',
  'RELAYS',
  'VHOSTS',
  'ENDPOINTS',
  'CLIENTS',
  'INGESTORS',
  'JUNCTIONS',
  'CORRELATORS',
  'EMITTERS',
];
const FIELD_REFERENCE = 'field reference (input.…, metadata.…, output.…, left.…, right.…, error.…)';
const OPERAND_STARTS = [
  "string ('…')",
  'number',
  'TRUE',
  'FALSE',
  'NULL',
  FIELD_REFERENCE,
  'function name',
  "'('",
  "'-'",
  'NOT',
];
const OPERATORS = [
  'comparison (=, !=, <, <=, >, >=)',
  'operator (||, +, -)',
  'operator (*, /)',
  'IS',
  'AND',
  'OR',
];

const FAMILIES: readonly Family[] = [
  {
    when: ['CREATE', 'ALTER', 'DROP'],
    members: STATEMENT_KEYWORDS,
    phrase: 'a statement (CREATE, ALTER, DROP, SHOW, DESCRIBE, UPLOAD, BEGIN, COMMIT or ROLLBACK)',
    drop: [';', 'end of input'],
  },
  {
    when: ['SCHEMA', 'CODEC', 'RELAY'],
    members: KINDS,
    phrase: 'an object kind (SCHEMA, WIRE JSON SCHEMA, CODEC, RELAY, CLIENT, … INGESTOR, EMITTER, …)',
  },
  {
    when: ['SCHEMAS', 'CODECS', 'RELAYS'],
    members: PLURALS,
    phrase: 'what to show (SCHEMAS, WIRE SCHEMAS, CODECS, RELAYS, INGESTORS, …)',
  },
  {
    when: ['number', FIELD_REFERENCE],
    members: OPERAND_STARTS,
    phrase: "an expression (a value such as 'text', 42 or TRUE, a field such as input.name, or a call)",
  },
  { when: [OPERATORS[0] ?? '', OPERATORS[1] ?? ''], members: OPERATORS, phrase: 'an operator' },
];

const PROTOBUF_CLAUSES = ['USING RESOURCE … VERSION …', 'CONFIG { … }', "MESSAGE '…'"];
const PROTOBUF_ORDER =
  "(a PROTOBUF codec's clauses come in this order: USING RESOURCE … VERSION …, CONFIG { … }, " +
  "MESSAGE '…', TO SCHEMA …, WITH JAQ TRANSFORMATIONS …)";
const PROTOBUF_WORDS = new Set(['USING', 'CONFIG', 'MESSAGE', 'TO', 'WITH', 'ENCODE']);

export interface SyntaxErrorContext {
  /** The text that was parsed. */
  text: string;
  /** Maps a 1-based line/column inside `text` to the place shown to the user. */
  locate: (position: { line: number; column: number }) => SourceLocation;
  code?: DiagnosticCode;
}

export function isPeggySyntaxError(error: unknown): error is PeggySyntaxError {
  return (
    error instanceof Error &&
    'location' in error &&
    typeof (error as { location?: { start?: unknown } }).location?.start === 'object'
  );
}

export function syntaxErrorToDiagnostic(error: PeggySyntaxError, context: SyntaxErrorContext): Diagnostic {
  const { text } = context;
  const message = error.expected === null ? error.message : expectedMessage(error, text);
  return {
    code: context.code ?? 'SR1001',
    severity: 'error',
    message,
    location: context.locate(placeOf(error, text)),
  };
}

/**
 * Where the parser stopped. Rules never swallow the blanks after them, so that is the start of a token,
 * or the end of the text after its last blanks and comments: that end is shown right after the last
 * token, where the missing words belong (not on an empty line or after a trailing comment).
 */
function placeOf(error: PeggySyntaxError, text: string): { line: number; column: number } {
  const { start } = error.location;
  if (start.offset < text.length) return { line: start.line, column: start.column };
  const { line, column } = positionAt(lineStarts(text), endOfTokensBefore(text, start.offset));
  return { line, column };
}

/** `found X but expected Y`; the grammar's own messages (its `error()` calls) have no expectations. */
function expectedMessage(error: PeggySyntaxError, text: string): string {
  const start = error.location.start;
  const found = foundAt(text, start.offset);
  const expected = describeExpected(error.expected ?? []);
  const message =
    expected.length > 0 ? `found ${found} but expected ${joinWords(expected)}` : `unexpected ${found}`;
  return isProtobufOrderError(text, start.offset, expected) ? `${message} ${PROTOBUF_ORDER}` : message;
}

/** A string, a `$jaq$` delimiter, a word or a two-character operator. */
const TOKENS = [/^'(?:''|[^'])*'?/, /^\$jaq\$/, /^[A-Za-z0-9_]+/, /^(?:<=|>=|!=|\|\|)/];

/** The token at `offset` as the user wrote it, quoted and shortened. */
export function foundAt(text: string, offset: number): string {
  if (offset >= text.length) return 'end of input';
  const rest = text.slice(offset);
  const token =
    TOKENS.map((pattern) => pattern.exec(rest)?.[0]).find((match) => match !== undefined) ??
    String.fromCodePoint(rest.codePointAt(0) ?? 0);
  const shown = token.length > MAX_FOUND_LENGTH ? `${token.slice(0, MAX_FOUND_LENGTH - 1)}…` : token;
  if (shown.startsWith("'")) return shown.endsWith('…') ? `${shown}'` : shown;
  if (/^[ \t\n\r]$/.test(shown)) return JSON.stringify(shown);
  if (INVISIBLE.test(shown)) return codePoint(shown);
  return `'${shown}'`;
}

/**
 * A character that looks like a blank or like nothing: a no-break or other Unicode space, a zero-width
 * or other format character, a control character. Shown by its code point, such as U+00A0.
 */
const INVISIBLE = /^[\p{Z}\p{Cf}\p{Cc}]$/u;

function codePoint(char: string): string {
  const hex = (char.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0');
  return `U+${hex}`;
}

export function describeExpected(expectations: readonly PeggyExpectation[]): string[] {
  let words: string[] = [];
  for (const expectation of expectations) {
    const word = expectationWord(expectation);
    if (word !== undefined && !words.includes(word)) words.push(word);
  }
  for (const family of FAMILIES) words = fold(words, family);
  if (words.includes(';')) words = words.filter((word) => word !== 'end of input');
  return words.length > MAX_EXPECTED ? [...words.slice(0, MAX_EXPECTED - 1), '…'] : words;
}

function expectationWord(expectation: PeggyExpectation): string | undefined {
  switch (expectation.type) {
    case 'literal':
      // Punctuation is quoted so that `,` reads as a token and not as part of the list; `;` alone is clear.
      return expectation.text === ';' ? ';' : `'${expectation.text}'`;
    case 'other':
      return expectation.description;
    case 'end':
      return 'end of input';
    default:
      // Character classes only occur inside named tokens, which report their display name instead.
      return undefined;
  }
}

function fold(words: readonly string[], family: Family): string[] {
  if (!family.when.every((word) => words.includes(word))) return [...words];
  const removed = new Set([...family.members, ...(family.drop ?? [])]);
  const first = words.findIndex((word) => removed.has(word));
  const kept = words.filter((word) => !removed.has(word));
  kept.splice(Math.min(first, kept.length), 0, family.phrase);
  return kept;
}

/** `A`, `A or B`, `A, B or C`. */
export function joinWords(words: readonly string[]): string {
  if (words.length <= 1) return words.join('');
  return `${words.slice(0, -1).join(', ')} or ${words.at(-1) ?? ''}`;
}

function isProtobufOrderError(text: string, offset: number, expected: readonly string[]): boolean {
  if (expected.some((word) => PROTOBUF_CLAUSES.includes(word))) return true;
  if (!/\bFROM\s+PROTOBUF\b/i.test(text.slice(0, offset))) return false;
  const word = /^[A-Za-z]+/.exec(text.slice(offset))?.[0]?.toUpperCase();
  return word !== undefined && PROTOBUF_WORDS.has(word);
}

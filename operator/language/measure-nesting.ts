// How deeply statement or expression text nests, measured before the parser runs. The parser recurses
// once per level of parentheses (groups, calls, schema field lists) and per prefix operator (NOT, unary
// -), and a few hundred levels exhaust the stack; no real statement comes near MAX_NESTING, so text
// beyond it is refused with a clear message instead (parse.ts). The measure is a close estimate, not a
// parse: a `-` right after a word counts as binary.
import { skipToken } from './split-statements.js';

/** Levels of parentheses and prefix operators a statement or expression may nest. */
export const MAX_NESTING = 200;

export const TOO_DEEP_MESSAGE = `nested too deeply (at most ${MAX_NESTING} levels of parentheses, NOT and -)`;

const WORD = /[A-Za-z0-9_.]+/y;
/** Words after which an expression continues with an operand (so a `-` after them is a prefix). */
const OPERATOR_WORDS = new Set(['NOT', 'AND', 'OR', 'IS', 'WHERE', 'SET']);

interface Scan {
  /** The nesting levels where each open parenthesis was opened. */
  open: number[];
  level: number;
  /** The last token ended an operand, so a `-` now is binary. */
  afterOperand: boolean;
}

/** The offset where `text` first nests deeper than MAX_NESTING, or undefined. `;` ends a statement. */
export function findTooDeep(text: string): number | undefined {
  let scan: Scan = { open: [], level: 0, afterOperand: false };
  let offset = 0;
  while (offset < text.length) {
    const token = skipToken(text, offset);
    if (token !== undefined) {
      if (token.end < 0) return undefined;
      if (token.what !== 'comment') operand(scan);
      offset = token.end;
      continue;
    }
    const start = offset;
    WORD.lastIndex = offset;
    const word = WORD.exec(text)?.[0];
    if (word !== undefined) {
      wordToken(scan, word.toUpperCase());
      offset += word.length;
    } else {
      const char = text.charAt(offset);
      if (char === ';') scan = { open: [], level: 0, afterOperand: false };
      else punctuation(scan, char);
      offset++;
    }
    if (scan.level > MAX_NESTING) return start;
  }
  return undefined;
}

function wordToken(scan: Scan, word: string): void {
  if (word === 'NOT') scan.level++;
  if (OPERATOR_WORDS.has(word)) scan.afterOperand = false;
  else operand(scan);
}

function punctuation(scan: Scan, char: string): void {
  if (char === '(') {
    scan.open.push(scan.level);
    scan.level++;
    scan.afterOperand = false;
  } else if (char === ')') {
    scan.open.pop();
    operand(scan);
  } else if (char === '-' && !scan.afterOperand) {
    scan.level++;
  } else if (!/\s/u.test(char)) {
    scan.afterOperand = false;
  }
}

/** An operand is complete: the prefix operators before it are done. */
function operand(scan: Scan): void {
  const opened = scan.open.at(-1);
  scan.level = opened === undefined ? 0 : opened + 1;
  scan.afterOperand = true;
}

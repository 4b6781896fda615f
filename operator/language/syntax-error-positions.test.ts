// Generated: every valid statement form, broken one token at a time (deleted, replaced, or preceded by
// another token, at every position), must give syntax errors that point at a token of the broken text:
// at the start of the token the message names as found, or, for "found end of input", right after the
// last token when nothing but blanks and comments follows. Each form is broken inside a transaction
// (so its `;` is followed by more statements) and as the last statement of a file that ends in a comment.
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import { expressionText } from '../../test/fixtures/expression-arbitrary.js';
import { parseExpression, parseScript } from './parse.js';
import { STATEMENT_FORMS } from './statement-forms.js';
import { foundAt } from './syntax-error.js';
import { lineStarts, offsetAt } from './text-positions.js';
import { tokenize, type Token } from './tokens.js';

/** Tokens put in or swapped in; each position gets the next one, so every one lands in every form. */
const TOKENS = [';', ',', '(', ')', 'x', 'FROM', "'s'", '1', '.', '=', 'TO', 'ON', '-', '$jaq$.$jaq$', 'SET'];

type Edit = 'delete' | 'insert' | 'replace';

function edit(text: string, token: Token, how: Edit, other: string): string {
  const before = text.slice(0, token.start);
  if (how === 'delete') return before + text.slice(token.end);
  if (how === 'insert') return `${before}${other} ${text.slice(token.start)}`;
  return before + other + text.slice(token.end);
}

/**
 * The problem with where a syntax error points, or undefined. `editedAt` is where the text was changed:
 * what comes before it was a valid start, so the parser cannot stop before the token that precedes it.
 */
function misplaced(text: string, diagnostic: Diagnostic, editedAt: number): string | undefined {
  const tokens = tokenize(text);
  const offset = offsetAt(lineStarts(text), diagnostic.location ?? { line: 1, column: 1 });
  const found = /^found (.+?) but expected /.exec(diagnostic.message)?.[1];
  const earliest = startOfGluedRun(tokens, editedAt);
  if (offset < earliest) return `points before the edit (at ${offset}, edit at ${editedAt})`;
  if (found === 'end of input') {
    const last = tokens.at(-1)?.end ?? 0;
    return offset === last
      ? undefined
      : `"found end of input" at ${offset}, but the last token ends at ${last}`;
  }
  if (!tokens.some((token) => token.start === offset)) return `points at ${offset}, not at a token`;
  if (found !== undefined && found !== foundAt(text, offset)) {
    return `names ${found} as found, but ${foundAt(text, offset)} is there`;
  }
  return undefined;
}

/**
 * The start of the token before `offset`, or of the run of tokens glued to it with no blank between
 * (the parser reads `0.0TO` or `my-relay` as one token, and may report it at its start).
 */
function startOfGluedRun(tokens: readonly Token[], offset: number): number {
  let index = tokens.findLastIndex((token) => token.start < offset);
  while (index > 0 && tokens[index - 1]?.end === tokens[index]?.start) index--;
  return tokens[index]?.start ?? 0;
}

function assertPlaced(text: string, diagnostics: readonly Diagnostic[], editedAt: number): void {
  for (const diagnostic of diagnostics.filter((d) => d.code === 'SR1001' || d.code === 'SR1015')) {
    const problem = misplaced(text, diagnostic, editedAt);
    const { line, column } = diagnostic.location ?? {};
    assert.equal(problem, undefined, `${line}:${column} ${diagnostic.message}\n${text}`);
  }
}

describe('syntax errors point at the token that was unexpected', () => {
  let nextToken = 0;
  STATEMENT_FORMS.forEach(({ title, text }, index) => {
    it(title, () => {
      const files = [`BEGIN;\n${text}\nCOMMIT;`, `${text.replace(/;\s*$/, '')}\n-- the end\n`];
      const file = files[index % 2] ?? '';
      const formStart = file.indexOf(text.slice(0, 10));
      let broken = 0;
      for (const token of tokenize(file).filter((t) => t.start >= formStart)) {
        for (const how of ['delete', 'insert', 'replace'] as const) {
          const other = TOKENS[nextToken++ % TOKENS.length] ?? ';';
          const mutated = edit(file, token, how, other);
          const { diagnostics } = parseScript(mutated);
          if (diagnostics.some((d) => d.code === 'SR1001')) broken++;
          assertPlaced(mutated, diagnostics, token.start);
        }
      }
      // The test must break statements to mean anything.
      assert.ok(broken > 0, 'some edits are syntax errors');
    });
  });

  it('property: one random edit of an expression (SR1015, as YAML text is read)', () => {
    fc.assert(
      fc.property(
        expressionText,
        fc.nat(),
        fc.constantFrom<Edit>('delete', 'insert', 'replace'),
        fc.constantFrom(...TOKENS),
        (text, at, how, other) => {
          const tokens = tokenize(text);
          const token = tokens[at % tokens.length];
          if (token === undefined) return;
          const mutated = edit(text, token, how, other);
          assertPlaced(mutated, parseExpression(mutated).diagnostics, token.start);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('the report that started it: a statement cut short by its ; in the middle of a file', () => {
    const { diagnostics } = parseScript(
      'CREATE RESOURCE a;\nCREATE CODEC c FROM JSON TO;\nCREATE RESOURCE b;',
    );
    assert.deepEqual(
      diagnostics.map((d) => `${d.location?.line}:${d.location?.column} ${d.message}`),
      ["2:28 found ';' but expected SCHEMA"],
    );
  });

  it('end of input is shown right after the last token, not after a trailing comment', () => {
    const { diagnostics } = parseScript('CREATE RESOURCE a;\nCREATE CODEC c FROM JSON TO -- unfinished\n\n');
    assert.deepEqual(
      diagnostics.map((d) => `${d.location?.line}:${d.location?.column} ${d.message}`),
      ['2:28 found end of input but expected SCHEMA'],
    );
  });

  it('blanks and comments may surround the dot of a field reference', () => {
    assert.deepEqual(parseExpression('input . a').diagnostics, []);
    assert.deepEqual(parseExpression('error/* c */.\n  code').diagnostics, []);
  });
});

import assert from 'node:assert/strict';
import { compileProblem, runtimeProblem } from './jaq-program.js';

describe('jaq-program: what reaches a reason from jq', () => {
  it('elides every value jq quotes in its own messages', () => {
    const cases: [string, string][] = [
      ['Cannot iterate over string ("secret-value...")', 'an error: Cannot iterate over string (…)'],
      [
        'string ("abc") and number (5) cannot be added',
        'an error: string (…) and number (…) cannot be added',
      ],
      [
        'object ({"k":"v(x)"}) and array ([1,2]) cannot be added',
        'an error: object (…) and array (…) cannot be added',
      ],
      ['date "2026-01-01" does not match format "%Y"', 'an error: date "…" does not match format "…"'],
      [
        "Invalid numeric literal at line 1, column 3 (while parsing 'secret')",
        'an error: Invalid numeric literal at line 1, column 3 (…)',
      ],
      ['explode input must be a string', 'an error: explode input must be a string'],
      ['startswith() requires string inputs', 'an error: startswith() requires string inputs'],
      [
        'number (1) cannot be divided because the divisor is zero',
        'an error: number (…) cannot be divided because the divisor is zero',
      ],
      [
        'Regex failure: end pattern with unmatched parenthesis',
        'an error: Regex failure: end pattern with unmatched parenthesis',
      ],
    ];
    for (const [message, reason] of cases) assert.equal(runtimeProblem(message, false), reason, message);
  });

  it('does not show text that is not one of jq’s own messages: a program’s error("…"), a value (regression: join)', () => {
    const hidden = 'error(a string) (not shown: text a program raises may hold payload values)';
    assert.equal(runtimeProblem('hunter2 secret', false), hidden, 'what `[.s] | join(1)` raises');
    assert.equal(runtimeProblem('order A-17 has no lines', false), hidden);
  });

  it('names only the type of a non-string error, and withholds messages when the schema is SENSITIVE', () => {
    assert.equal(runtimeProblem({ card: '4111' }, false), 'error(an object)');
    assert.equal(runtimeProblem(12345678901234567890n, false), 'error(a number)');
    assert.equal(runtimeProblem(null, false), 'error(null)');
    assert.match(runtimeProblem('card 4111', true), /withheld/);
    assert.doesNotMatch(runtimeProblem('card 4111', true), /4111/);
  });

  it('shortens a long message', () => {
    assert.equal(runtimeProblem(`Cannot ${'x'.repeat(500)}`, false).length, 'an error: '.length + 201);
  });

  it('locates compile errors in the program’s own lines, or at its end', () => {
    const stderr = (line: number): string =>
      `jq: error: syntax error, unexpected '}' at <top-level>, line ${line}, column 6:\n    {x:}\n         ^\njq: 1 compile error`;
    assert.equal(compileProblem(stderr(3), 'a\nb\nc'), "syntax error, unexpected '}' (line 2, column 6)");
    assert.equal(
      compileProblem(stderr(5), 'a\nb\nc'),
      "syntax error, unexpected '}' (at the end of the program)",
    );
    assert.equal(
      compileProblem('jq: error: module not found: a\n\njq: 1 compile error', 'x'),
      'module not found: a',
    );
  });
});

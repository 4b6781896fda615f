import assert from 'node:assert/strict';
import { compileProblem } from './jaq-program.js';

describe('jaq-program: what reaches a reason from jq at compile time', () => {
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

import assert from 'node:assert/strict';
import fc from 'fast-check';
import { splitStatements } from './split-statements.js';

const texts = (text: string) => splitStatements(text).segments.map((segment) => segment.text);

describe('splitStatements', () => {
  it('cuts at top-level ; and keeps the text after the last one', () => {
    assert.deepEqual(texts('a; b ;c'), ['a', ' b ', 'c']);
    assert.deepEqual(texts('a;'), ['a', '']);
    assert.deepEqual(texts(''), ['']);
  });

  it('does not cut inside strings, $jaq$ programs or comments', () => {
    assert.deepEqual(texts("x 'a;b''c;' y; z"), ["x 'a;b''c;' y", ' z']);
    assert.deepEqual(texts("p $jaq$ a; 'b $jaq$; q"), ["p $jaq$ a; 'b $jaq$", ' q']);
    assert.deepEqual(texts('a -- c; d\n b; c'), ['a -- c; d\n b', ' c']);
    assert.deepEqual(texts('a /* ; \n ; */ b; c'), ['a /* ; \n ; */ b', ' c']);
    assert.deepEqual(texts("a -- it's\n; b"), ["a -- it's\n", ' b']);
  });

  it('gives the start of each statement', () => {
    const { segments } = splitStatements('a;\n  b;c');
    assert.deepEqual(
      segments.map((segment) => segment.start),
      [
        { offset: 0, line: 1, column: 1 },
        { offset: 2, line: 1, column: 3 },
        { offset: 7, line: 2, column: 5 },
      ],
    );
  });

  it('reports a string, program or comment that never closes, where it opens', () => {
    assert.deepEqual(splitStatements("a; b 'x;\n y").unclosed, {
      what: 'string',
      at: { offset: 5, line: 1, column: 6 },
    });
    assert.equal(splitStatements('a $jaq$ b').unclosed?.what, 'jaq');
    assert.equal(splitStatements('a /* b').unclosed?.what, 'comment');
    assert.equal(splitStatements('a -- b').unclosed, undefined);
  });

  it('loses no character: the statements and the ; rebuild the text', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: fc.constantFrom('a', ';', "'", '$jaq$', '-', '/', '*', '\n', ' ') }),
        (text) => {
          assert.equal(texts(text).join(';'), text);
        },
      ),
    );
  });
});

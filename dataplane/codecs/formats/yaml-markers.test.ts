import assert from 'node:assert/strict';
import fc from 'fast-check';
import { parseAllDocuments } from 'yaml';
import { countMarkers } from './yaml-markers.js';

describe('YAML document markers', () => {
  const cases: [string, string, number][] = [
    ['no marker', 'a: 1\nb: 2\n', 0],
    ['--- and ... lines', '---\na: 1\n...\n---\nb\n...\n', 3],
    ['a ... line right before a --- line is one boundary', 'a\n...\n---\nb\n', 1],
    ['a ... line, a comment, then --- counts twice', 'a\n...\n# c\n---\nb\n', 2],
    ['markers followed by content, blanks or the end', '--- a\n---\tb\n...', 3],
    ['CR LF line breaks', '---\r\na\r\n---\r\n', 2],
    ['not a marker: ---x, an indented ---, ---- or -- -', '---x\n ---\n----\n-- -\n....\n', 0],
    ['block scalar lines are indented, so not markers', 'a: |\n  ---\n  ...\n', 0],
  ];
  for (const [name, text, count] of cases) {
    it(name, () => assert.equal(countMarkers(text, Infinity).count, count));
  }

  it('stops counting one past the limit, at the marker over it', () => {
    assert.deepEqual(countMarkers('---\n'.repeat(10), 3), { count: 4, at: 12 });
    assert.deepEqual(countMarkers('a', 3), { count: 0, at: -1 });
  });

  it('bounds the documents the yaml library finds to one more than the markers (property)', () => {
    const line = fc.constantFrom(
      '---',
      '...',
      '--- x',
      '... # end',
      'x',
      'a: 1',
      '- y',
      '# c',
      '',
      ' ---',
      '|',
      '  text',
      '"q',
      '%YAML 1.2',
      '\ufeff---',
      '---\r',
    );
    fc.assert(
      fc.property(fc.array(line, { maxLength: 30 }), fc.constantFrom('\n', '\r\n'), (lines, eol) => {
        const text = lines.join(eol);
        const documents = parseAllDocuments(text);
        assert.ok(documents.length <= countMarkers(text, Infinity).count + 1, JSON.stringify(text));
      }),
      { numRuns: 2000 },
    );
  });
});

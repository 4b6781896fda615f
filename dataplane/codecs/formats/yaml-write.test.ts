import assert from 'node:assert/strict';
import fc from 'fast-check';
import { yamlFormat } from './yaml-format.js';

/** Lines of text, some blank or starting with blanks (what a multi-line double-quoted scalar folds). */
const lines = fc
  .array(fc.constantFrom('', ' ', '  ', '\t', ' a', 'word', 'key: value', '\\', ' \\', 'x"y', "it's"), {
    minLength: 2,
    maxLength: 12,
  })
  .map((parts) => parts.join('\n'));

describe('YAML payloads: writing strings', () => {
  it('a string of several lines, of any length, reads back as itself (found by npm run fuzz)', () => {
    fc.assert(
      fc.property(lines, fc.string({ maxLength: 60 }), (text, padding) => {
        const value = `${padding}${text}\n`;
        const written = yamlFormat.write(value);
        assert.ok('bytes' in written);
        const read = yamlFormat.read(written.bytes);
        assert.ok('inputs' in read, 'what was written does not read');
        assert.equal(JSON.parse(read.inputs[0] ?? '') as string, value);
      }),
      { numRuns: 500 },
    );
  });

  it('a string with a byte order mark anywhere, as a value, an item or a key, reads back as itself (found by npm run fuzz)', () => {
    const text = fc
      .tuple(fc.string({ maxLength: 8 }), fc.constantFrom('- x', 'a: b', '', ' ', '#c', '[1]'))
      .map(([before, after]) => `${before}\uFEFF${after}`);
    const shapes = (s: string): unknown[] => [s, [s], { k: s }, { [s]: 1 }, [{ [s]: [s] }]];
    fc.assert(
      fc.property(text, (s) => {
        for (const value of shapes(s)) {
          const written = yamlFormat.write(value as never);
          assert.ok('bytes' in written);
          const read = yamlFormat.read(written.bytes);
          assert.ok('inputs' in read, 'what was written does not read');
          assert.deepEqual(JSON.parse(read.inputs[0] ?? ''), value);
        }
      }),
      { numRuns: 300 },
    );
  });
});

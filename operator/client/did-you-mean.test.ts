import assert from 'node:assert/strict';
import fc from 'fast-check';
import { didYouMean, editDistance, suggestions } from './did-you-mean.js';

const COMMANDS = [
  'convert',
  'validate',
  'compile',
  'crds',
  'node',
  'subscribe',
  'describe',
  'apply',
  'diff',
  'top',
];

describe('did you mean', () => {
  it('names the nearest command, swaps of neighbours counting as one edit', () => {
    assert.equal(didYouMean('subscirbe', COMMANDS), '(Did you mean subscribe?)');
    assert.equal(didYouMean('valdate', COMMANDS), '(Did you mean validate?)');
    assert.equal(didYouMean('DESCRIBE', COMMANDS), '(Did you mean describe?)', 'the case is an edit of none');
    assert.equal(didYouMean('describe', COMMANDS), '', 'the word itself is no suggestion');
    assert.equal(didYouMean('tpo', COMMANDS), '(Did you mean top?)');
  });

  it('lists every candidate at the best distance, and nothing far away', () => {
    assert.deepEqual(suggestions('\\dd', ['\\d', '\\dr', '\\di', '\\q']), ['\\d', '\\dr', '\\di']);
    assert.equal(didYouMean('rm', COMMANDS), '');
    assert.equal(didYouMean('kubectl', COMMANDS), '');
    assert.equal(didYouMean('\\dd', ['\\d', '\\dr']), '(Did you mean \\d or \\dr?)');
  });

  it('one edit of a word of three or more letters always finds it', () => {
    const word = fc.stringMatching(/^[a-z]{3,12}$/);
    fc.assert(
      fc.property(word, fc.nat(), fc.constantFrom('insert', 'delete', 'replace', 'swap'), (w, at, edit) => {
        const i = at % w.length;
        const typo = {
          insert: w.slice(0, i) + 'q' + w.slice(i),
          delete: w.slice(0, i) + w.slice(i + 1),
          replace: w.slice(0, i) + (w[i] === 'z' ? 'y' : 'z') + w.slice(i + 1),
          swap: i + 1 < w.length ? w.slice(0, i) + w[i + 1] + w[i] + w.slice(i + 2) : w.slice(0, -1) + 'q',
        }[edit];
        if (typo === w) return;
        assert.ok(editDistance(typo, w) <= 1, `${typo} → ${w}`);
        assert.ok(suggestions(typo, [w, 'zzzzzzzzzzzzzzzzzz']).includes(w), `${typo} → ${w}`);
      }),
    );
  });

  it('the distance is a metric: zero only for equal words, symmetric', () => {
    const word = fc.string({ maxLength: 10 });
    fc.assert(
      fc.property(word, word, (a, b) => {
        assert.equal(editDistance(a, b), editDistance(b, a));
        assert.equal(editDistance(a, b) === 0, a === b);
        assert.ok(editDistance(a, b) <= Math.max(a.length, b.length));
      }),
    );
  });
});

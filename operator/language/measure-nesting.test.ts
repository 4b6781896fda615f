import assert from 'node:assert/strict';
import { findTooDeep, MAX_NESTING } from './measure-nesting.js';

describe('findTooDeep', () => {
  const open = (levels: number) => '('.repeat(levels);

  it('finds the parenthesis, NOT or prefix - that goes one level too deep', () => {
    assert.equal(findTooDeep(`x = ${open(MAX_NESTING)}1`), undefined);
    assert.equal(findTooDeep(`x = ${open(MAX_NESTING + 1)}1`), 4 + MAX_NESTING);
    assert.equal(findTooDeep(`${'NOT '.repeat(MAX_NESTING + 1)}a`), 4 * MAX_NESTING);
    assert.equal(findTooDeep(`= ${'- '.repeat(MAX_NESTING + 1)}1`), 2 + 2 * MAX_NESTING);
  });

  it('does not count what closes, binary operators, or parentheses in strings and comments', () => {
    assert.equal(findTooDeep('(a) '.repeat(1000)), undefined);
    assert.equal(findTooDeep(`a${' - b'.repeat(1000)}`), undefined);
    assert.equal(findTooDeep(`'${open(1000)}' /* ${open(1000)} */ -- ${open(1000)}`), undefined);
    assert.equal(findTooDeep(`$jaq$ ${open(1000)} $jaq$`), undefined);
  });

  it('starts again at each ;', () => {
    assert.equal(findTooDeep(`${open(150)};${open(150)}`), undefined);
  });
});

import assert from 'node:assert/strict';
import { lineStarts, locationAt, offsetAt, positionAt, shiftPosition } from './text-positions.js';

describe('positions', () => {
  it('maps offsets to 1-based lines and columns', () => {
    const lines = lineStarts('ab\ncd\n\nef');
    assert.deepEqual(positionAt(lines, 0), { offset: 0, line: 1, column: 1 });
    assert.deepEqual(positionAt(lines, 4), { offset: 4, line: 2, column: 2 });
    assert.deepEqual(positionAt(lines, 6), { offset: 6, line: 3, column: 1 });
    assert.deepEqual(positionAt(lines, 8), { offset: 8, line: 4, column: 2 });
  });

  it('shifts a position inside a statement to the whole script', () => {
    const start = { line: 3, column: 7 };
    assert.deepEqual(shiftPosition(start, { line: 1, column: 2 }, undefined), { line: 3, column: 8 });
    assert.deepEqual(shiftPosition(start, { line: 2, column: 2 }, 'f.sql'), {
      file: 'f.sql',
      line: 4,
      column: 2,
    });
  });

  it('turns a line and column back into the offset', () => {
    const lines = lineStarts('ab\ncd\n\nef');
    for (const offset of [0, 1, 3, 4, 6, 7, 8])
      assert.equal(offsetAt(lines, positionAt(lines, offset)), offset);
  });

  it('gives a location with the file when there is one', () => {
    assert.deepEqual(locationAt('a\nbc', 3, 'x.yaml'), { file: 'x.yaml', line: 2, column: 2 });
    assert.deepEqual(locationAt('a\nbc', 0), { line: 1, column: 1 });
  });
});

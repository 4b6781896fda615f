import assert from 'node:assert/strict';
import { unifiedDiff } from './unified-diff.js';

const labels = { from: 'a', to: 'b' };

describe('unifiedDiff', () => {
  it('is empty for equal texts', () => assert.equal(unifiedDiff('x\ny\n', 'x\ny\n', labels), ''));

  it('shows a changed line with context and hunk header', () => {
    const before = 'a\nb\nc\nd\ne\nf\ng\nh\n';
    const after = 'a\nb\nc\nd\nE\nf\ng\nh\n';
    assert.equal(
      unifiedDiff(before, after, labels),
      '--- a\n+++ b\n@@ -2,7 +2,7 @@\n b\n c\n d\n-e\n+E\n f\n g\n h',
    );
  });

  it('shows a created object as all additions', () => {
    assert.equal(
      unifiedDiff('', 'spec:\n  x: 1\n', labels),
      '--- a\n+++ b\n@@ -0,0 +1,2 @@\n+spec:\n+  x: 1',
    );
  });
});

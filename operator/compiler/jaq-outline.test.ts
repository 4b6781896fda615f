import assert from 'node:assert/strict';
import { nullableOutputKeys, splitTop } from './jaq-outline.js';

describe('jaq-outline', () => {
  const cases: [string, string[]][] = [
    ['.orders[] | {id: .id, amount: .amount // null, note: null, "x y": 1}', ['amount', 'note']],
    ['{a: (if .x then .y else null end), b: if .z then 1 elif .q then null else 2 end}', ['a', 'b']],
    ['{c: .end, d: "str | {e: null}", e: "\\(.x | {q: null})"}', []],
    ['. as $r | $r.items[] | {k: .k} # {z: null}', []],
    ['{a: .a} | select(.a)', []],
    ['{a: 1}, {b: null}', ['b']],
    ['{"quoted": null, (.computed): null}', ['quoted']],
    ['{a: (.x |= null)}', []],
    ['.', []],
    ['{a: null', []],
  ];
  for (const [program, keys] of cases) {
    it(program, () =>
      assert.deepEqual(
        nullableOutputKeys(program).map((found) => found.key),
        keys,
      ),
    );
  }

  it('splits at top-level separators only', () => {
    assert.deepEqual(splitTop('a | (b | c) | "d | e" | if x then y | z end', { separator: '|' }), [
      'a ',
      ' (b | c) ',
      ' "d | e" ',
      ' if x then y | z end',
    ]);
  });
});

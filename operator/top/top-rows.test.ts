import assert from 'node:assert/strict';
import { rowsOf, sortRows, type TopRow } from './top-rows.js';
import type { ComponentCounts, NodeSample } from './top-sample.js';
import { short, tableLines } from './top-table.js';

const counts = (name: string, extra: Partial<ComponentCounts> = {}): ComponentCounts => ({
  kind: 'relay',
  name,
  recordsIn: 0,
  recordsOut: 0,
  errors: 0,
  drops: 0,
  pending: null,
  state: null,
  ...extra,
});

const look = (at: number, components: ComponentCounts[], node = 'n1'): NodeSample => ({
  node,
  at,
  components,
});

describe('top rows', () => {
  it('rates are the counters’ change over the time between two looks of the same node', () => {
    const before = [
      look(1000, [counts('a', { recordsIn: 10, recordsOut: 4 })]),
      look(1000, [counts('a')], 'n2'),
    ];
    const after = [
      look(3000, [counts('a', { recordsIn: 30, recordsOut: 5 })]),
      look(3000, [counts('a')], 'n2'),
    ];
    const rows = rowsOf(before, after);
    assert.deepEqual(
      rows.map((row) => [row.node, row.inPerSecond, row.outPerSecond]),
      [
        ['n1', 10, 0.5],
        ['n2', 0, 0],
      ],
    );
  });

  it('no rate without an earlier look, for a new component, or when a counter went back (a restart)', () => {
    assert.equal(rowsOf([], [look(1, [counts('a', { recordsIn: 3 })])])[0]!.inPerSecond, null);
    const restarted = rowsOf(
      [look(0, [counts('a', { recordsIn: 9 })])],
      [look(1000, [counts('a', { recordsIn: 2 }), counts('b')])],
    );
    assert.deepEqual(
      restarted.map((row) => row.inPerSecond),
      [null, null],
    );
  });

  it('sorts by kind then name, by name, or the largest number first', () => {
    const rows = rowsOf(
      [look(0, [counts('b'), counts('e', { kind: 'emitter' }), counts('a', { kind: 'http-ingestor' })])],
      [
        look(1000, [
          counts('b', { recordsIn: 5, drops: 1 }),
          counts('e', { kind: 'emitter', recordsIn: 9, pending: 4 }),
          counts('a', { kind: 'http-ingestor', recordsIn: 1 }),
        ]),
      ],
    );
    const names = (sorted: TopRow[]) => sorted.map((row) => row.name).join(' ');
    assert.equal(names(sortRows(rows, 'kind')), 'a b e');
    assert.equal(names(sortRows(rows, 'name')), 'a b e');
    assert.equal(names(sortRows(rows, 'in')), 'e b a');
    assert.equal(names(sortRows(rows, 'drops')), 'b a e');
    assert.equal(names(sortRows(rows, 'pending')), 'e a b');
  });

  it('prints short numbers, - where there is no value, and fits the width by cutting names and dropping columns', () => {
    assert.deepEqual(
      [
        short(99_999),
        short(123_456),
        short(999_949),
        short(999_950),
        short(12_345_678),
        short(1_234_567_890),
      ],
      ['99999', '123.5k', '999.9k', '1.0M', '12.3M', '1.2G'],
    );
    const rows = rowsOf([], [look(0, [counts('a_rather_long_relay_name', { recordsIn: 3 })])]);
    assert.deepEqual(tableLines(rows, { nodes: false }), [
      'KIND   NAME                      STATE  IN/S  OUT/S  IN  OUT  ERRORS  DROPS  PENDING',
      'relay  a_rather_long_relay_name  -         -      -   3    0       0      0        -',
    ]);
    const narrow = tableLines(rows, { width: 60, nodes: true });
    assert.ok(narrow.every((line) => line.length <= 60));
    assert.match(narrow[0]!, /^NODE {2}KIND {3}NAME +IN\/S {2}OUT\/S {2}ERRORS {2}DROPS {2}PENDING$/);
    assert.match(narrow[1]!, /^n1 {4}relay {2}a_rather\S*… +- +- +0 +0 +-$/);
  });
});

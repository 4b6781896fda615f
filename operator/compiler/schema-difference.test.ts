import assert from 'node:assert/strict';
import type { SchemaField } from './context.js';
import { schemaDifference, type FieldSet, type Likeness } from './schema-difference.js';

const set = (what: string, fields: [string, SchemaField['type'], boolean?][]): FieldSet => ({
  what,
  fields: new Map(
    fields.map(([name, type, optional = false]) => [name, { name, type, optional, sensitive: false }]),
  ),
});

const A = set('relay a', [
  ['id', 'STRING'],
  ['note', 'STRING', true],
]);

describe('schema-difference: one comparison for junctions, timeout targets and emitter codecs', () => {
  const cases: [string, FieldSet, Likeness, string | undefined][] = [
    [
      'equal',
      set('relay b', [
        ['id', 'STRING'],
        ['note', 'STRING', true],
      ]),
      'same-shapes',
      undefined,
    ],
    [
      'optionality may differ',
      set('relay b', [
        ['id', 'STRING', true],
        ['note', 'STRING'],
      ]),
      'same-types',
      undefined,
    ],
    ['a missing field', set('relay b', [['id', 'STRING']]), 'same-types', 'relay b has no field note'],
    [
      'an extra field',
      set('relay b', [
        ['id', 'STRING'],
        ['note', 'STRING'],
        ['x', 'I64'],
      ]),
      'same-types',
      'relay a has no field x',
    ],
    [
      'another type',
      set('relay b', [
        ['id', 'I64'],
        ['note', 'STRING'],
      ]),
      'same-types',
      'id is STRING in relay a but I64 in relay b',
    ],
    [
      'another optionality',
      set('relay b', [
        ['id', 'STRING'],
        ['note', 'STRING'],
      ]),
      'same-shapes',
      'note is STRING OPTIONAL in relay a but STRING in relay b',
    ],
    [
      'carries: an OPTIONAL field may be missing, extras are fine',
      set('relay b', [
        ['id', 'STRING'],
        ['x', 'I64'],
      ]),
      'carries',
      undefined,
    ],
    [
      'carries: a required field missing',
      set('relay b', [['note', 'STRING']]),
      'carries',
      'relay b has no field id, which relay a requires',
    ],
    [
      'carries: nullable where required',
      set('relay b', [['id', 'STRING', true]]),
      'carries',
      'id is STRING in relay a but STRING OPTIONAL in relay b',
    ],
    [
      'carries: not nullable where OPTIONAL is fine',
      set('relay b', [
        ['id', 'STRING'],
        ['note', 'STRING'],
      ]),
      'carries',
      undefined,
    ],
  ];
  for (const [name, b, likeness, expected] of cases) {
    it(`${likeness}: ${name}`, () => assert.equal(schemaDifference(A, b, likeness), expected));
  }
});

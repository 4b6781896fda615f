// The engine (hash index, linked lists, one timer) against the naive reference model (scan everything,
// time passed in) over random sequences of offers and clock advances: the outputs must be identical.
import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  ReferenceCorrelator,
  sqlEquals,
  type CorrelatorEvent,
} from '../../test/fixtures/correlator-reference.js';
import { ManualClock } from '../core/clock.js';
import type { RecordValues, Value } from '../core/values.js';
import { CorrelatorEngine, type Side } from './engine.js';
import type { KeyPair } from './index-key.js';

/** Key values that collide across representations (numbers and bigints) and that must not (strings). */
const keyValue: fc.Arbitrary<Value> = fc.constantFrom<Value>(
  0,
  1,
  2,
  -0,
  0n,
  1n,
  2n,
  '1',
  '',
  2 ** 60,
  2n ** 60n,
  null,
);

type Op = { offer: Side; k1: Value; k2: Value; ts: number } | { advance: number };

const op: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record({
      offer: fc.constantFrom<Side>('left', 'right'),
      k1: keyValue,
      k2: keyValue,
      ts: fc.integer({ min: 0, max: 9 }),
    }),
  },
  { weight: 1, arbitrary: fc.record({ advance: fc.integer({ min: 0, max: 40 }) }) },
);

const EXTRA = {
  none: () => true,
  before: (l: RecordValues, r: RecordValues) => (l.ts as number) < (r.ts as number),
  parity: (l: RecordValues, r: RecordValues) => (l.ts as number) % 2 === (r.ts as number) % 2,
} as const;

const settings = fc.record({
  match: fc.constantFrom('EARLIEST' as const, 'LATEST' as const),
  maxTimeMs: fc.integer({ min: 1, max: 50 }),
  maxPending: fc.integer({ min: 1, max: 6 }),
  keyCount: fc.integer({ min: 0, max: 2 }),
  extra: fc.constantFrom(...(Object.keys(EXTRA) as (keyof typeof EXTRA)[])),
});

type Settings = typeof settings extends fc.Arbitrary<infer T> ? T : never;

function predicate(s: Settings): { keys: KeyPair[]; where: (l: RecordValues, r: RecordValues) => boolean } {
  const fields = ['k1', 'k2'].slice(0, s.keyCount);
  const extra = EXTRA[s.extra];
  return {
    keys: fields.map((field) => ({ left: field, right: field })),
    where: (l, r) => fields.every((field) => sqlEquals(l[field] ?? null, r[field] ?? null)) && extra(l, r),
  };
}

function runBoth(s: Settings, ops: Op[]): { engine: CorrelatorEvent[]; reference: CorrelatorEvent[] } {
  const { keys, where } = predicate(s);
  const clock = new ManualClock();
  const events: CorrelatorEvent[] = [];
  const engine = new CorrelatorEngine({
    ...s,
    keys,
    where,
    clock,
    onPair: (left, right) => events.push({ kind: 'pair', left, right }),
    onTimeout: (side, record) => events.push({ kind: 'timeout', side, record }),
    onOverflow: (side, record) => events.push({ kind: 'overflow', side, record }),
  });
  const reference = new ReferenceCorrelator({ ...s, where });
  ops.forEach((step, n) => {
    if ('advance' in step) {
      clock.advance(step.advance);
      reference.expire(clock.now());
      return;
    }
    const record = { id: `${step.offer}${n}`, k1: step.k1, k2: step.k2, ts: step.ts };
    engine.offer(step.offer, record);
    reference.offer(step.offer, record, clock.now());
  });
  for (const side of ['left', 'right'] as const) assert.equal(engine.pending(side), reference.pending(side));
  return { engine: events, reference: reference.events };
}

describe('CorrelatorEngine against the reference model', () => {
  it('produces the same pairs, timeouts and overflows for any sequence of offers and advances', () => {
    fc.assert(
      fc.property(settings, fc.array(op, { maxLength: 80 }), (s, ops) => {
        const { engine, reference } = runBoth(s, ops);
        assert.deepEqual(engine, reference);
      }),
      { numRuns: 1000 },
    );
  });

  it('drains every record eventually: pairs, timeouts and overflows account for all offers', () => {
    fc.assert(
      fc.property(settings, fc.array(op, { maxLength: 80 }), (s, ops) => {
        const { engine } = runBoth(s, [...ops, { advance: s.maxTimeMs }]);
        const accounted = engine.reduce((sum, event) => sum + (event.kind === 'pair' ? 2 : 1), 0);
        assert.equal(accounted, ops.filter((step) => 'offer' in step).length);
      }),
    );
  });
});

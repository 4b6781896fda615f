import assert from 'node:assert/strict';
import { sqlEquals } from '../../test/fixtures/correlator-reference.js';
import { ManualClock, type TimerHandle } from '../core/clock.js';
import { Instant, type RecordValues, type Value } from '../core/values.js';
import { CorrelatorEngine, type CorrelatorEngineOptions, type Side } from './engine.js';

/** A record named `id` (what the events print) with the given fields. */
const rec = (id: string, fields: RecordValues = {}): RecordValues => ({ id, ...fields });
const name = (record: RecordValues) => record.id as string;

/** A manual clock whose timers fire five seconds late, like timers on a busy event loop. */
class LateTimers extends ManualClock {
  override setTimeout(fn: () => void, ms: number): TimerHandle {
    return super.setTimeout(fn, ms + 5000);
  }
}

type Step = ['L' | 'R', RecordValues] | ['tick', number];

function harness(options: Partial<CorrelatorEngineOptions> = {}, clock = new ManualClock()) {
  const events: string[] = [];
  const engine = new CorrelatorEngine({
    match: 'EARLIEST',
    maxTimeMs: 1000,
    maxPending: 100,
    keys: [{ left: 'k', right: 'k' }],
    where: (left, right) => sqlEquals(left.k ?? null, right.k ?? null),
    clock,
    onPair: (left, right) => events.push(`pair ${name(left)} ${name(right)}`),
    onTimeout: (side, record) => events.push(`timeout ${side} ${name(record)}`),
    onOverflow: (side, record) => events.push(`overflow ${side} ${name(record)}`),
    ...options,
  });
  const run = (steps: Step[]): void => {
    for (const [what, arg] of steps) {
      if (what === 'tick') clock.advance(arg);
      else engine.offer(what === 'L' ? 'left' : 'right', arg);
    }
  };
  return { clock, events, engine, run };
}

const ts = (where: (l: RecordValues, r: RecordValues) => boolean) => ({
  where: (l: RecordValues, r: RecordValues) => sqlEquals(l.k ?? null, r.k ?? null) && where(l, r),
});
const before = (l: RecordValues, r: RecordValues) => (l.ts as number) < (r.ts as number);

interface Case {
  name: string;
  options?: Partial<CorrelatorEngineOptions>;
  clock?: ManualClock;
  steps: Step[];
  events: string[];
  pending?: [number, number];
}

const k = (id: string, key: Value, more: RecordValues = {}) => rec(id, { k: key, ...more });

const CASES: Case[] = [
  {
    name: 'EARLIEST takes the oldest of several candidates',
    steps: [
      ['L', k('L1', 1)],
      ['L', k('L2', 1)],
      ['L', k('L3', 1)],
      ['R', k('R1', 1)],
    ],
    events: ['pair L1 R1'],
    pending: [2, 0],
  },
  {
    name: 'LATEST takes the newest of several candidates',
    options: { match: 'LATEST' },
    steps: [
      ['L', k('L1', 1)],
      ['L', k('L2', 1)],
      ['L', k('L3', 1)],
      ['R', k('R1', 1)],
    ],
    events: ['pair L3 R1'],
    pending: [2, 0],
  },
  {
    name: 'a left arrival takes the oldest pending right record (EARLIEST)',
    steps: [
      ['R', k('R1', 7)],
      ['R', k('R2', 7)],
      ['L', k('L1', 7)],
      ['L', k('L2', 7)],
      ['L', k('L3', 7)],
    ],
    events: ['pair L1 R1', 'pair L2 R2'],
    pending: [1, 0],
  },
  {
    name: 'candidates of other keys are not considered, however old',
    steps: [
      ['L', k('L1', 2)],
      ['L', k('L2', 1)],
      ['L', k('L3', 2)],
      ['R', k('R1', 1)],
    ],
    events: ['pair L2 R1'],
    pending: [2, 0],
  },
  {
    name: 'a non-key predicate on top of the key skips the oldest candidate that fails it (EARLIEST)',
    options: ts(before),
    steps: [
      ['L', k('L1', 1, { ts: 5 })],
      ['L', k('L2', 1, { ts: 1 })],
      ['L', k('L3', 1, { ts: 2 })],
      ['R', k('R1', 1, { ts: 3 })],
    ],
    events: ['pair L2 R1'],
    pending: [2, 0],
  },
  {
    name: 'a non-key predicate on top of the key skips the newest candidate that fails it (LATEST)',
    options: { match: 'LATEST', ...ts(before) },
    steps: [
      ['L', k('L1', 1, { ts: 1 })],
      ['L', k('L2', 1, { ts: 2 })],
      ['L', k('L3', 1, { ts: 9 })],
      ['R', k('R1', 1, { ts: 3 })],
    ],
    events: ['pair L2 R1'],
    pending: [2, 0],
  },
  {
    name: 'no candidate satisfies the predicate: the arrival waits',
    options: ts(before),
    steps: [
      ['L', k('L1', 1, { ts: 5 })],
      ['R', k('R1', 1, { ts: 3 })],
    ],
    events: [],
    pending: [1, 1],
  },
  {
    name: 'pairing is one-to-one and consuming: a record correlates at most once',
    steps: [
      ['L', k('L1', 1)],
      ['R', k('R1', 1)],
      ['R', k('R2', 1)],
      ['L', k('L2', 1)],
      ['L', k('L3', 1)],
    ],
    events: ['pair L1 R1', 'pair L2 R2'],
    pending: [1, 0],
  },
  {
    name: 'without keys, the other side is scanned in arrival order',
    options: { keys: [], where: before },
    steps: [
      ['L', rec('L1', { ts: 4 })],
      ['L', rec('L2', { ts: 1 })],
      ['L', rec('L3', { ts: 0 })],
      ['R', rec('R1', { ts: 2 })],
    ],
    events: ['pair L2 R1'],
    pending: [2, 0],
  },
  {
    name: 'timeouts per side, in arrival order, each once its MAX TIME has passed',
    steps: [
      ['L', k('L1', 1)],
      ['tick', 100],
      ['R', k('R1', 2)],
      ['tick', 100],
      ['L', k('L2', 3)],
      ['tick', 800],
      ['tick', 100],
      ['tick', 100],
    ],
    events: ['timeout left L1', 'timeout right R1', 'timeout left L2'],
    pending: [0, 0],
  },
  {
    name: 'expiry is inclusive: a partner arriving exactly MAX TIME later finds the record gone',
    steps: [
      ['L', k('L1', 1)],
      ['L', k('L2', 1)],
      ['R', k('R0', 9)],
      ['tick', 999],
      ['R', k('R1', 1)],
      ['tick', 1],
      ['R', k('R2', 1)],
    ],
    events: ['pair L1 R1', 'timeout left L2', 'timeout right R0'],
    pending: [0, 1],
  },
  {
    name: 'an arrival first expires what is due, even if the timer has not fired yet',
    clock: new LateTimers(),
    steps: [
      ['L', k('L1', 1)],
      ['tick', 1000],
      ['R', k('R1', 1)],
      ['tick', 10_000],
    ],
    events: ['timeout left L1', 'timeout right R1'],
    pending: [0, 0],
  },
  {
    name: 'a full side drops its oldest record, the newcomer waits',
    options: { maxPending: 2 },
    steps: [
      ['L', k('L1', 1)],
      ['L', k('L2', 2)],
      ['L', k('L3', 1)],
      ['R', k('R1', 1)],
      ['R', k('R2', 2)],
    ],
    events: ['overflow left L1', 'pair L3 R1', 'pair L2 R2'],
    pending: [0, 0],
  },
  {
    name: 'a matching arrival never overflows its side',
    options: { maxPending: 1 },
    steps: [
      ['L', k('L1', 1)],
      ['R', k('R1', 1)],
      ['R', k('R2', 2)],
      ['R', k('R3', 3)],
    ],
    events: ['pair L1 R1', 'overflow right R2'],
    pending: [0, 1],
  },
  {
    name: 'the cap is per side',
    options: { maxPending: 1 },
    steps: [
      ['L', k('L1', 1)],
      ['R', k('R1', 2)],
      ['L', k('L2', 3)],
      ['R', k('R2', 4)],
    ],
    events: ['overflow left L1', 'overflow right R1'],
    pending: [1, 1],
  },
  {
    name: 'integer keys match across number and bigint (U8 5 = I64 5n, beyond 2^53 too)',
    steps: [
      ['L', k('L1', 5)],
      ['R', k('R1', 5n)],
      ['L', k('L2', 2n ** 60n)],
      ['R', k('R2', 2 ** 60)],
      ['R', k('R3', -0)],
      ['L', k('L3', 0n)],
    ],
    events: ['pair L1 R1', 'pair L2 R2', 'pair L3 R3'],
    pending: [0, 0],
  },
  {
    name: 'strings and numbers are never equal',
    steps: [
      ['L', k('L1', '5')],
      ['R', k('R1', 5)],
      ['R', k('R2', 5n)],
      ['L', k('L2', true)],
      ['R', k('R3', 1)],
    ],
    events: [],
    pending: [2, 3],
  },
  {
    name: 'a null key never matches, not even another null; it still waits and times out',
    options: { maxTimeMs: 10 },
    steps: [
      ['L', k('L1', null)],
      ['R', k('R1', null)],
      ['R', rec('R2')],
      ['tick', 10],
    ],
    events: ['timeout left L1', 'timeout right R1', 'timeout right R2'],
    pending: [0, 0],
  },
  {
    name: 'instants compare by nanoseconds, bytes by content',
    steps: [
      ['L', k('L1', new Instant(1_500_000_001n))],
      ['R', k('R1', new Instant(1_500_000_001n))],
      ['L', k('L2', Uint8Array.of(1, 2, 3))],
      ['R', k('R2', new Uint8Array(Uint8Array.of(0, 1, 2, 3).buffer, 1))],
      ['R', k('R3', Uint8Array.of(1, 2))],
    ],
    events: ['pair L1 R1', 'pair L2 R2'],
    pending: [0, 1],
  },
  {
    name: 'several equality conjuncts form one key; a null part means no key',
    options: {
      keys: [
        { left: 'a', right: 'x' },
        { left: (r) => r.b ?? null, right: 'y' },
      ],
      where: (l, r) => sqlEquals(l.a ?? null, r.x ?? null) && sqlEquals(l.b ?? null, r.y ?? null),
    },
    steps: [
      ['L', rec('L1', { a: 'p', b: 1 })],
      ['L', rec('L2', { a: 'p', b: 2 })],
      ['L', rec('L3', { a: 'p1', b: null })],
      ['R', rec('R1', { x: 'p', y: 2n })],
      ['R', rec('R2', { x: 'p1', y: null })],
      ['R', rec('R3', { x: 'p', y: '1' })],
    ],
    events: ['pair L2 R1'],
    pending: [2, 2],
  },
];

describe('CorrelatorEngine', () => {
  for (const testCase of CASES) {
    it(testCase.name, () => {
      const { engine, events, run } = harness(testCase.options, testCase.clock);
      run(testCase.steps);
      assert.deepEqual(events, testCase.events);
      if (testCase.pending)
        assert.deepEqual([engine.pending('left'), engine.pending('right')], testCase.pending);
    });
  }
});

describe('CorrelatorEngine mechanics', () => {
  it('hands the original record object to onTimeout, unchanged', () => {
    const seen: [Side, RecordValues][] = [];
    const { run } = harness({ onTimeout: (side, record) => seen.push([side, record]) });
    const left = k('L1', 1, { ts: new Instant(5n), blob: Uint8Array.of(9) });
    const right = k('R1', 2);
    const copy = k('L1', 1, { ts: new Instant(5n), blob: Uint8Array.of(9) });
    run([
      ['L', left],
      ['R', right],
      ['tick', 1000],
    ]);
    assert.equal(seen.length, 2);
    assert.equal(seen[0]?.[1], left);
    assert.equal(seen[1]?.[1], right);
    assert.deepEqual(seen[0]?.[1], copy);
  });

  it('tests `where` only on the candidates of the same key (hash index, not a scan)', () => {
    let calls = 0;
    const { engine } = harness({ maxPending: 100_000, where: (l, r) => (calls++, l.k === r.k) });
    for (let i = 0; i < 10_000; i += 1) engine.offer('left', k(`L${i}`, `key-${i}`));
    engine.offer('right', k('R1', 'key-7777'));
    engine.offer('right', k('R2', 'no-such-key'));
    assert.equal(calls, 1);
    assert.equal(engine.pending('left'), 9_999);
  });

  it('keeps one timer for any number of pending records, and none once stopped', () => {
    const clock = new ManualClock();
    const { engine, events } = harness({ maxPending: 100_000 }, clock);
    for (let i = 0; i < 1000; i += 1) {
      engine.offer(i % 2 === 0 ? 'left' : 'right', k(`${i}`, i));
      clock.advance(1);
    }
    assert.equal(clock.pendingTimers, 1);
    assert.deepEqual(events, ['timeout left 0']);
    clock.advance(500);
    assert.equal(events.length, 501);
    assert.equal(events.at(-1), 'timeout left 500');
    assert.equal(clock.pendingTimers, 1);
    const left = engine.pending('left');
    const right = engine.pending('right');
    const rest = engine.stop();
    assert.equal(clock.pendingTimers, 0);
    assert.deepEqual([rest.left.length, rest.right.length], [left, right]);
    assert.deepEqual([rest.left[0]?.id, rest.right[0]?.id], ['502', '501']);
    assert.deepEqual([engine.pending('left'), engine.pending('right')], [0, 0]);
    assert.throws(() => engine.offer('left', k('late', 1)), /stopped/);
  });

  it('arms timers within what Node can hold, and waits the full MAX TIME beyond it', () => {
    const delays: number[] = [];
    const clock = new ManualClock();
    const arm = clock.setTimeout.bind(clock);
    clock.setTimeout = (fn, ms) => (delays.push(ms), arm(fn, ms));
    const maxTimeMs = 5 * 2 ** 31;
    const { engine, events } = harness({ maxTimeMs }, clock);
    engine.offer('left', k('L1', 1));
    clock.advance(maxTimeMs - 1);
    assert.deepEqual(events, []);
    clock.advance(1);
    assert.deepEqual(events, ['timeout left L1']);
    assert.ok(delays.length > 1 && delays.every((ms) => ms <= 2 ** 31 - 1), String(delays));
  });

  it('treats a throwing `where` as false, reports it, and tries the next candidate', () => {
    const errors: string[] = [];
    const { run, events } = harness({
      where: (l, r) => {
        if (l.id === 'L1') throw new Error('boom');
        return l.k === r.k;
      },
      onWhereError: (error, l, r) => errors.push(`${(error as Error).message} ${name(l)} ${name(r)}`),
    });
    run([
      ['L', k('L1', 1)],
      ['L', k('L2', 1)],
      ['R', k('R1', 1)],
    ]);
    assert.deepEqual(errors, ['boom L1 R1']);
    assert.deepEqual(events, ['pair L2 R1']);
  });

  it('lets callbacks offer records (re-entry) with the buffers already consistent', () => {
    const pairs: string[] = [];
    const engine: CorrelatorEngine = harness({
      onPair: (l, r) => {
        pairs.push(`${name(l)} ${name(r)}`);
        if (l.id === 'L1') engine.offer('right', k('R2', 1));
      },
    }).engine;
    engine.offer('left', k('L1', 1));
    engine.offer('left', k('L2', 1));
    engine.offer('right', k('R1', 1));
    assert.deepEqual(pairs, ['L1 R1', 'L2 R2']);
    assert.deepEqual([engine.pending('left'), engine.pending('right')], [0, 0]);
  });

  it('refuses settings it cannot run', () => {
    for (const bad of [{ maxPending: 0 }, { maxPending: 1.5 }, { maxTimeMs: -1 }, { maxTimeMs: Number.NaN }])
      assert.throws(() => harness(bad), RangeError, JSON.stringify(bad));
  });
});

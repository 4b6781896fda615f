import assert from 'node:assert/strict';
import fc from 'fast-check';
import { Registry } from 'prom-client';
import { memoryLogger } from '../../test/fixtures/graph-from-statements.js';
import { ManualClock } from './clock.js';
import { messageError, type MessageErrorCode } from './errors.js';
import { MESSAGE_ERROR_LINES } from './message-error-lines.js';
import { readCounter, Telemetry } from './telemetry.js';

const INTERVAL_MS = 10_000;
const tick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

function setup() {
  const registry = new Registry();
  const { logger, logs } = memoryLogger();
  const clock = new ManualClock(1_000_000);
  const component = new Telemetry({ registry, logger, domain: 'shop', clock }).component(
    'http-ingestor',
    'orders-in',
  );
  const fail = (code: MessageErrorCode): void =>
    component.messageError({ error: messageError(code, 'not JSON'), route: 'orders', policy: 'LOG' });
  const oneByOne = () => logs.filter((line) => line.msg === 'message error');
  const summed = () => logs.filter((line) => line.msg === 'message errors not logged one by one');
  const counted = (code: string): Promise<number> =>
    readCounter(registry, 'streamroute_message_errors_total', {
      domain: 'shop',
      kind: 'http-ingestor',
      name: 'orders-in',
      reason: code,
    });
  return { clock, fail, oneByOne, summed, counted };
}

describe('message error lines (ON MESSAGE ERROR LOG)', () => {
  it('writes the first ones one by one, then one line per code with the count, and counts them all', async () => {
    const { clock, fail, oneByOne, summed, counted } = setup();
    for (let n = 0; n < 5_000; n++) fail('SR3001');
    for (let n = 0; n < 7; n++) fail('SR3005');
    await tick();
    assert.equal(oneByOne().length, MESSAGE_ERROR_LINES);
    assert.deepEqual(
      summed().map((line) => [line.code, line.count]),
      [
        ['SR3001', 5_000 - MESSAGE_ERROR_LINES],
        ['SR3005', 7],
      ],
    );
    assert.equal(await counted('SR3001'), 5_000);
    assert.equal(await counted('SR3005'), 7);
    // the next interval starts a new budget
    clock.advance(INTERVAL_MS);
    fail('SR3005');
    assert.equal(oneByOne().length, MESSAGE_ERROR_LINES + 1);
  });

  it('loses no error between its lines and its counts, and keeps the budget in every interval', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ code: fc.constantFrom('SR3001', 'SR3005', 'SR3010'), waitMs: fc.nat(4_000) }), {
          maxLength: 400,
        }),
        async (errors) => {
          const { clock, fail, oneByOne, summed } = setup();
          const windows = new Map<number, number>();
          let windowStart = Number.NEGATIVE_INFINITY;
          for (const { code, waitMs } of errors) {
            clock.advance(waitMs);
            await tick();
            const before = oneByOne().length;
            fail(code);
            if (clock.now() - windowStart >= INTERVAL_MS) windowStart = clock.now();
            windows.set(windowStart, (windows.get(windowStart) ?? 0) + oneByOne().length - before);
          }
          clock.advance(INTERVAL_MS);
          await tick();
          const inSums = summed().reduce((sum, line) => sum + Number(line.count), 0);
          assert.equal(oneByOne().length + inSums, errors.length);
          for (const lines of windows.values()) assert.ok(lines <= MESSAGE_ERROR_LINES);
        },
      ),
      { numRuns: 100 },
    );
  });
});

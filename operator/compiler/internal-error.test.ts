import assert from 'node:assert/strict';
import type { GraphObject } from '../api/index.js';
import { compileExample, EXAMPLE_DOMAINS, objectsOf } from '../../test/fixtures/compile-cases.js';
import { CompileContext, keyOf } from './context.js';
import { InternalCompilerError } from './internal-error.js';
import { lowerGraph } from './lower-graph.js';
import { resourceIndex } from './resource-index.js';

/** Every object declared and marked accepted without running a single check (an impossible state). */
function acceptedUnchecked(objects: readonly GraphObject[]): CompileContext {
  const ctx = new CompileContext('shop', resourceIndex(objects, 'shop'));
  for (const object of objects) {
    ctx.declare(keyOf(object), object);
    ctx.setStatus(keyOf(object), 'accepted');
  }
  return ctx;
}

const RELAYS = `CREATE SCHEMA s (id STRING);
  CREATE RELAY a SCHEMA s UNBRANCHED;
  CREATE RELAY b SCHEMA s UNBRANCHED;`;

describe('lowering never falls back: an impossible state is an internal error', () => {
  for (const example of EXAMPLE_DOMAINS) {
    it(`compiles examples/${example.name} with every object accepted and lowered`, () => {
      const result = compileExample(example);
      const rejected = [...result.verdicts].filter(([, verdict]) => verdict.status !== 'accepted');
      assert.deepEqual(rejected, []);
    });
  }

  it('a correlator whose WHERE was never typed throws instead of lowering WHERE TRUE', () => {
    const ctx = acceptedUnchecked(
      objectsOf(`${RELAYS}
        CREATE CORRELATOR c LEFT FROM a RIGHT FROM b CORRELATE WHERE left.id = right.id MATCH EARLIEST
          MAX TIME 30s ON CORRELATION TIMEOUT DROP, DROP UNBRANCHED TO a SET id = left.id
          FLUSH IMMEDIATE ON MESSAGE ERROR LOG;`),
    );
    assert.throws(() => lowerGraph(ctx), InternalCompilerError);
    assert.throws(() => lowerGraph(ctx), /Correlator c is accepted, but its typed WHERE is missing/);
  });

  const emitter = (retry: { backoff: string; max: string }, onMessageError: object): GraphObject =>
    ({
      apiVersion: 'streamroute.io/v1alpha1',
      kind: 'Emitter',
      metadata: { name: 'e' },
      spec: {
        from: 'a',
        to: { type: 'SYSLOG', client: 'c' },
        mode: 'NO_ACK',
        retry,
        codec: 'x',
        flush: 'IMMEDIATE',
        onMessageError,
        onGeneralError: 'LOG',
      },
    }) as GraphObject;

  it('a duration that does not read throws instead of lowering 1 ms', () => {
    const ctx = acceptedUnchecked([
      ...objectsOf(RELAYS),
      emitter({ backoff: '0s', max: '1s' }, { action: 'LOG' }),
    ]);
    assert.throws(() => lowerGraph(ctx), /Emitter e is accepted, but the milliseconds of duration 0s/);
  });

  it('an ON MESSAGE ERROR SEND TO handler whose SET was never typed throws instead of lowering LOG', () => {
    const handler = { action: 'SEND_TO', relay: 'b', set: [{ field: 'id', value: 'error.code' }] };
    const ctx = acceptedUnchecked([...objectsOf(RELAYS), emitter({ backoff: '1s', max: '1s' }, handler)]);
    assert.throws(
      () => lowerGraph(ctx),
      /Emitter e is accepted, but the typed value at spec\.onMessageError\.set\[0\]\.value is missing/,
    );
  });
});

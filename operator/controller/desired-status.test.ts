import assert from 'node:assert/strict';
import type { ObjectOutcome } from './compile-plan.js';
import { nextConditions, transitionOf, type Condition } from './conditions.js';
import { statusChange, type StatusInputs } from './desired-status.js';
import { domainNodes } from './node-rollup.js';
import { acceptedCondition, statusPatch } from './object-status.js';
import { resourceVersionIndex } from './resource-files.js';
import { cluster, relay } from './controller.fixtures.js';

const T0 = '2026-01-01T00:00:00Z';
const T1 = '2026-01-01T00:01:00Z';

function inputs(outcomes: Record<string, ObjectOutcome>, extra: Partial<StatusInputs> = {}): StatusInputs {
  return {
    outcomes: new Map(Object.entries(outcomes)),
    resources: resourceVersionIndex([]),
    bindings: new Map(),
    nodes: domainNodes([], 'shop'),
    now: () => T1,
    ...extra,
  };
}

const acceptedStatus = (generation: number, time = T0): Record<string, unknown> => ({
  observedGeneration: generation,
  conditions: [
    {
      type: 'Accepted',
      status: 'True',
      observedGeneration: generation,
      lastTransitionTime: time,
      reason: 'Accepted',
      message: `generation ${generation} is running`,
    },
  ],
});

describe('conditions', () => {
  it('keeps lastTransitionTime while the status stays, and stamps a change', () => {
    const before = acceptedStatus(1).conditions as Condition[];
    const same = nextConditions(
      before,
      [{ type: 'Accepted', status: 'True', reason: 'Accepted', message: 'm' }],
      2,
      () => T1,
    );
    assert.equal(same[0]?.lastTransitionTime, T0);
    assert.equal(same[0]?.observedGeneration, 2);
    const changed = nextConditions(
      before,
      [{ type: 'Accepted', status: 'False', reason: 'SR1', message: 'm' }],
      2,
      () => T1,
    );
    assert.equal(changed[0]?.lastTransitionTime, T1);
    assert.equal(transitionOf(before, changed, 'Accepted')?.status, 'False');
    assert.equal(transitionOf(before, same, 'Accepted'), undefined);
  });

  it('bounds the message to 32768 characters', () => {
    const long = nextConditions(
      [],
      [{ type: 'Accepted', status: 'False', reason: 'R', message: 'x'.repeat(40_000) }],
      1,
      () => T0,
    );
    assert.equal(long[0]?.message.length, 32768);
  });
});

describe('acceptedCondition', () => {
  it('names the diagnostic code and the generation that keeps running', () => {
    const outcome: ObjectOutcome = {
      state: 'rejected',
      generation: 3,
      running: 2,
      verdict: {
        status: 'rejected',
        diagnostics: [
          {
            code: 'SR2004',
            severity: 'error',
            message: 'bad',
            object: { kind: 'Relay', name: 'r' },
            path: 'spec.schema',
          },
        ],
      },
    };
    const condition = acceptedCondition(outcome);
    assert.equal(condition?.status, 'False');
    assert.equal(condition?.reason, 'SR2004');
    assert.match(condition?.message ?? '', /generation 2 keeps running/);
    assert.match(condition?.message ?? '', /error SR2004: Relay r spec.schema: bad/);
  });

  it('says what a waiting object waits on', () => {
    const outcome: ObjectOutcome = {
      state: 'waiting',
      generation: 1,
      verdict: { status: 'waiting', on: [{ kind: 'Schema', name: 's' }] },
    };
    assert.deepEqual(acceptedCondition(outcome), {
      type: 'Accepted',
      status: 'False',
      reason: 'WaitingOnDependency',
      message: 'generation 1 is not running: waits on Schema/s',
    });
  });

  it('says nothing while a transaction holds the object, and TransactionIncomplete after the timeout', () => {
    const transaction = { id: 't', members: ['Relay/r'], missing: ['Relay/q'], timedOut: false };
    assert.equal(acceptedCondition({ state: 'held', transaction, generation: 1 }), undefined);
    const late = acceptedCondition({
      state: 'held',
      transaction: { ...transaction, timedOut: true },
      generation: 1,
    });
    assert.equal(late?.reason, 'TransactionIncomplete');
    assert.match(late?.message ?? '', /missing Relay\/q/);
  });

  it('lets a domain refusal override', () => {
    const condition = acceptedCondition(
      { state: 'accepted', generation: 1 },
      { reason: 'GraphTooLarge', message: 'big' },
    );
    assert.deepEqual(condition, {
      type: 'Accepted',
      status: 'False',
      reason: 'GraphTooLarge',
      message: 'big',
    });
  });
});

describe('statusChange', () => {
  it('writes nothing when the object already has its status', () => {
    const object = { ...relay('r'), status: acceptedStatus(1) };
    const change = statusChange(object, inputs({ 'Relay/r': { state: 'accepted', generation: 1 } }));
    assert.deepEqual(change, { patch: undefined, accepted: undefined });
  });

  it('writes conditions and observedGeneration on the first reconcile, as a transition', () => {
    const change = statusChange(relay('r'), inputs({ 'Relay/r': { state: 'accepted', generation: 1 } }));
    assert.deepEqual(change.patch, acceptedStatus(1, T1));
    assert.equal(change.accepted?.status, 'True');
  });

  it('rolls up nodes and Ready for ingestors', () => {
    const ingestor = cluster('HttpIngestor', 'orders-in', {});
    const change = statusChange(
      ingestor,
      inputs({ 'HttpIngestor/orders-in': { state: 'accepted', generation: 1 } }),
    );
    assert.deepEqual(change.patch?.nodes, {
      running: 0,
      withError: 0,
      total: 0,
      errorSamples: [],
      versions: [],
    });
    const types = (change.patch?.conditions as Condition[]).map((c) => `${c.type}=${c.status}`);
    assert.deepEqual(types, ['Accepted=True', 'Ready=Unknown']);
  });

  it('writes a Resource its versions and latestVersion', () => {
    const resources = resourceVersionIndex([
      {
        metadata: {
          name: 'streamroute-resource-protos-v1',
          labels: { 'streamroute.io/resource': 'protos', 'streamroute.io/resource-version': '1' },
          annotations: { 'streamroute.io/files': '["a.proto"]', 'streamroute.io/sha256': 'abc' },
          creationTimestamp: T0,
        },
      },
    ]);
    const object = cluster('Resource', 'protos', {});
    const change = statusChange(
      object,
      inputs({ 'Resource/protos': { state: 'accepted', generation: 1 } }, { resources }),
    );
    assert.equal(change.patch?.latestVersion, 1);
    assert.deepEqual(change.patch?.versions, [
      {
        version: 1,
        objectKind: 'ConfigMap',
        objectName: 'streamroute-resource-protos-v1',
        files: ['a.proto'],
        sha256: 'abc',
        uploadedAt: T0,
      },
    ]);
  });

  it('records LATEST bindings and removes them when gone', () => {
    const object = cluster(
      'SyslogClient',
      'c',
      {},
      { status: { ...acceptedStatus(1), boundVersions: [{ resource: 'r', version: 1, generation: 1 }] } },
    );
    const change = statusChange(object, inputs({ 'SyslogClient/c': { state: 'accepted', generation: 1 } }));
    assert.deepEqual(change.patch, { boundVersions: null });
  });
});

describe('statusPatch', () => {
  it('patches only the fields that differ and nulls removed ones', () => {
    assert.deepEqual(statusPatch({ a: 1, b: [1] }, { a: 1, b: [2], c: undefined }), { b: [2] });
    assert.deepEqual(statusPatch({ c: 1 }, { c: undefined }), { c: null });
    assert.equal(statusPatch(undefined, {}), undefined);
  });
});

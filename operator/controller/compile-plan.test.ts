import assert from 'node:assert/strict';
import { compileDomain, prepareCompileAll } from '../compiler/index.js';
import { toGraphObject } from './cluster-objects.js';
import { planCompile, type PlanInput } from './compile-plan.js';
import { NO_INPUTS, type GraphInput } from './graph-inputs.js';
import type { HeldTransaction } from './transactions.js';
import { DOMAIN, relay, schema } from './controller.fixtures.js';
import type { ClusterObject } from './domain-snapshot.js';

function plan(
  objects: ClusterObject[],
  published: GraphInput[] = [],
  held = new Map<string, HeldTransaction>(),
) {
  const input: PlanInput = {
    objects,
    published: published.length === 0 ? NO_INPUTS : new Map(published.map((i) => [`${i.kind}/${i.name}`, i])),
    held,
    prepare: (object) => toGraphObject(object),
    compile: (inputs) => compileDomain(inputs, { domain: DOMAIN }),
  };
  return planCompile(input);
}

const relaySpec = { schema: 'orders', branching: 'UNBRANCHED' };

before(() => prepareCompileAll());

describe('planCompile (last valid graph)', () => {
  it('accepts a valid domain and records every accepted object as an input', () => {
    const result = plan([schema(), relay('orders')]);
    assert.deepEqual(
      [...result.outcomes.values()].map((o) => o.state),
      ['accepted', 'accepted'],
    );
    assert.deepEqual(result.inputs.map((i) => `${i.kind}/${i.name}@${i.generation}`).sort(), [
      'Relay/orders@1',
      'Schema/orders@1',
    ]);
  });

  it('keeps the last valid spec of an object whose new generation is rejected', () => {
    const published: GraphInput[] = [
      { kind: 'Schema', name: 'orders', generation: 1, spec: schema().spec },
      { kind: 'Relay', name: 'orders', generation: 1, spec: relaySpec },
    ];
    const broken = {
      ...cluster2('Schema', 'orders', { fields: [] }),
      metadata: { ...schema().metadata, generation: 2 },
    };
    const result = plan([broken, relay('orders'), relay('audit')], published);
    const outcome = result.outcomes.get('Schema/orders');
    assert.equal(outcome?.state, 'rejected');
    assert.ok(outcome?.state === 'rejected' && outcome.running === 1);
    assert.ok(outcome?.state === 'rejected' && outcome.verdict.status === 'rejected');
    assert.equal(result.outcomes.get('Relay/audit')?.state, 'accepted');
    assert.equal(result.outcomes.get('Relay/orders')?.state, 'accepted');
    const kept = result.inputs.find((i) => i.kind === 'Schema');
    assert.deepEqual(kept, { kind: 'Schema', name: 'orders', generation: 1, spec: schema().spec });
    assert.ok(result.result.graph.relays['orders'] !== undefined);
  });

  it('keeps the name the last valid spec was shown by (decision 0025), and records it with the inputs', () => {
    const typed = { 'streamroute.io/identifier': 'Web_Orders' };
    const valid = relay('web-orders');
    const first = plan([schema(), { ...valid, metadata: { ...valid.metadata, annotations: typed } }]);
    const input = first.inputs.find((i) => i.kind === 'Relay');
    assert.equal(input?.identifier, 'Web_Orders');
    assert.deepEqual(first.result.graph.names?.relays, { 'web-orders': 'Web_Orders' });
    // A rejected generation applied from YAML without the annotation: the last valid one runs as it was.
    const broken = cluster2('Relay', 'web-orders', { schema: 'missing', branching: 'UNBRANCHED' });
    const second = plan(
      [schema(), { ...broken, metadata: { ...broken.metadata, generation: 2 } }],
      first.inputs,
    );
    assert.equal(second.outcomes.get('Relay/web-orders')?.state, 'waiting');
    assert.deepEqual(second.result.graph, first.result.graph, 'the same graph: no new version');
  });

  it('leaves a new invalid object out and marks the objects waiting on it', () => {
    const result = plan([cluster2('Schema', 'orders', { fields: [] }), relay('orders')]);
    assert.equal(result.outcomes.get('Schema/orders')?.state, 'rejected');
    const waiting = result.outcomes.get('Relay/orders');
    assert.equal(waiting?.state, 'waiting');
    assert.ok(waiting?.state === 'waiting' && waiting.verdict.status === 'waiting');
    assert.deepEqual(result.inputs, []);
  });

  it('compiles a held transaction member with its published spec, or leaves it out', () => {
    const held: HeldTransaction = {
      id: 't1',
      members: ['Relay/orders', 'Relay/audit'],
      missing: ['Relay/x'],
      timedOut: false,
    };
    const published: GraphInput[] = [
      { kind: 'Schema', name: 'orders', generation: 1, spec: schema().spec },
      { kind: 'Relay', name: 'orders', generation: 1, spec: relaySpec },
    ];
    const changed = relay('orders', 'orders', 2);
    const result = plan(
      [schema(), changed, relay('audit')],
      published,
      new Map([
        ['Relay/orders', held],
        ['Relay/audit', held],
      ]),
    );
    assert.equal(result.outcomes.get('Relay/orders')?.state, 'held');
    assert.deepEqual(result.inputs.map((i) => `${i.kind}/${i.name}@${i.generation}`).sort(), [
      'Relay/orders@1',
      'Schema/orders@1',
    ]);
  });
});

function cluster2(kind: string, name: string, spec: unknown): ClusterObject {
  return { ...schema(name), kind, spec };
}

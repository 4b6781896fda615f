import assert from 'node:assert/strict';
import { compileCase, object, table } from '../../test/fixtures/compile-cases.js';
import { RULE_VIOLATIONS, violatingObject } from '../../test/fixtures/rule-violations.js';
import type { GraphObject } from '../api/index.js';

const broken = (document: unknown): GraphObject => document as GraphObject;

describe('check-objects: single-object checks run again on what the compiler is given', () => {
  table([
    {
      name: 'structure, rules, a foreign document and a duplicate; the rest still compiles',
      objects: [
        broken({
          apiVersion: 'streamroute.io/v1alpha1',
          kind: 'Relay',
          metadata: { name: 'no-schema' },
          spec: { branching: 'UNBRANCHED' },
        }),
        broken({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm' } }),
        object('Relay', 'orders', { schema: 'line', branching: 'UNBRANCHED' }),
        object('Codec', 'both', {
          from: 'JSON',
          schema: 'orders',
          wireSchema: 'orders-wire',
          jaq: { ingestion: '.' },
        }),
      ],
      expect: [
        { code: 'SR1012', object: 'Relay/no-schema', path: 'spec.schema', message: 'is required' },
        {
          code: 'SR1011',
          object: 'ConfigMap/cm',
          path: 'apiVersion',
          message: 'is not a streamroute resource',
        },
        {
          code: 'SR1014',
          object: 'Relay/orders',
          path: 'metadata.name',
          message: 'is declared more than once',
        },
        {
          code: 'SR1013',
          object: 'Codec/both',
          path: 'spec.wireSchema',
          message: 'wireSchema is required with from WIRE_JSON and not allowed otherwise',
        },
      ],
      inGraph: ['relays/lines', 'codecs/orders-json'],
    },
  ]);
});

describe('check-objects: what is judged, and in which domain', () => {
  const correlator = (spec: Record<string, unknown>) =>
    broken({
      apiVersion: 'streamroute.io/v1alpha1',
      kind: 'Correlator',
      metadata: { name: 'c' },
      spec: {
        left: 'orders',
        right: 'orders',
        where: "left.order_id = right.order_id AND input.order_id = 'x'",
        match: 'LATEST',
        maxTime: '0s',
        onTimeout: { left: { action: 'DROP' }, right: { action: 'DROP' } },
        branching: 'UNBRANCHED',
        routes: [
          {
            to: 'orders',
            inheritAll: true,
            set: [{ field: 'order_id', value: 'left.order_id' }],
            branching: 'UNBRANCHED',
            flush: 'IMMEDIATE',
            onMessageError: { action: 'LOG' },
          },
        ],
        ...spec,
      },
    });

  table([
    {
      name: 'an object failing only rules and literals is still judged by every pass, and rejected',
      objects: [correlator({})],
      expect: [
        {
          code: 'SR1012',
          object: 'Correlator/c',
          path: 'spec.maxTime',
          message: 'does not match',
        },
        {
          code: 'SR2020',
          object: 'Correlator/c',
          path: 'spec.routes[0].inheritAll',
          message: 'INHERIT is rejected',
        },
        {
          code: 'SR2008',
          object: 'Correlator/c',
          path: 'spec.where',
          message: 'input.order_id: the input. scope is not available here',
        },
        { code: 'SR2004', object: 'Correlator/c', path: 'spec.routes[0]', message: 'field amount' },
      ],
    },
    {
      name: 'a structurally broken object is rejected without being judged further; its dependents wait',
      objects: [
        broken({
          apiVersion: 'streamroute.io/v1alpha1',
          kind: 'Schema',
          metadata: { name: 'typo' },
          spec: { fields: [{ name: 'a', type: 'STRNG' }] },
        }),
        object('Relay', 'r', { schema: 'typo', branching: 'UNBRANCHED' }),
      ],
      expect: [
        { code: 'SR1012', object: 'Schema/typo', path: 'spec.fields[0].type', message: 'STRNG' },
        {
          code: 'SR2061',
          object: 'Relay/r',
          path: 'spec.schema',
          message: 'Relay r waits for Schema typo, which is rejected',
        },
      ],
    },
  ]);

  it('rejects the object that fails only rules, and never lowers it', () => {
    const result = compileCase({ objects: [correlator({})] });
    assert.equal(result.verdicts.get('Correlator/c')?.status, 'rejected');
    assert.deepEqual(result.graph.correlators, {});
  });

  it('leaves out an object of another namespace with a warning (SR1017); the domain’s namespace is the domain', () => {
    const inNamespace = (namespace: string, name: string) => ({
      ...object('Relay', name, { schema: 'orders', branching: 'UNBRANCHED' }),
      metadata: { name, namespace },
    });
    const result = compileCase({
      objects: [
        inNamespace('other', 'elsewhere'),
        inNamespace('shop', 'here'),
        inNamespace('shop', 'orders'),
      ],
    });
    assert.deepEqual(
      result.diagnostics.map((d) => `${d.severity} ${d.code} ${d.object?.kind}/${d.object?.name}`),
      ['warning SR1017 Relay/elsewhere', 'error SR1014 Relay/orders'],
    );
    assert.match(result.diagnostics[0]?.message ?? '', /is in namespace "other", not in domain shop/);
    assert.equal(result.verdicts.has('Relay/elsewhere'), false);
    assert.equal(result.verdicts.get('Relay/here')?.status, 'accepted');
  });
});

describe('check-objects: an object failing a rule is judged by every pass without a throw', () => {
  for (const violation of RULE_VIOLATIONS) {
    it(`${violation.kind}: ${violation.message}`, () => {
      const result = compileCase({ objects: [broken(violatingObject(violation))] });
      assert.equal(result.verdicts.get(`${violation.kind}/broken`)?.status, 'rejected');
      assert.ok(
        result.diagnostics.some((d) => d.path === violation.path && d.message === violation.message),
        result.diagnostics.map((d) => d.message).join('\n'),
      );
    });
  }
});

describe('check-objects: the identifier annotation (decision 0025)', () => {
  const relay = (name: string, identifier: string) =>
    broken({
      apiVersion: 'streamroute.io/v1alpha1',
      kind: 'Relay',
      metadata: { name, annotations: { 'streamroute.io/identifier': identifier } },
      spec: { schema: 'missing-rows', branching: 'UNBRANCHED' },
    });

  it('an annotation that does not name its object is SR1019, a warning; the object is shown by its name', () => {
    const result = compileCase({
      objects: [relay('copied', 'Orders_In'), relay('kept-as-typed', 'Kept_As_Typed')],
    });
    const warnings = result.diagnostics.filter((d) => d.code === 'SR1019');
    assert.deepEqual(
      warnings.map((d) => [d.severity, d.object, d.path]),
      [['warning', { kind: 'Relay', name: 'copied' }, 'metadata.annotations.streamroute.io/identifier']],
    );
    const dangling = result.diagnostics.filter((d) => d.code === 'SR2001').map((d) => d.message);
    assert.deepEqual(dangling, [
      'Relay copied refers to Schema missing-rows, which does not exist in domain shop; create it or fix the name',
      'Relay Kept_As_Typed refers to Schema missing_rows, which does not exist in domain shop; create it or fix the name',
    ]);
  });
});

import assert from 'node:assert/strict';
import { parseScript } from '../language/parse.js';
import { statementsToObjects } from '../language/convert.js';
import type { DomainObjects, ListedObject } from './cluster-objects.js';
import { idOf, toGraphObject } from './cluster-objects.js';
import { planScript, type ScriptPlan } from './plan-script.js';
import { resourceFilesOf } from './resource-versions.js';
import { prepareCompileAll } from '../compiler/index.js';
import { validatePlan } from './validate-plan.js';

const NS = 'shop';

/** A namespace holding the objects these statements declare, as the API lists them. */
function domainOf(statements: string): DomainObjects {
  const converted = statementsToObjects(parseScript(statements).statements, { namespace: NS });
  const listed = new Map<string, ListedObject>();
  for (const object of converted.objects) {
    listed.set(idOf(object), {
      ...object,
      metadata: { ...object.metadata, managedFields: [{ manager: 'kubectl' }] },
    } as ListedObject);
  }
  return { namespace: NS, listed, versions: [] };
}

function plan(
  domain: DomainObjects,
  script: string,
  uploads: { resource: string; directory: string; files: { path: string; content: Buffer }[] }[] = [],
) {
  const parsed = parseScript(script, '-c');
  return planScript(domain, parsed.statements, { uploads, reported: parsed.diagnostics });
}

function planned(
  domain: DomainObjects,
  script: string,
  uploads: Parameters<typeof plan>[2] = [],
): ScriptPlan {
  const result = plan(domain, script, uploads);
  if (!result.ok) assert.fail(result.diagnostics.join('\n'));
  return result.plan;
}

function validate(domain: DomainObjects, script: ScriptPlan) {
  const changed = new Set(
    script.steps.flatMap((step) => (step.type === 'apply' ? step.objects.map(idOf) : [])),
  );
  return validatePlan({
    namespace: NS,
    before: [...domain.listed.values()].map(toGraphObject),
    after: script.after,
    changed,
    resourcesBefore: resourceFilesOf(domain.versions),
    resourcesAfter: resourceFilesOf(domain.versions, script.pending),
    sourceMap: script.sourceMap,
    reported: script.reported,
    inText: (location) => location.file === '-c',
  });
}

const EXISTING = 'CREATE SCHEMA orders (order_id STRING); CREATE RELAY orders SCHEMA orders UNBRANCHED;';

before(() => prepareCompileAll());

describe('planning statements over the objects of a namespace', () => {
  it('refuses CREATE of an object the namespace holds, as the node does (SR1014)', () => {
    const result = plan(domainOf(EXISTING), 'CREATE RELAY orders SCHEMA orders UNBRANCHED;');
    assert.equal(result.ok, false);
    assert.match(
      result.ok ? '' : (result.diagnostics[0] ?? ''),
      /^-c:1:14: error SR1014: .*already exists in domain shop/,
    );
  });

  it('overlays OR REPLACE and ALTER on the listed objects, one apply step per autocommit statement', () => {
    const script = planned(
      domainOf(EXISTING),
      'CREATE OR REPLACE RELAY orders SCHEMA orders UNBRANCHED; DROP RELAY orders;',
    );
    assert.deepEqual(
      script.steps.map((step) =>
        step.type === 'apply' ? [step.objects.map(idOf), step.drops, step.transaction] : step.type,
      ),
      [
        [['Relay/orders'], [], false],
        [[], [{ kind: 'Relay', name: 'orders' }], false],
      ],
    );
    assert.deepEqual(script.after.map(idOf), ['Schema/orders']);
  });

  it('collects a transaction into one step: its applies, then the drops of objects that existed before it', () => {
    const script = planned(
      domainOf(EXISTING),
      'BEGIN; DROP RELAY orders; CREATE SCHEMA tmp (x STRING); DROP SCHEMA tmp; CREATE RELAY lines SCHEMA orders UNBRANCHED; COMMIT;',
    );
    assert.equal(script.steps.length, 1);
    const [step] = script.steps;
    assert.ok(step?.type === 'apply');
    assert.deepEqual(step.objects.map(idOf), ['Relay/lines']);
    assert.deepEqual(step.drops, [{ kind: 'Relay', name: 'orders' }]);
    assert.equal(step.transaction, true);
  });

  it('drops nothing of a rolled-back batch, and refuses a BEGIN never closed', () => {
    assert.deepEqual(planned(domainOf(EXISTING), 'BEGIN; DROP RELAY orders; ROLLBACK;').steps, []);
    const open = plan(domainOf(EXISTING), 'BEGIN; DROP RELAY orders;');
    assert.match(open.ok ? '' : open.diagnostics.join(), /-c:1:1: error SR1008: this BEGIN is never closed/);
  });

  it('gives an upload the next version and binds VERSION LATEST after it to that number', () => {
    const files = [
      {
        path: 'x.proto',
        content: Buffer.from('syntax = "proto3"; package p; message M { string order_id = 1; }'),
      },
    ];
    const script = planned(
      domainOf('CREATE RESOURCE protos; CREATE SCHEMA orders (order_id STRING);'),
      `UPLOAD RESOURCE protos VERSION 'dir';
       CREATE CODEC pb FROM PROTOBUF USING RESOURCE protos VERSION LATEST CONFIG { 'file' = 'x.proto', 'include' = '.' } MESSAGE 'p.M' TO SCHEMA orders
         WITH JAQ TRANSFORMATIONS ON INGESTION '{order_id}' ON EMITTING '.';`,
      [{ resource: 'protos', directory: 'dir', files }],
    );
    assert.deepEqual(
      script.steps.map((step) => step.type),
      ['upload', 'apply'],
    );
    assert.equal(script.steps[0]?.type === 'upload' && script.steps[0].predicted, 1);
    const codec = script.after.find((object) => object.kind === 'Codec');
    assert.deepEqual(codec?.kind === 'Codec' && codec.spec.protobuf?.using, {
      resource: 'protos',
      version: 1,
    });
    assert.equal(
      validate(domainOf('CREATE RESOURCE protos; CREATE SCHEMA orders (order_id STRING);'), script).ok,
      true,
    );
  });

  it('refuses an upload for a Resource that does not exist', () => {
    const result = plan(domainOf(''), "UPLOAD RESOURCE protos VERSION 'dir';", [
      { resource: 'protos', directory: 'dir', files: [] },
    ]);
    assert.match(
      result.ok ? '' : result.diagnostics.join(),
      /there is no Resource protos in domain shop; run CREATE RESOURCE protos first/,
    );
  });
});

describe('validating a plan against the namespace', () => {
  it('refuses a change whose objects are not accepted, with the statement location', () => {
    const domain = domainOf(EXISTING);
    const result = validate(domain, planned(domain, 'CREATE RELAY lines SCHEMA nope UNBRANCHED;'));
    assert.equal(result.ok, false);
    assert.match(result.diagnostics.join('\n'), /^-c:1:\d+: error SR\d{4}: Relay lines .*nope/m);
  });

  it('refuses a DROP that leaves an accepted object waiting', () => {
    const domain = domainOf(EXISTING);
    const result = validate(domain, planned(domain, 'DROP SCHEMA orders;'));
    assert.equal(result.ok, false);
    assert.match(result.diagnostics.join('\n'), /Relay orders/);
  });

  it('is not blocked by objects the namespace already holds broken', () => {
    const domain = domainOf(
      'CREATE RELAY broken SCHEMA missing UNBRANCHED; CREATE SCHEMA orders (order_id STRING);',
    );
    const result = validate(domain, planned(domain, 'CREATE RELAY lines SCHEMA orders UNBRANCHED;'));
    assert.deepEqual(result, { ok: true, diagnostics: [] });
  });
});

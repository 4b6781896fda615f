// The CRDs on a real kube-apiserver: they become Established, the resources converted from the examples
// are accepted (create, then server-side apply), and each CEL rule rejects what its twin rejects, with
// the same message.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { KubernetesObject } from '@kubernetes/client-node';
import { statementsToObjects } from '../../operator/language/convert.js';
import { parseScript } from '../../operator/language/parse.js';
import { requireKubeOrSkip, sharedKubeApiServer } from '../support/kube-apiserver.js';
import {
  apiFailure,
  createNamespace,
  installCrds,
  kubeClients,
  serverSideApply,
  type KubeClients,
} from '../support/kube-client.js';
import { RULE_VIOLATIONS, violatingObject } from '../fixtures/rule-violations.js';
import { validObject } from '../fixtures/valid-objects.js';
import { GRAPH_KINDS } from '../../operator/api/index.js';
import { getTable } from '../support/kube-client.js';

const EXAMPLES = join(import.meta.dirname, '..', '..', 'examples');

function exampleObjects(directory: string): KubernetesObject[] {
  const files = readdirSync(directory)
    .filter((file) => file.endsWith('.sql'))
    .sort();
  const text = files.map((file) => readFileSync(join(directory, file), 'utf8')).join('\n');
  const parsed = parseScript(text);
  const converted = statementsToObjects(parsed.statements, {});
  assert.deepEqual(
    [...parsed.diagnostics, ...converted.diagnostics].filter((d) => d.severity === 'error'),
    [],
  );
  return converted.objects;
}

describe('CRDs on a real kube-apiserver', function () {
  this.timeout(120_000);
  let clients: KubeClients;

  before(async function () {
    await requireKubeOrSkip(this);
    const server = await sharedKubeApiServer();
    clients = kubeClients(server);
    const names = await installCrds(clients);
    assert.equal(names.length, 16);
  });

  for (const example of ['quickstart', 'full', 'kubernetes']) {
    it(`accepts the resources converted from examples/${example} (create, then server-side apply)`, async () => {
      const namespace = `example-${example}`;
      await createNamespace(clients, namespace);
      const objects = exampleObjects(join(EXAMPLES, example));
      assert.ok(objects.length > 0);
      for (const object of objects) {
        const placed = { ...object, metadata: { ...object.metadata, namespace } };
        await clients.objects.create(placed);
        const applied = await serverSideApply(clients, placed);
        assert.deepEqual(
          (applied as { spec?: unknown }).spec,
          (object as { spec?: unknown }).spec,
          object.metadata?.name,
        );
      }
    });
  }

  describe('printer columns', () => {
    // Its own namespace and objects: this must not depend on what an earlier test created.
    const namespace = 'printer-columns';
    before(async () => {
      await createNamespace(clients, namespace);
      for (const object of exampleObjects(join(EXAMPLES, 'full'))) {
        await clients.objects.create({ ...object, metadata: { ...object.metadata, namespace } });
      }
    });

    it('serves the printer columns kubectl get shows, filled for the example objects', async () => {
      for (const definition of GRAPH_KINDS) {
        const table = await getTable(
          clients.server,
          `/apis/streamroute.io/v1alpha1/namespaces/${namespace}/${definition.plural}`,
        );
        const columns = table.columnDefinitions.map((column) => column.name);
        assert.deepEqual(
          columns,
          ['Name', ...definition.printerColumns.map((column) => column.name)],
          definition.kind,
        );
        assert.ok(table.rows.length > 0, `examples/full has no ${definition.kind}`);
        // The first spec column (e.g. Codec's From) is filled for every row.
        const firstSpecColumn = definition.printerColumns.findIndex((column) =>
          column.jsonPath.startsWith('.spec'),
        );
        if (firstSpecColumn >= 0) {
          for (const row of table.rows) assert.notEqual(row.cells[firstSpecColumn + 1], '', definition.kind);
        }
      }
    });
  });

  describe('CEL rules reject what their TypeScript twins reject', () => {
    before(() => createNamespace(clients, 'rules'));
    RULE_VIOLATIONS.forEach((violation, index) => {
      it(violation.message, async () => {
        const object = violatingObject(violation, `broken-${index}`);
        const placed = {
          ...object,
          metadata: { name: `broken-${index}`, namespace: 'rules' },
        } as KubernetesObject;
        const failure = await clients.objects.create(placed).then(
          () => assert.fail('the API server accepted an object that breaks the rule'),
          (error: unknown) => apiFailure(error),
        );
        assert.equal(failure.code, 422);
        // The same message at the same field as the twin: `spec.config.tlsKeyFile: Invalid value: …`.
        assert.ok(failure.message.includes(`${violation.path}: `), failure.message);
        assert.ok(failure.message.includes(violation.message), failure.message);
      });
    });

    it('compares retry durations as durations, across units (1500ms is shorter than 2s)', async () => {
      const object = validObject('Emitter', 'retry-units');
      object.spec.retry = { backoff: '1500ms', max: '2s' };
      const placed = { ...object, metadata: { name: 'retry-units', namespace: 'rules' } };
      await clients.objects.create(placed);
    });
  });
});

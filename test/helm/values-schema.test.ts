// charts/streamroute/values.schema.json: every object is closed, so a mistyped key fails `helm template`
// and `helm install` with the key and its path; and it names exactly the keys values.yaml has.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { parse } from 'yaml';
import { requireKubeOrSkip, sharedKubeApiServer } from '../support/kube-apiserver.js';
import { kubeClients } from '../support/kube-client.js';
import { CHART_DIR, helmFailure, requireHelmOrSkip, runHelm, templateFailure } from '../support/helm.js';
import {
  closedObjects,
  closedObjectViolations,
  keyMismatches,
  valuePaths,
  type JsonSchema,
} from './schema-walk.js';

type Values = Record<string, unknown>;

const SCHEMA = JSON.parse(readFileSync(join(CHART_DIR, 'values.schema.json'), 'utf8')) as JsonSchema;
const VALUES = parse(readFileSync(join(CHART_DIR, 'values.yaml'), 'utf8')) as Values;

/** The values with `key: true` added to the object at `path` (the root when empty). */
function withKey(path: readonly string[], key: string): Values {
  const values: Values = {};
  let at = values;
  for (const segment of path) at = at[segment] = {};
  at[key] = true;
  return values;
}

/** How helm names an object in a schema error: `/dataplane/startupProbe`, or '' for the root. */
const pointer = (path: readonly string[]) => path.map((segment) => `/${segment}`).join('');

/** A typo of `key`: one edit of the kinds people make (case, a letter dropped, doubled or swapped). */
function mistype(key: string, kind: number, at: number): string {
  const i = at % key.length;
  const edits = [
    () => key.slice(0, i) + key.charAt(i).toUpperCase() + key.slice(i + 1),
    () => key.slice(0, i) + key.charAt(i).toLowerCase() + key.slice(i + 1),
    () => key.slice(0, i) + key.slice(i + 1),
    () => key.slice(0, i) + key.charAt(i) + key.slice(i),
    () => key.slice(0, i) + key.charAt(i + 1) + key.charAt(i) + key.slice(i + 2),
    () => `${key}s`,
  ];
  return edits[kind % edits.length]!();
}

describe('values.schema.json (real helm)', function () {
  this.timeout(120_000);

  before(async function () {
    await requireHelmOrSkip(this);
  });

  it('closes every object: additionalProperties false, or a map with a schema for its values', () => {
    assert.deepEqual(closedObjectViolations(SCHEMA), []);
  });

  it('names exactly the keys of values.yaml (Kubernetes types: at least those values.yaml sets)', () => {
    assert.deepEqual(keyMismatches(SCHEMA, VALUES), []);
  });

  it('is documented value by value in docs/kubernetes.md, and the docs name no value it lacks', () => {
    const doc = readFileSync(join(CHART_DIR, '..', '..', 'docs', 'kubernetes.md'), 'utf8');
    const values = doc.split('\n## Values\n')[1]?.split('\n## ')[0] ?? '';
    const rows = [...values.matchAll(/^\| `([A-Za-z.]+)` \|/gm)].map((match) => match[1]!);
    assert.deepEqual([...rows].sort(), valuePaths(SCHEMA, VALUES).sort());
  });

  it('refuses an unknown key in each object of values.yaml, naming the key and where it is', async () => {
    const paths = closedObjects(SCHEMA, VALUES).map((object) => object.path);
    assert.ok(paths.length >= 18, `objects found: ${paths.map((path) => pointer(path)).join(' ')}`);
    // One render with a stray key in every object at once: helm reports every violation.
    const values: Values = {};
    for (const path of paths) {
      let at = values;
      for (const segment of path) at = (at[segment] ??= {}) as Values;
      at['typo'] = 1;
    }
    const failure = await templateFailure(values);
    for (const path of paths)
      assert.ok(
        failure.includes(`at '${pointer(path)}': additional properties 'typo' not allowed`),
        `${pointer(path) || '/'} not named in:\n${failure}`,
      );
  });

  it('refuses any one-edit typo of a key, anywhere in values.yaml (generated)', async () => {
    const objects = closedObjects(SCHEMA, VALUES).filter((object) => object.valueKeys.length > 0);
    const typos = fc
      .record({ object: fc.constantFrom(...objects), key: fc.nat(), kind: fc.nat(), at: fc.nat() })
      .map(({ object, key, kind, at }) => ({
        path: object.path,
        typo: mistype(object.valueKeys[key % object.valueKeys.length]!, kind, at),
        allowed: object.schemaKeys,
      }))
      .filter(({ typo, allowed }) => typo !== '' && !allowed.includes(typo));
    await fc.assert(
      fc.asyncProperty(typos, async ({ path, typo }) => {
        const failure = await templateFailure(withKey(path, typo));
        assert.ok(
          failure.includes(`at '${pointer(path)}': additional properties '${typo}' not allowed`),
          failure,
        );
      }),
      { numRuns: 12 },
    );
  });

  it('refuses a typo inside a Kubernetes type (an EnvVar, a toleration, affinity, resources)', async () => {
    const failure = await templateFailure({
      operator: {
        extraEnv: [{ name: 'A', valuefrom: { fieldRef: { fieldPath: 'spec.nodeName' } } }],
        tolerations: [{ operator: 'Exists', efect: 'NoSchedule' }],
        affinity: { nodeAfinity: {} },
      },
      dataplane: { resources: { limit: { memory: '1Gi' } } },
    });
    assert.match(failure, /at '\/operator\/extraEnv\/0': additional properties 'valuefrom' not allowed/);
    assert.match(failure, /at '\/operator\/tolerations\/0': additional properties 'efect' not allowed/);
    assert.match(failure, /at '\/operator\/affinity': additional properties 'nodeAfinity' not allowed/);
    assert.match(failure, /at '\/dataplane\/resources': additional properties 'limit' not allowed/);
  });

  it('refuses a quantity Kubernetes would refuse (128MB)', async () => {
    const failure = await templateFailure({ operator: { resources: { limits: { memory: '128MB' } } } });
    assert.match(failure, /at '\/operator\/resources\/limits\/memory'/);
  });

  it('passes helm lint --strict with every optional part on', async () => {
    const values = {
      networkPolicy: { enabled: true },
      metrics: {
        serviceMonitor: { enabled: true, interval: '30s', scrapeTimeout: '10s', labels: { a: 'b' } },
      },
      operator: { logLevel: 'debug', extraArgs: ['--qps', 100], extraEnv: [{ name: 'A', value: 'b' }] },
      dataplane: { logLevel: 'warn', extraArgs: ['--max-connections=5000'], hostNetwork: false },
    };
    const { stdout } = await runHelm(['lint', '--strict', CHART_DIR], values);
    assert.match(stdout, /1 chart\(s\) linted, 0 chart\(s\) failed/);
  });

  it('makes `helm install` against a real API server fail on a mistyped key, before anything is created', async function () {
    await requireKubeOrSkip(this);
    const server = await sharedKubeApiServer();
    const install = ['install', 'typo-check', CHART_DIR, '--kubeconfig', server.kubeconfigPath];
    const failure = await helmFailure([...install, '--namespace', 'default'], {
      dataplane: { hostnetwork: false },
    });
    assert.match(failure, /INSTALLATION FAILED: values don't meet the specifications of the schema/);
    assert.match(failure, /at '\/dataplane': additional properties 'hostnetwork' not allowed/);
    // Helm keeps a release in a Secret named after it: none was written.
    const secrets = await kubeClients(server).core.listNamespacedSecret({ namespace: 'default' });
    assert.deepEqual(
      secrets.items.filter((secret) => secret.metadata?.name?.includes('typo-check')),
      [],
    );
  });
});

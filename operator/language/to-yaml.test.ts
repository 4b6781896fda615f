import assert from 'node:assert/strict';
import { parseAllDocuments } from 'yaml';
import { API_VERSION, type GraphKind, type GraphObject, type SpecByKind } from '../api/index.js';
import { KIND_EXAMPLES } from './example-objects.js';
import { objectsToYaml } from './to-yaml.js';
import { loadYamlObjects } from './yaml-input.js';

function object<K extends GraphKind>(kind: K, name: string, spec: SpecByKind[K]): GraphObject<K> {
  return { apiVersion: API_VERSION, kind, metadata: { name }, spec };
}

const codec = (ingestion: string, emitting?: string) =>
  object('Codec', 'c', {
    from: 'JSON',
    schema: 's',
    jaq: emitting === undefined ? { ingestion } : { ingestion, emitting },
  });

/** What YAML 1.1 (kubectl) and YAML 1.2 (our loader) read from the text. */
function readBoth(yaml: string): { v11: unknown[]; v12: unknown[] } {
  return {
    v11: parseAllDocuments(yaml, { version: '1.1' }).map((document) => document.toJS() as unknown),
    v12: parseAllDocuments(yaml, { schema: 'core' }).map((document) => document.toJS() as unknown),
  };
}

describe('objectsToYaml', () => {
  it('writes apiVersion, kind, metadata, spec, and spec keys in the schema’s order', () => {
    const relay = {
      spec: { branching: 'UNBRANCHED', schema: 'orders' },
      metadata: { namespace: 'shop', name: 'orders' },
      kind: 'Relay',
      apiVersion: API_VERSION,
    } as GraphObject<'Relay'>;
    assert.equal(
      objectsToYaml([relay]),
      [
        `apiVersion: ${API_VERSION}`,
        'kind: Relay',
        'metadata:',
        '  name: orders',
        '  namespace: shop',
        'spec:',
        '  schema: orders',
        '  branching: UNBRANCHED',
        '',
      ].join('\n'),
    );
  });

  it('orders nested keys by the schema too (routes, error policies)', () => {
    const yaml = objectsToYaml([KIND_EXAMPLES.HttpIngestor]);
    const keys = [...yaml.matchAll(/^ *-? *([A-Za-z]+):/gm)].map((match) => match[1]);
    assert.deepEqual(keys.slice(keys.indexOf('routes') + 1, keys.indexOf('onGeneralError')), [
      'to',
      'inheritAll',
      'branching',
      'flush',
      'onMessageError',
      'action',
      'relay',
      'set',
      'field',
      'value',
      'field',
      'value',
    ]);
  });

  it('separates documents with ---', () => {
    const yaml = objectsToYaml(Object.values(KIND_EXAMPLES));
    assert.equal(yaml.split(/^---$/m).length, Object.keys(KIND_EXAMPLES).length);
    assert.equal(objectsToYaml([]), '');
  });

  it('writes multi-line JAQ programs as literal block scalars that read back exactly', () => {
    const programs = ['.orders[]\n| {id: .id}', '.a\n', '  .indented\n.b\n\n', '.a \n.b\t', '.x\n\n\n'];
    for (const program of programs) {
      const yaml = objectsToYaml([codec(program)]);
      assert.match(yaml, /ingestion: \|/, `block scalar for ${JSON.stringify(program)}`);
      const { v11, v12 } = readBoth(yaml);
      assert.deepEqual(v12, [codec(program)]);
      assert.deepEqual(v11, [codec(program)]);
    }
  });

  it('falls back to a quoted scalar when a block scalar could not hold the text exactly', () => {
    const program = '.a\r\n.b';
    const yaml = objectsToYaml([codec(program)]);
    assert.deepEqual(readBoth(yaml).v12, [codec(program)]);
  });

  it('quotes strings that YAML 1.1 (kubectl) or YAML 1.2 would read as something else', () => {
    for (const tricky of ['yes', 'on', 'No', '0777', '0o17', '1_000', '.inf', 'null', '~', '12:30:00', '']) {
      const yaml = objectsToYaml([codec('.', tricky)]);
      const { v11, v12 } = readBoth(yaml);
      assert.deepEqual(v12, [codec('.', tricky)], `YAML 1.2 reading of ${JSON.stringify(tricky)}`);
      assert.deepEqual(v11, [codec('.', tricky)], `YAML 1.1 reading of ${JSON.stringify(tricky)}`);
    }
  });

  it('never writes anchors or aliases, even for shared values', () => {
    const policy = { action: 'LOG' } as const;
    const route = {
      to: 'r',
      inheritAll: true,
      branching: 'UNBRANCHED',
      flush: 'IMMEDIATE',
      onMessageError: policy,
    } as const;
    const junction = object('Junction', 'j', { from: ['a', 'b'], routes: [route, route] });
    const yaml = objectsToYaml([junction]);
    assert.doesNotMatch(yaml, /[&*]\w/);
  });

  it('leaves out status and the metadata the API server owns', () => {
    const relay: GraphObject = {
      ...KIND_EXAMPLES.Relay,
      metadata: {
        name: 'orders',
        labels: { team: 'shop' },
        resourceVersion: '42',
        uid: 'u-1',
        generation: 3,
      },
      status: { observedGeneration: 3 },
    };
    const [read] = readBoth(objectsToYaml([relay])).v12 as GraphObject[];
    assert.deepEqual(read, {
      ...KIND_EXAMPLES.Relay,
      metadata: { name: 'orders', labels: { team: 'shop' } },
    });
  });

  it('loads back into the same objects', () => {
    const objects = Object.values(KIND_EXAMPLES) as GraphObject[];
    const loaded = loadYamlObjects(objectsToYaml(objects));
    assert.deepEqual(loaded.diagnostics, []);
    assert.deepEqual(loaded.objects, objects);
  });
});

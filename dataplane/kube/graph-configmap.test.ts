import assert from 'node:assert/strict';
import { gzipSync } from 'node:zlib';
import { decodeGraphConfigMap, decodeIndex, sha256Hex, type ConfigMap } from './graph-configmap.js';

const GRAPH = { apiVersion: 'streamroute.io/graph/v1', domain: 'shop', relays: { orders: {} } };
const TEXT = JSON.stringify(GRAPH);

function configMap(fields: Partial<ConfigMap> & { annotations?: Record<string, string> }): ConfigMap {
  const { annotations, ...rest } = fields;
  return {
    metadata: { name: 'streamroute-graph-v3', namespace: 'shop', ...(annotations ? { annotations } : {}) },
    ...rest,
  };
}

describe('decodeGraphConfigMap', () => {
  it('decodes data["graph.json"] (encoding json) and checks its sha256', () => {
    const decoded = decodeGraphConfigMap(
      configMap({
        data: { 'graph.json': TEXT },
        annotations: {
          'streamroute.io/sha256': sha256Hex(Buffer.from(TEXT)),
          'streamroute.io/encoding': 'json',
        },
      }),
    );
    assert.ok(decoded.ok);
    assert.deepEqual(decoded.value.json, GRAPH);
    assert.equal(decoded.value.encoding, 'json');
    assert.equal(decoded.value.jsonBytes, Buffer.byteLength(TEXT));
    assert.equal(decoded.value.storedBytes, Buffer.byteLength(TEXT));
  });

  it('gunzips binaryData["graph.json.gz"] (encoding gzip); the sha256 is of the JSON before compression', () => {
    const gz = gzipSync(Buffer.from(TEXT));
    const decoded = decodeGraphConfigMap(
      configMap({
        binaryData: { 'graph.json.gz': gz.toString('base64') },
        annotations: {
          'streamroute.io/sha256': sha256Hex(Buffer.from(TEXT)),
          'streamroute.io/encoding': 'gzip',
        },
      }),
    );
    assert.ok(decoded.ok);
    assert.deepEqual(decoded.value.json, GRAPH);
    assert.equal(decoded.value.encoding, 'gzip');
    assert.equal(decoded.value.storedBytes, gz.length);
    assert.equal(decoded.value.jsonBytes, Buffer.byteLength(TEXT));
  });

  it('refuses a sha256 mismatch with an error naming the object and both hashes, not the content', () => {
    const wrong = sha256Hex(Buffer.from('something else'));
    const decoded = decodeGraphConfigMap(
      configMap({ data: { 'graph.json': TEXT }, annotations: { 'streamroute.io/sha256': wrong } }),
    );
    assert.ok(!decoded.ok);
    assert.match(decoded.error, /^ConfigMap shop\/streamroute-graph-v3: sha256 mismatch/);
    assert.ok(decoded.error.includes(wrong));
    assert.ok(decoded.error.includes(sha256Hex(Buffer.from(TEXT))));
    assert.ok(!decoded.error.includes('orders'), 'no graph content in the error');
  });

  it('refuses a gzip payload whose sha256 does not match the uncompressed JSON', () => {
    const gz = gzipSync(Buffer.from(TEXT));
    const decoded = decodeGraphConfigMap(
      configMap({
        binaryData: { 'graph.json.gz': gz.toString('base64') },
        annotations: { 'streamroute.io/sha256': sha256Hex(gz), 'streamroute.io/encoding': 'gzip' },
      }),
    );
    assert.ok(!decoded.ok);
    assert.match(decoded.error, /sha256 mismatch/);
  });

  const sha = sha256Hex(Buffer.from(TEXT));
  for (const [title, object, expected] of [
    ['no sha256 annotation', configMap({ data: { 'graph.json': TEXT } }), /no valid streamroute.io\/sha256/],
    [
      'json without graph.json',
      configMap({ data: {}, annotations: { 'streamroute.io/sha256': sha } }),
      /has no data\["graph.json"\]/,
    ],
    [
      'gzip without graph.json.gz',
      configMap({ annotations: { 'streamroute.io/sha256': sha, 'streamroute.io/encoding': 'gzip' } }),
      /has no binaryData\["graph.json.gz"\]/,
    ],
    [
      'gzip that is not gzip',
      configMap({
        binaryData: { 'graph.json.gz': Buffer.from(TEXT).toString('base64') },
        annotations: { 'streamroute.io/sha256': sha, 'streamroute.io/encoding': 'gzip' },
      }),
      /is not a gzip stream/,
    ],
    [
      'an unknown encoding',
      configMap({
        data: { 'graph.json': TEXT },
        annotations: { 'streamroute.io/sha256': sha, 'streamroute.io/encoding': 'zstd' },
      }),
      /unknown streamroute.io\/encoding "zstd"/,
    ],
    [
      'JSON that does not parse',
      configMap({
        data: { 'graph.json': '{nope' },
        annotations: { 'streamroute.io/sha256': sha256Hex(Buffer.from('{nope')) },
      }),
      /graph.json is not valid JSON/,
    ],
  ] as const) {
    it(`refuses ${title}`, () => {
      const decoded = decodeGraphConfigMap(object);
      assert.ok(!decoded.ok);
      assert.match(decoded.error, expected);
    });
  }
});

describe('decodeIndex', () => {
  const index = (text: string): ConfigMap => ({
    metadata: { name: 'streamroute-index', namespace: 'streamroute-system' },
    data: { 'index.json': text },
  });

  it('reads every domain and its version', () => {
    const decoded = decodeIndex(
      index('{"domains":{"a":{"version":2,"sha256":"x"},"b":{"version":1,"sha256":"y"}}}'),
    );
    assert.ok(decoded.ok);
    assert.deepEqual(decoded.value, {
      domains: { a: { version: 2, sha256: 'x' }, b: { version: 1, sha256: 'y' } },
    });
  });

  for (const [text, expected] of [
    ['{', /not valid JSON/],
    ['{}', /no "domains" object/],
    ['{"domains":{"a":{"version":0,"sha256":"x"}}}', /domain "a" needs/],
    ['{"domains":{"a":{"version":1}}}', /domain "a" needs/],
  ] as const) {
    it(`refuses ${text}`, () => {
      const decoded = decodeIndex(index(text));
      assert.ok(!decoded.ok);
      assert.match(decoded.error, expected);
    });
  }
});

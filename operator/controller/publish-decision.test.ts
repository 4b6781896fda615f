import assert from 'node:assert/strict';
import { gunzipSync, gzipSync } from 'node:zlib';
import { randomBytes } from 'node:crypto';
import {
  ANNOTATION_ENCODING,
  ANNOTATION_SHA256,
  GRAPH_GZIP_KEY,
  GRAPH_JSON_KEY,
  GRAPH_SIZE_GUARD_BYTES,
} from '../../dataplane/kube/contract.js';
import { decodeGraphConfigMap } from '../../dataplane/kube/graph-configmap.js';
import { decodeInputs, encodeInputs, INPUTS_GZIP_KEY } from './graph-inputs.js';
import { decidePublish, parsePointer, pointerData, sha256Hex, versionsToPrune } from './publish-decision.js';

const inputs = encodeInputs([{ kind: 'Relay', name: 'r', generation: 2, spec: { schema: 's' } }]);
const graphJson = '{"apiVersion":"streamroute.io/graph/v1"}';

describe('decidePublish', () => {
  it('publishes version 1 of a new domain, immutable, with labels, sha256 and the inputs', () => {
    const decision = decidePublish({
      domain: 'shop',
      graphJson,
      inputs,
      head: undefined,
      pointer: undefined,
    });
    assert.equal(decision.action, 'publish');
    if (decision.action !== 'publish') return;
    assert.equal(decision.version, 1);
    assert.equal(decision.movePointer, true);
    const { configMap } = decision;
    assert.equal(configMap.metadata.name, 'streamroute-graph-v1');
    assert.equal(configMap.immutable, true);
    assert.deepEqual(configMap.metadata.labels, {
      'app.kubernetes.io/managed-by': 'streamroute',
      'app.kubernetes.io/component': 'graph',
      'streamroute.io/domain': 'shop',
      'streamroute.io/graph-version': '1',
    });
    assert.equal(configMap.metadata.annotations?.[ANNOTATION_SHA256], sha256Hex(graphJson));
    assert.equal(configMap.metadata.annotations?.[ANNOTATION_ENCODING], 'json');
    assert.equal(configMap.data?.[GRAPH_JSON_KEY], graphJson);
    assert.deepEqual([...decodeInputs(configMap.binaryData?.[INPUTS_GZIP_KEY]).keys()], ['Relay/r']);
    const decoded = decodeGraphConfigMap(configMap);
    assert.ok(decoded.ok);
  });

  it('publishes nothing when the graph equals the newest version', () => {
    const head = { version: 4, sha256: sha256Hex(graphJson) };
    const pointer = { version: 4, configMap: 'streamroute-graph-v4', sha256: head.sha256 };
    assert.equal(decidePublish({ domain: 'shop', graphJson, inputs, head, pointer }).action, 'unchanged');
  });

  it('numbers after the highest version and keeps the pointer at a pin', () => {
    const head = { version: 7, sha256: 'x' };
    const pointer = { version: 3, configMap: 'streamroute-graph-v3', sha256: 'y', pinned: 3 };
    const decision = decidePublish({ domain: 'shop', graphJson, inputs, head, pointer });
    assert.ok(decision.action === 'publish' && decision.version === 8 && !decision.movePointer);
    assert.equal(
      decidePublish({
        domain: 'shop',
        graphJson,
        inputs,
        head: { version: 7, sha256: sha256Hex(graphJson) },
        pointer,
      }).action,
      'unchanged',
    );
  });

  it('gzips a graph above 256 KiB into binaryData', () => {
    const big = JSON.stringify({ padding: 'a'.repeat(300 * 1024) });
    const decision = decidePublish({
      domain: 'shop',
      graphJson: big,
      inputs,
      head: undefined,
      pointer: undefined,
    });
    assert.ok(decision.action === 'publish');
    if (decision.action !== 'publish') return;
    assert.equal(decision.configMap.metadata.annotations?.[ANNOTATION_ENCODING], 'gzip');
    assert.equal(decision.configMap.data, undefined);
    const stored = Buffer.from(decision.configMap.binaryData?.[GRAPH_GZIP_KEY] ?? '', 'base64');
    assert.equal(gunzipSync(stored).toString('utf8'), big);
    assert.ok(decodeGraphConfigMap(decision.configMap).ok);
  });

  it('refuses a payload above the 900 KiB guard and says its size and the limit', () => {
    const noise = randomBytes(1024 * 1024).toString('base64'); // gzip shrinks base64 noise to about 1 MiB
    const decision = decidePublish({
      domain: 'shop',
      graphJson: JSON.stringify({ noise }),
      inputs,
      head: undefined,
      pointer: undefined,
    });
    assert.equal(decision.action, 'too-large');
    assert.ok(decision.action === 'too-large' && decision.bytes > GRAPH_SIZE_GUARD_BYTES);
    assert.ok(decision.action === 'too-large' && decision.limit === GRAPH_SIZE_GUARD_BYTES);
  });

  it('honours a lower guard', () => {
    const decision = decidePublish({
      domain: 'shop',
      graphJson,
      inputs,
      head: undefined,
      pointer: undefined,
      sizeGuardBytes: 10,
    });
    assert.equal(decision.action, 'too-large');
  });

  it('moves an unpinned pointer that names another version than the newest equal one', () => {
    const head = { version: 5, sha256: sha256Hex(graphJson) };
    const pointer = { version: 4, configMap: 'streamroute-graph-v4', sha256: 'old' };
    assert.deepEqual(decidePublish({ domain: 'shop', graphJson, inputs, head, pointer }), {
      action: 'repoint',
      sha256: head.sha256,
      version: 5,
    });
  });
});

describe('pointer and prune', () => {
  it('round-trips the pointer data, pin included', () => {
    const pointer = { version: 3, configMap: 'streamroute-graph-v3', sha256: 'abc', pinned: 2 };
    assert.deepEqual(parsePointer(pointerData(pointer)), pointer);
    assert.equal(parsePointer({ version: 'x' }), undefined);
    assert.equal(parsePointer(undefined), undefined);
  });

  it('keeps the newest K and never the pointed-at or pinned version', () => {
    const versions = [1, 2, 3, 4, 5, 6];
    assert.deepEqual(versionsToPrune(versions, 3, undefined), [3, 2, 1]);
    const pointer = { version: 2, configMap: 'streamroute-graph-v2', sha256: '', pinned: 1 };
    assert.deepEqual(versionsToPrune(versions, 3, pointer), [3]);
  });
});

describe('graph inputs', () => {
  it('encodes sorted, gzipped JSON and decodes it; garbage decodes to nothing', () => {
    const encoded = encodeInputs([
      { kind: 'Schema', name: 'b', generation: 1, spec: {} },
      { kind: 'Relay', name: 'a', generation: 2, spec: { schema: 'b' } },
    ]);
    assert.deepEqual([...decodeInputs(encoded.toString('base64')).keys()], ['Relay/a', 'Schema/b']);
    assert.equal(decodeInputs('bm90IGd6aXA=').size, 0);
    assert.equal(decodeInputs(gzipSync('{"x":1}').toString('base64')).size, 0);
  });
});

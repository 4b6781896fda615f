// Keys of the node's own inputs are data too: every name of Object.prototype put as a key at every object
// level of a statement request body and of a stored state.json (its objects and its graph) gives the
// answer any other unknown key gives — the request runs or is refused with a ControlError, the state loads
// or is refused with a DataDirError, the stored graph loads or is refused by the data plane's loader —
// never a TypeError from a lookup that found Object.prototype's member.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadGraph } from '../../dataplane/graph/load.js';
import { ControlError, parseStatementRequest } from '../../operator/node/control-request.js';
import { DataDirError } from '../../operator/node/data-dir-error.js';
import { exampleText, openTestNode, removeDir } from '../fixtures/embedded-node.js';

const PROTOTYPE_NAMES = Object.getOwnPropertyNames(Object.prototype);
const VALUES: unknown[] = [1, { a: 1 }, null];

/** Paths (as key lists) of every plain object inside `value`, itself included. */
function objectPaths(value: unknown, path: (string | number)[] = []): (string | number)[][] {
  if (Array.isArray(value)) return value.flatMap((item, index) => objectPaths(item, [...path, index]));
  if (typeof value !== 'object' || value === null) return [];
  return [path, ...Object.entries(value).flatMap(([key, item]) => objectPaths(item, [...path, key]))];
}

/** JSON text of `value` with `key` set to `injected` in the object at `path` (also `__proto__`, as JSON can). */
function injectedText(value: unknown, path: (string | number)[], key: string, injected: unknown): string {
  const copy = JSON.parse(JSON.stringify(value)) as Record<string | number, unknown>;
  const target = path.reduce<Record<string | number, unknown>>((at, step) => at[step] as typeof at, copy);
  Object.defineProperty(target, key, {
    value: injected,
    enumerable: true,
    writable: true,
    configurable: true,
  });
  return JSON.stringify(copy);
}

function* cases(value: unknown): Generator<[string, string]> {
  for (const path of objectPaths(value))
    for (const key of PROTOTYPE_NAMES)
      for (const injected of VALUES)
        yield [`${path.join('.')}.${key}`, injectedText(value, path, key, injected)];
}

describe('node inputs with keys that are names of Object.prototype (property)', function () {
  this.timeout(300_000);

  it('statement request bodies: parsed or refused with a ControlError, never a TypeError', () => {
    const body = {
      script: 'CREATE SCHEMA a (x STRING);',
      source: 'graph.sql',
      uploads: [{ resource: 'protos', directory: 'v1', files: [{ path: 'a.proto', base64: 'c3ludGF4' }] }],
    };
    let count = 0;
    for (const [where, text] of cases(body)) {
      count += 1;
      try {
        const request = parseStatementRequest(Buffer.from(text));
        assert.equal(request.script, body.script, where);
      } catch (error: unknown) {
        assert.ok(error instanceof ControlError, `${where}: ${String(error)}`);
      }
    }
    assert.ok(count > 100);
  });

  it('state.json (objects and stored graph): loaded or refused with a DataDirError; the graph loaded or refused', async () => {
    const first = openTestNode();
    await first.run(exampleText('quickstart/graph.sql'), { domain: 'shop' });
    first.close();
    const file = join(first.root, 'domains', 'shop', 'state.json');
    const state = JSON.parse(readFileSync(file, 'utf8')) as unknown;
    const outcomes = { loaded: 0, refused: 0 };
    try {
      for (const [where, text] of cases(state)) {
        writeFileSync(file, text);
        let node: ReturnType<typeof openTestNode> | undefined;
        try {
          node = openTestNode(first.root);
          outcomes.loaded += 1;
          const loaded = loadGraph(node.store.state('shop').graph);
          assert.ok(loaded.ok || loaded.errors.length > 0, where);
        } catch (error: unknown) {
          assert.ok(error instanceof DataDirError, `${where}: ${String(error)}`);
          assert.equal(String(error).includes('"'), false, `${where}: the refusal quotes the file`);
          outcomes.refused += 1;
        } finally {
          node?.close();
        }
      }
    } finally {
      removeDir(first.root);
    }
    assert.ok(outcomes.loaded > 0 && outcomes.refused > 0, JSON.stringify(outcomes));
  });
});

import assert from 'node:assert/strict';
import { ALL_KINDS } from './index.js';
import { crdFor } from './crd.js';
import type { OpenApiSchema } from './openapi.js';

/** Walks a schema and calls `visit` with each node and its path. */
function walk(node: OpenApiSchema, path: string, visit: (node: OpenApiSchema, path: string) => void): void {
  visit(node, path);
  for (const [key, child] of Object.entries(node.properties ?? {})) walk(child, `${path}.${key}`, visit);
  if (node.items) walk(node.items, `${path}[]`, visit);
}

describe('generated CRDs', () => {
  for (const definition of ALL_KINDS) {
    it(`${definition.kind} has a structural schema`, () => {
      const crd = crdFor(definition);
      const version = (crd.spec.versions as { schema: { openAPIV3Schema: OpenApiSchema } }[])[0]!;
      walk(version.schema.openAPIV3Schema, '', (node, path) => {
        // Structural schemas need a type on every node except int-or-string and preserved nodes.
        if (!node['x-kubernetes-int-or-string'] && !node['x-kubernetes-preserve-unknown-fields']) {
          assert.ok(node.type, `${definition.kind}${path} has no type`);
        }
        for (const rule of node['x-kubernetes-validations'] ?? []) {
          assert.deepEqual(
            Object.keys(rule)
              .sort()
              .filter((k) => !['rule', 'message', 'fieldPath', 'reason'].includes(k)),
            [],
          );
        }
      });
    });
  }

  it('gives every kind a unique plural and short names that do not clash', () => {
    const names = ALL_KINDS.flatMap((definition) => [definition.plural, ...definition.shortNames]);
    assert.equal(new Set(names).size, names.length);
  });
});

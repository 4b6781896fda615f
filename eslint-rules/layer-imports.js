// `layers/direction`: a file of a layer (a directory of operator/ or dataplane/, listed in layers.json with
// the layers it builds on) may import only its own layer and the layers below it, transitively. A
// relative import is resolved against the importing file, so `../core/values.js` from dataplane/net is
// dataplane/core whatever the spelling. docs/architecture.md draws the picture.
import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

const ROOT = join(import.meta.dirname, '..');
/** layer → the layers it builds on (direct). */
export const LAYERS = JSON.parse(readFileSync(join(import.meta.dirname, 'layers.json'), 'utf8'));

/** layer → every layer below it (the closure of what it builds on). */
export function allowedLayers(layers = LAYERS) {
  const below = new Map();
  const visit = (layer, trail) => {
    if (below.has(layer)) return below.get(layer);
    if (trail.includes(layer)) throw new Error(`layers.json has a cycle: ${[...trail, layer].join(' → ')}`);
    const set = new Set();
    for (const next of layers[layer] ?? []) {
      set.add(next);
      for (const deeper of visit(next, [...trail, layer])) set.add(deeper);
    }
    below.set(layer, set);
    return set;
  };
  for (const layer of Object.keys(layers)) visit(layer, []);
  return below;
}

/** `operator/x` or `dataplane/x` for a repo-relative path under them; `operator` / `dataplane` for top files. */
export function layerOf(repoPath) {
  const parts = repoPath.split(sep).join('/').split('/');
  if (parts[0] !== 'operator' && parts[0] !== 'dataplane') return undefined;
  return parts.length > 2 ? `${parts[0]}/${parts[1]}` : parts[0];
}

const ALLOWED = allowedLayers();

export const directionRule = {
  meta: {
    type: 'problem',
    docs: { description: 'imports follow the layers of eslint-rules/layers.json (docs/architecture.md)' },
    schema: [],
  },
  create(context) {
    const file = relative(ROOT, context.filename);
    const from = layerOf(file);
    if (from === undefined) return {};
    const check = (node, specifier) => {
      if (typeof specifier !== 'string' || !specifier.startsWith('.')) return;
      const to = layerOf(relative(ROOT, resolve(dirname(context.filename), specifier)));
      if (to === undefined || to === from) return;
      if (!ALLOWED.has(from)) {
        context.report({ node, message: `${from} is not a layer: add it to eslint-rules/layers.json` });
      } else if (!ALLOWED.get(from).has(to)) {
        context.report({
          node,
          message: `${from} may not import ${to} (layers: eslint-rules/layers.json, docs/architecture.md)`,
        });
      }
    };
    return {
      ImportDeclaration: (node) => check(node, node.source.value),
      ExportNamedDeclaration: (node) => node.source && check(node, node.source.value),
      ExportAllDeclaration: (node) => check(node, node.source.value),
      ImportExpression: (node) => node.source.type === 'Literal' && check(node, node.source.value),
    };
  },
};

export default { rules: { direction: directionRule } };

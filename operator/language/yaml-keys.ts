// Mapping keys the yaml library cannot make a plain object's key: any key whose value is not text, a
// number, true, false or null. That is a list or a mapping (also tagged !!set, !!omap, !!pairs) and a
// scalar whose tag makes it an object (!!binary bytes, !!timestamp dates), written as the key or reached
// through an alias (`? *anchor`). toJS would turn such a key into its text and print that text in a
// process warning, so a document holding one is refused before toJS (yaml-input.ts). One walk, in
// document order, resolving each alias key as the library does: to the last node with its anchor before
// it (none: toJS then refuses the alias itself).
import { type Document, type Node } from 'yaml';
import { yamlLib } from './yaml-lib.js';

/** The offset of the first mapping key whose value would not be a plain value, if any. */
export function firstObjectKey(document: Document.Parsed): number | undefined {
  const anchored = new Map<string, Node>();
  let found: number | undefined;
  yamlLib().visit(document, {
    Node: (_, node) => {
      if (node.anchor !== undefined && !yamlLib().isAlias(node)) anchored.set(node.anchor, node);
      return undefined;
    },
    Pair: (_, pair) => {
      const { key } = pair;
      if (key === null || key === undefined) return undefined;
      const value = yamlLib().isAlias(key) ? anchored.get(key.source) : key;
      if (value === undefined || isPlainScalar(value)) return undefined;
      found = (key as Node).range?.[0] ?? 0;
      return yamlLib().visit.BREAK;
    },
  });
  return found;
}

function isPlainScalar(node: unknown): boolean {
  return yamlLib().isScalar(node) && (node.value === null || typeof node.value !== 'object');
}

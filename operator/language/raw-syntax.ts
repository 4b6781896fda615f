// The shapes grammar.peggy builds for statements, before resolve-statement.ts reads them. A spec comes
// out in its final shape except that what the user wrote is wrapped in leaves, objects may carry their
// own location (`$at`), and CONFIG blocks are still lists of entries (`$config`).
import type { KindWord, ShowTarget } from './ast.js';
import type { GraphKind } from '../api/index.js';

/** 1-based, relative to the parsed statement text. */
export interface RawPosition {
  line: number;
  column: number;
}

/**
 * How a leaf is read: `name` is an object identifier (becomes a resource name), `duration` and `size`
 * are literals checked by literals.ts, `expression` is expression text, `value` is kept as it is.
 */
export type LeafKind = 'name' | 'value' | 'duration' | 'size' | 'expression';

export interface Leaf {
  $leaf: LeafKind;
  value: unknown;
  at: RawPosition;
  /** A CONFIG value written as a bare number rather than quoted. */
  bare?: true;
}

export type ConfigKeys = 'syslog' | 'kafka' | 'vhost-tls' | 'protobuf';

export interface RawConfig {
  /** Which keys the block takes (config-block.ts). */
  keys: ConfigKeys;
  entries: { key: Leaf; value: Leaf }[];
  /** Where the block starts; the object holding the fields records its own location. */
  at: RawPosition;
}

interface RawBase {
  location: RawPosition;
}

export type RawStatement =
  | (RawBase & {
      type: 'create' | 'alter';
      kind: GraphKind;
      identifier: Leaf;
      spec: Record<string, unknown>;
      orReplace?: boolean;
      ifNotExists?: boolean;
    })
  | (RawBase & { type: 'drop'; kind: KindWord; identifier: Leaf; ifExists: boolean })
  | (RawBase & { type: 'show'; what: ShowTarget })
  | (RawBase & { type: 'show-create'; kind: KindWord; identifier: Leaf })
  | (RawBase & { type: 'describe'; kind: 'Ingestor' | 'Emitter'; identifier: Leaf })
  | (RawBase & { type: 'upload-resource'; identifier: Leaf; directory: string })
  | (RawBase & { type: 'begin' | 'commit' | 'rollback' });

export function isLeaf(node: unknown): node is Leaf {
  return typeof node === 'object' && node !== null && '$leaf' in node;
}

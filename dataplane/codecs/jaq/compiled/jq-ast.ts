// The tree of a jq program of the compiled subset (docs/codecs.md, "Compiled programs"). jq-parser.ts
// builds it; jq-closures.ts turns it into JavaScript closures.
import type { JsonValue } from '../../json-value.js';

export type BinaryOperator = '+' | '-' | '*' | '/' | '%' | '==' | '!=' | '<' | '<=' | '>' | '>=';

export type Ast =
  | { kind: 'identity' }
  | { kind: 'recurse' }
  | { kind: 'literal'; value: JsonValue }
  /** `"a\(e)b"`: literal parts and expressions, in order. */
  | { kind: 'string'; parts: (string | Ast)[] }
  | { kind: 'index'; target: Ast; key: Ast }
  | { kind: 'slice'; target: Ast; from: Ast | undefined; to: Ast | undefined }
  | { kind: 'iterate'; target: Ast }
  /** `e?` and `try e` (without catch: `handler` undefined). */
  | { kind: 'try'; body: Ast; handler: Ast | undefined }
  | { kind: 'array'; body: Ast | undefined }
  | { kind: 'object'; entries: { key: Ast; value: Ast }[] }
  | { kind: 'pipe'; left: Ast; right: Ast }
  | { kind: 'comma'; left: Ast; right: Ast }
  | { kind: 'alternative'; left: Ast; right: Ast }
  | { kind: 'and' | 'or'; left: Ast; right: Ast }
  | { kind: 'binary'; operator: BinaryOperator; left: Ast; right: Ast }
  | { kind: 'negate'; operand: Ast }
  | { kind: 'if'; condition: Ast; then: Ast; otherwise: Ast | undefined }
  | { kind: 'bind'; source: Ast; slot: number; body: Ast }
  | { kind: 'variable'; slot: number }
  | { kind: 'env' }
  | { kind: 'reduce'; source: Ast; slot: number; init: Ast; update: Ast }
  | { kind: 'foreach'; source: Ast; slot: number; init: Ast; update: Ast; extract: Ast | undefined }
  | { kind: 'call'; name: string; args: Ast[] };

// Hand-written types for the generated parser (grammar.generated.js). What `parse` returns is described
// by raw-syntax.ts (start rule Script) and dataplane/graph/expression.ts (start rule Expression).

export interface PeggyPosition {
  offset: number;
  line: number;
  column: number;
}

export interface PeggyLocation {
  source: unknown;
  start: PeggyPosition;
  end: PeggyPosition;
}

export type PeggyExpectation =
  | { type: 'literal'; text: string; ignoreCase: boolean }
  | { type: 'class'; parts: unknown[]; inverted: boolean; ignoreCase: boolean }
  | { type: 'any' }
  | { type: 'end' }
  | { type: 'other'; description: string };

export declare class SyntaxError extends Error {
  expected: PeggyExpectation[] | null;
  found: string | null;
  location: PeggyLocation;
}

export declare const StartRules: readonly string[];

export declare function parse(
  input: string,
  options?: { startRule?: 'Script' | 'Expression'; grammarSource?: unknown },
): unknown;

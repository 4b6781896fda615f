// The clauses a statement may leave out because they have a single possible value or an obvious default
// (an extension of the specification, whose forms spell every one out). The grammar writes the default
// when a clause is missing, so the spec is the same either way; docs/language.md lists them in "Clauses
// you may leave out", and clause-defaults.test.ts checks that table, the grammar and the printer agree.
// The canonical printer writes every clause (SHOW CREATE keeps the full form); leaving them out is for
// the tests that check that the short forms parse to the same objects.

export const DEFAULT_CLAUSES = {
  'wire-format': { clause: 'JSON', in: 'WIRE JSON SCHEMA', default: 'the only format' },
  'wire-mode': { clause: 'MODE STRICT', in: 'WIRE JSON SCHEMA', default: 'the only mode' },
  'relay-branching': { clause: 'UNBRANCHED', in: 'RELAY', default: 'the only branching' },
  'endpoint-type': { clause: 'TYPE HTTP', in: 'ENDPOINT', default: 'the only type' },
  'client-type': { clause: 'TYPE SYSLOG', in: 'CLIENT', default: 'SYSLOG unless TYPE KAFKA is written' },
  mode: {
    clause: 'MODE NO ACK',
    in: 'HTTP and SYSLOG ingestors, EMITTER TO SYSLOG',
    default: 'the only mode',
  },
  'correlator-branching': { clause: 'UNBRANCHED', in: 'CORRELATOR', default: 'the only branching' },
  'route-branching': { clause: 'UNBRANCHED', in: 'routes', default: 'the only branching' },
  flush: { clause: 'FLUSH IMMEDIATE', in: 'routes, EMITTER', default: 'the only flush policy' },
  'message-error': { clause: 'ON MESSAGE ERROR LOG', in: 'routes, EMITTER', default: 'log the record' },
  'general-error': {
    clause: 'ON GENERAL ERROR LOG',
    in: 'ingestors, EMITTER',
    default: 'the only policy',
  },
} as const;

export type DefaultClause = keyof typeof DEFAULT_CLAUSES;

export const DEFAULT_CLAUSE_NAMES = Object.keys(DEFAULT_CLAUSES) as DefaultClause[];

export interface PrintOptions {
  /** Clauses to leave out where they hold their default; none by default (the canonical form). */
  leaveOut?: readonly DefaultClause[];
}

/** The clause's text, or nothing when the options leave it out (callers leave out only defaults). */
export function clause(options: PrintOptions, which: DefaultClause, text: string): string[] {
  return options.leaveOut?.includes(which) === true ? [] : [text];
}

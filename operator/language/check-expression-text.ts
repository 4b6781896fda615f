// Expression text stored in a resource — SET values, CORRELATE WHERE, an emitter's KEY — must be one expression and
// nothing else (SR1015). Statements can only produce such text, but a resource written as YAML can hold
// anything, and the canonical printer writes the text as it is: `input.x FLUSH IMMEDIATE … TO c SET z = 1`
// would print as a statement with one more route. yaml-input.ts runs this on every object it loads.
import type { GraphObject } from '../api/index.js';
import type { Assignment, MessageErrorPolicy } from '../api/common.js';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import { parseExpression } from './parse.js';

export interface ExpressionProblem {
  /** Field path of the text, such as `spec.routes[0].set[1].value`. */
  path: string;
  /** The parser's diagnostic; its line and column are relative to the expression text. */
  diagnostic: Diagnostic;
}

/** Each expression text of the object that does not parse, with why. */
export function checkExpressionText(object: GraphObject): ExpressionProblem[] {
  return expressionTexts(object).flatMap(({ path, text }) =>
    parseExpression(text).diagnostics.map((diagnostic) => ({ path, diagnostic })),
  );
}

interface ExpressionText {
  path: string;
  text: string;
}

/** Every expression text of an object, with its field path. */
export function expressionTexts(object: GraphObject): ExpressionText[] {
  const found: ExpressionText[] = [];
  const spec = object.spec as {
    where?: string;
    to?: { key?: string };
    routes?: readonly { set?: readonly Assignment[]; onMessageError: MessageErrorPolicy }[];
    onMessageError?: MessageErrorPolicy;
  };
  if (object.kind === 'Correlator' && spec.where !== undefined) {
    found.push({ path: 'spec.where', text: spec.where });
  }
  if (object.kind === 'Emitter' && spec.to?.key !== undefined) {
    found.push({ path: 'spec.to.key', text: spec.to.key });
  }
  spec.routes?.forEach((route, index) => {
    found.push(...assignments(`spec.routes[${index}]`, route.set));
    found.push(...assignments(`spec.routes[${index}].onMessageError`, route.onMessageError.set));
  });
  if (spec.onMessageError !== undefined) {
    found.push(...assignments('spec.onMessageError', spec.onMessageError.set));
  }
  return found;
}

function assignments(path: string, set: readonly Assignment[] | undefined): ExpressionText[] {
  return (set ?? []).map((assignment, index) => ({
    path: `${path}.set[${index}].value`,
    text: assignment.value,
  }));
}

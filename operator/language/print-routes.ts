// Canonical text of the clauses several kinds share: routes, SET lists, error policies and quiesce.
// Each function returns lines relative to its clause; callers indent them. A line may hold line breaks
// of its own (a multi-line expression) — those are part of the value and are never re-indented.
import type { Assignment, MessageErrorPolicy, Quiesce, Route } from '../api/common.js';
import { clause, type PrintOptions } from './clause-defaults.js';

/** How a reference to an object of `kind` is written (print.ts: as its own statement wrote it). */
export type Reference = (
  kind:
    | 'Relay'
    | 'Schema'
    | 'Codec'
    | 'Endpoint'
    | 'Vhost'
    | 'SyslogClient'
    | 'KafkaClient'
    | 'Resource'
    | 'WireSchema',
  name: string,
) => string;

/** What the printers are given: which default clauses to leave out, and how to write references. */
export interface Printing extends PrintOptions {
  ref: Reference;
}

const SET_CONTINUATION = '    ';

export function indent(lines: readonly string[], by = '  '): string[] {
  return lines.map((line) => `${by}${line}`);
}

/** `SET a = x,` with later assignments aligned under the first. */
export function setClause(set: readonly Assignment[] | undefined): string[] {
  if (set === undefined || set.length === 0) return [];
  return set.map((assignment, index) => {
    const comma = index < set.length - 1 ? separator(assignment.value) : '';
    const text = `${assignment.field} = ${assignment.value}${comma}`;
    return index === 0 ? `SET ${text}` : `${SET_CONTINUATION}${text}`;
  });
}

/**
 * Expression text from YAML may end in a `-- comment`, which would swallow a comma on its line; the
 * comma then goes on a line of its own. (Text from statements never ends in a comment.)
 */
function separator(value: string): string {
  const lastLine = value.slice(value.lastIndexOf('\n') + 1);
  return lastLine.includes('--') ? '\n,' : ',';
}

export function inheritAndSet(
  inheritAll: boolean | undefined,
  set: readonly Assignment[] | undefined,
): string[] {
  return [...(inheritAll === true ? ['INHERIT ALL'] : []), ...setClause(set)];
}

export function messageErrorClause(policy: MessageErrorPolicy, options: Printing): string[] {
  if (policy.action === 'LOG') return clause(options, 'message-error', 'ON MESSAGE ERROR LOG');
  const relay = policy.relay === undefined ? '' : ` ${options.ref('Relay', policy.relay)}`;
  return [`ON MESSAGE ERROR SEND TO${relay}`, ...indent(inheritAndSet(policy.inheritAll, policy.set))];
}

interface RouteOptions extends Printing {
  /** Whether the route writes its UNBRANCHED (not in a correlator, whose branching is its own). */
  branching: boolean;
}

/**
 * `TO <relay>` and its sub-clauses. Correlator routes leave UNBRANCHED out: their branching is the
 * correlator's own clause (docs/statement-mapping.md).
 */
export function routeClause(route: Route, options: RouteOptions): string[] {
  return [
    `TO ${options.ref('Relay', route.to)}`,
    ...indent([
      ...inheritAndSet(route.inheritAll, route.set),
      ...(options.branching ? clause(options, 'route-branching', route.branching) : []),
      ...clause(options, 'flush', `FLUSH ${route.flush}`),
      ...messageErrorClause(route.onMessageError, options),
    ]),
  ];
}

export function routeClauses(routes: readonly Route[], options: RouteOptions): string[] {
  return routes.flatMap((route) => routeClause(route, options));
}

export function quiesceClause(quiesce: Quiesce): string {
  const size = quiesce.maxSize === undefined ? '' : ` MAX SIZE ${quiesce.maxSize}`;
  const overflow = quiesce.onOverflow === undefined ? '' : ` ON OVERFLOW ${words(quiesce.onOverflow)}`;
  return `ON QUIESCE ${quiesce.action}${size}${overflow}`;
}

/** `DROP_OLDEST` → `DROP OLDEST`, `SEND_TO` → `SEND TO`. */
export function words(value: string): string {
  return value.replaceAll('_', ' ');
}

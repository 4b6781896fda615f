// Command-line values of the node commands, checked as commander parses them (a bad one is exit 2 with
// the reason): names are statement identifiers, mapped as statements map them.
import { InvalidArgumentError } from 'commander';
import type { DescribedKind } from '../../dataplane/core/status.js';
import { identifierToName } from '../api/names.js';
import { domainProblem, parseServer, type Server } from './endpoint.js';

/** `order_events` → `order-events`; `order-events` is refused, as it is in a statement. */
export function nameArgument(identifier: string): string {
  const mapped = identifierToName(identifier);
  if (!mapped.ok) throw new InvalidArgumentError(`${mapped.reason}.`);
  return mapped.name;
}

/** `ingestor` or `emitter`, in any case (as in `DESCRIBE INGESTOR`). */
export function describedKindArgument(word: string): DescribedKind {
  const kind = word.toLowerCase();
  if (kind !== 'ingestor' && kind !== 'emitter')
    throw new InvalidArgumentError('expected ingestor or emitter.');
  return kind;
}

export function domainArgument(domain: string): string {
  const problem = domainProblem(domain);
  if (problem !== undefined) throw new InvalidArgumentError(`${problem}.`);
  return domain;
}

export function serverArgument(text: string): Server {
  const server = parseServer(text);
  if (typeof server === 'string') throw new InvalidArgumentError(`${server}.`);
  return server;
}

/** A positive whole number, for `--buffer`. */
export function countArgument(text: string): number {
  const count = Number(text);
  if (!/^[1-9][0-9]*$/.test(text) || !Number.isSafeInteger(count)) {
    throw new InvalidArgumentError('expected a whole number of at least 1.');
  }
  return count;
}

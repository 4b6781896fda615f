// Command-line values of the node commands, checked as commander parses them (a bad one is exit 2 with
// the reason): a name is a statement identifier, mapped as statements map them, or a resource name
// (docs/decisions/0025-names-as-typed.md).
import { InvalidArgumentError } from 'commander';
import type { DescribedKind } from '../../dataplane/core/status.js';
import { nameFromEither } from '../api/display-names.js';
import { domainProblem, parseServer, type Server } from './endpoint.js';

/** `Order_Events` and `order_events` → `order-events`; `order-events` as it is. */
export function nameArgument(written: string): string {
  const mapped = nameFromEither(written);
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

/** A parser of seconds from `min` to `max`, decimals allowed (`--interval 0.5`). */
export function secondsArgument(min: number, max: number): (text: string) => number {
  return (text) => {
    const seconds = Number(text);
    if (!/^[0-9]+(\.[0-9]+)?$/.test(text) || seconds < min || seconds > max)
      throw new InvalidArgumentError(`expected seconds from ${min} to ${max} (1, 0.5, …).`);
    return seconds;
  };
}

// The status every object should have after a reconcile, decided without I/O, and the merge patch
// that gets it there — undefined when the object already has it, so most reconciles write nothing.
import { formatDiagnostic, objectKeyString } from '../diagnostics/diagnostic.js';
import { canonicalJson } from '../api/canonical-json.js';
import type { ObjectOutcome } from './compile-plan.js';
import { MAX_MESSAGE, truncate, type DesiredCondition } from './conditions.js';

export const ACCEPTED = 'Accepted';
export const READY = 'Ready';

/** A refusal that overrides every object's compile outcome (the graph was not published). */
export interface DomainRefusal {
  reason: string;
  message: string;
}

/** The Accepted condition an outcome calls for; undefined while a transaction holds the object. */
export function acceptedCondition(
  outcome: ObjectOutcome,
  refusal?: DomainRefusal,
): DesiredCondition | undefined {
  if (refusal !== undefined) return { type: ACCEPTED, status: 'False', ...refusal };
  if (outcome.state === 'held') return heldCondition(outcome);
  if (outcome.state === 'accepted')
    return {
      type: ACCEPTED,
      status: 'True',
      reason: 'Accepted',
      message: `generation ${outcome.generation} is running`,
    };
  const keeps =
    outcome.running === undefined
      ? `generation ${outcome.generation} is not running`
      : `generation ${outcome.generation} is not accepted; generation ${outcome.running} keeps running`;
  if (outcome.verdict.status === 'waiting') {
    // `Kind/name`, the name as people read it (decision 0025: `Relay/Orders_In` for a statement's).
    const on = outcome.verdict.on
      .map((key) => objectKeyString({ ...key, name: key.display ?? key.name }))
      .join(', ');
    return {
      type: ACCEPTED,
      status: 'False',
      reason: 'WaitingOnDependency',
      message: `${keeps}: waits on ${on}`,
    };
  }
  const errors = outcome.verdict.diagnostics.filter((d) => d.severity === 'error');
  const shown = errors.length > 0 ? errors : outcome.verdict.diagnostics;
  const reason = shown[0]?.code ?? 'Rejected';
  const message = `${keeps}:\n${shown.map(formatDiagnostic).join('\n')}`;
  return { type: ACCEPTED, status: 'False', reason, message: truncate(message, MAX_MESSAGE) };
}

function heldCondition(outcome: Extract<ObjectOutcome, { state: 'held' }>): DesiredCondition | undefined {
  const { transaction } = outcome;
  if (!transaction.timedOut) return undefined;
  const missing = transaction.missing.length > 0 ? transaction.missing.join(', ') : 'members not named';
  return {
    type: ACCEPTED,
    status: 'False',
    reason: 'TransactionIncomplete',
    message: `transaction ${transaction.id} is incomplete after 30s: ${transaction.members.length} of its objects arrived; missing ${missing}; it is compiled without this transaction`,
  };
}

/**
 * The merge patch taking `current` to the `desired` fields (a field set to undefined is removed), or
 * undefined when every desired field already holds its value.
 */
export function statusPatch(
  current: Record<string, unknown> | undefined,
  desired: Record<string, unknown>,
): Record<string, unknown> | undefined {
  const patch: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(desired)) {
    const have = current?.[key];
    if (value === undefined) {
      if (have !== undefined) patch[key] = null;
    } else if (have === undefined || canonicalJson(have) !== canonicalJson(value)) patch[key] = value;
  }
  return Object.keys(patch).length === 0 ? undefined : patch;
}

// metav1.Condition bookkeeping, pure: a condition's lastTransitionTime stays while its status does not
// change; reason and message are bounded as the CRD schema requires (operator/api/common.ts).
export const MAX_MESSAGE = 32768;
export const MAX_REASON = 1024;

export interface DesiredCondition {
  type: string;
  status: 'True' | 'False' | 'Unknown';
  reason: string;
  message: string;
}

export interface Condition extends DesiredCondition {
  observedGeneration: number;
  lastTransitionTime: string;
}

function isCondition(value: unknown): value is Condition {
  const condition = value as Partial<Condition> | null;
  return typeof condition === 'object' && condition !== null && typeof condition.type === 'string';
}

/** The conditions in a status, read defensively. */
export function conditionsOf(status: Record<string, unknown> | undefined): Condition[] {
  const list = status?.conditions;
  return Array.isArray(list) ? list.filter(isCondition) : [];
}

export function truncate(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/**
 * The condition list after setting `desired` (other types are kept as they are), in the order the
 * types first appeared. `now` is used only for a condition whose status changes or is new.
 */
export function nextConditions(
  current: readonly Condition[],
  desired: readonly DesiredCondition[],
  generation: number,
  now: () => string,
): Condition[] {
  const next = current.map((condition) => ({ ...condition }));
  for (const want of desired) {
    const index = next.findIndex((condition) => condition.type === want.type);
    const previous = index >= 0 ? next[index] : undefined;
    const condition: Condition = {
      type: want.type,
      status: want.status,
      observedGeneration: generation,
      lastTransitionTime:
        previous !== undefined && previous.status === want.status ? previous.lastTransitionTime : now(),
      reason: truncate(want.reason, MAX_REASON),
      message: truncate(want.message, MAX_MESSAGE),
    };
    if (index >= 0) next[index] = condition;
    else next.push(condition);
  }
  return next;
}

/** The status a condition type moved to, when it moved (or appeared). */
export function transitionOf(
  before: readonly Condition[],
  after: readonly Condition[],
  type: string,
): Condition | undefined {
  const old = before.find((condition) => condition.type === type);
  const now = after.find((condition) => condition.type === type);
  if (now === undefined || (old !== undefined && old.status === now.status)) return undefined;
  return now;
}

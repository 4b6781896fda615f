// The flags that bound what the admin API's subscribers may cost the node (docs/admin-api.md, "Buffer
// limits"), shared by `streamroute dataplane` and `streamroute node`. Pure: the values come in as given.
import type { SubscriptionLimits } from '../admin/subscription-limits.js';
import {
  DEFAULT_MAX_SUBSCRIBERS,
  DEFAULT_NODE_BUFFER_BYTES,
  DEFAULT_SUBSCRIPTION_BUFFER_BYTES,
} from '../admin/admin-defaults.js';

export interface SubscriptionFlags {
  maxSubscribers?: string | number;
  subscriptionBufferBytes?: string | number;
  nodeSubscriptionBufferBytes?: string | number;
}

const LIMIT_OF: Record<keyof SubscriptionFlags, keyof SubscriptionLimits> = {
  maxSubscribers: 'maxSubscribers',
  subscriptionBufferBytes: 'subscriptionBufferBytes',
  nodeSubscriptionBufferBytes: 'nodeBufferBytes',
};

/** name, usage, description (with its default). */
export const SUBSCRIPTION_FLAGS: readonly (readonly [keyof SubscriptionFlags, string, string])[] = [
  [
    'maxSubscribers',
    '--max-subscribers <n>',
    `subscriber streams the admin API serves at once; more are refused (default ${DEFAULT_MAX_SUBSCRIBERS})`,
  ],
  [
    'subscriptionBufferBytes',
    '--subscription-buffer-bytes <size>',
    `bytes of records one subscription may lag behind by, e.g. 16MiB (default ${mib(DEFAULT_SUBSCRIPTION_BUFFER_BYTES)})`,
  ],
  [
    'nodeSubscriptionBufferBytes',
    '--node-subscription-buffer-bytes <size>',
    `bytes of records kept for all subscriptions of the node together (default ${mib(DEFAULT_NODE_BUFFER_BYTES)})`,
  ],
];

const UNITS: Record<string, number> = { '': 1, KiB: 1024, MiB: 1024 ** 2, GiB: 1024 ** 3 };

/** The limits given (what is not given keeps its default); a message for a value that is not valid. */
export function resolveSubscriptionFlags(
  flags: SubscriptionFlags,
): { subscriptionLimits: Partial<SubscriptionLimits> } | { message: string } {
  const limits: Partial<SubscriptionLimits> = {};
  for (const [key, usage] of SUBSCRIPTION_FLAGS) {
    const given = flags[key];
    if (given === undefined) continue;
    const flag = usage.split(' ')[0] ?? usage;
    const bytes = key !== 'maxSubscribers';
    const match = (bytes ? /^([1-9][0-9]*)(KiB|MiB|GiB)?$/ : /^([1-9][0-9]*)()$/).exec(String(given));
    const value = match === null ? Number.NaN : Number(match[1]) * (UNITS[match[2] ?? ''] ?? Number.NaN);
    if (!Number.isSafeInteger(value)) {
      const expected = bytes ? 'a whole number of bytes ≥ 1, or with KiB, MiB or GiB' : 'a whole number ≥ 1';
      return { message: `${flag} ${String(given)}: expected ${expected}` };
    }
    limits[LIMIT_OF[key]] = value;
  }
  return { subscriptionLimits: limits };
}

function mib(bytes: number): string {
  return `${bytes / 1024 ** 2}MiB`;
}

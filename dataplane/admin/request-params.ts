// What the admin API accepts in a path and a query, checked before anything is looked up (pure):
//
//   domain                             a Kubernetes namespace name: a DNS-1123 label,
//                                      ^[a-z0-9]([-a-z0-9]*[a-z0-9])?$, at most 63 characters
//   relay, ingestor, emitter           a Kubernetes resource name: a DNS-1123 subdomain (labels joined
//                                      by '.'), at most 253 characters
//   subscription name                  ^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$
//   ?buffer=N                          decimal digits, 1 … 1,000,000; default 10,000
//
// A problem message names the parameter and quotes (briefly) what was sent; it goes to the client that
// sent it, never to the log.
import type { AdminErrorCode } from './admin-errors.js';
import { DEFAULT_SUBSCRIBER_BUFFER, MAX_SUBSCRIBER_BUFFER } from './admin-defaults.js';

export type NameKind = 'domain' | 'relay' | 'ingestor' | 'emitter' | 'subscription';

export type Checked<T> = { ok: true; value: T } | { ok: false; code: AdminErrorCode; message: string };

const DNS_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
export const MAX_DOMAIN_NAME = 63;
export const MAX_RESOURCE_NAME = 253;
const SUBSCRIPTION_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

/** A domain is a Kubernetes namespace: a DNS-1123 label of at most 63 characters. */
export function isDomainName(name: string): boolean {
  return name.length <= MAX_DOMAIN_NAME && DNS_LABEL.test(name);
}

/** A relay, ingestor, emitter or resource is a Kubernetes object: a DNS-1123 subdomain, at most 253. */
export function isResourceName(name: string): boolean {
  return name.length <= MAX_RESOURCE_NAME && DNS_SUBDOMAIN.test(name);
}

const EXPECTED: Record<'domain' | 'resource' | 'subscription', string> = {
  domain: `lower-case letters, digits and '-', starting and ending with a letter or digit, at most ${MAX_DOMAIN_NAME} characters`,
  resource: `lower-case letters, digits, '-' and '.', each '.'-separated part starting and ending with a letter or digit, at most ${MAX_RESOURCE_NAME} characters`,
  subscription: "letters, digits, '.', '_' and '-', starting with a letter or digit, at most 128 characters",
};

/** Checks one name from the path. */
export function checkName(kind: NameKind, text: string): Checked<string> {
  const rule = kind === 'domain' || kind === 'subscription' ? kind : 'resource';
  const valid =
    rule === 'subscription'
      ? SUBSCRIPTION_NAME.test(text)
      : rule === 'domain'
        ? isDomainName(text)
        : isResourceName(text);
  if (valid) return { ok: true, value: text };
  const expected = EXPECTED[rule];
  return {
    ok: false,
    code: 'invalid_name',
    message: `${kind} name ${brief(text)} is not valid: expected ${expected}`,
  };
}

/** The `buffer` query parameter (every occurrence of it). */
export function parseBuffer(values: readonly string[]): Checked<number> {
  if (values.length === 0) return { ok: true, value: DEFAULT_SUBSCRIBER_BUFFER };
  const range = `a whole number of records from 1 to ${MAX_SUBSCRIBER_BUFFER}`;
  if (values.length > 1)
    return {
      ok: false,
      code: 'invalid_buffer',
      message: `buffer is given ${values.length} times: expected it once, ${range}`,
    };
  const text = values[0] ?? '';
  const value = /^\d{1,7}$/.test(text) ? Number(text) : Number.NaN;
  if (value >= 1 && value <= MAX_SUBSCRIBER_BUFFER) return { ok: true, value };
  return {
    ok: false,
    code: 'invalid_buffer',
    message: `buffer ${brief(text)} is not valid: expected ${range}`,
  };
}

/** JSON-quoted, at most 64 characters. */
function brief(text: string): string {
  return JSON.stringify(text.length > 64 ? `${text.slice(0, 64)}…` : text);
}

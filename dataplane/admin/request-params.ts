// What the admin API accepts in a path and a query, checked before anything is looked up (pure):
//
//   domain, relay, ingestor, emitter   ^[a-z0-9]([-a-z0-9]*[a-z0-9])?$, at most 253 characters (the
//                                      Kubernetes resource and namespace name form)
//   subscription name                  ^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$
//   ?buffer=N                          decimal digits, 1 … 1,000,000; default 10,000
//
// A problem message names the parameter and quotes (briefly) what was sent; it goes to the client that
// sent it, never to the log.
import type { AdminErrorCode } from './admin-errors.js';
import { DEFAULT_SUBSCRIBER_BUFFER, MAX_SUBSCRIBER_BUFFER } from './subscription-hub.js';

export type NameKind = 'domain' | 'relay' | 'ingestor' | 'emitter' | 'subscription';

export type Checked<T> = { ok: true; value: T } | { ok: false; code: AdminErrorCode; message: string };

const RESOURCE_NAME = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const MAX_RESOURCE_NAME = 253;
const SUBSCRIPTION_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

const EXPECTED: Record<'resource' | 'subscription', string> = {
  resource:
    "lower-case letters, digits and '-', starting and ending with a letter or digit, at most 253 characters",
  subscription: "letters, digits, '.', '_' and '-', starting with a letter or digit, at most 128 characters",
};

/** Checks one name from the path. */
export function checkName(kind: NameKind, text: string): Checked<string> {
  const valid =
    kind === 'subscription'
      ? SUBSCRIPTION_NAME.test(text)
      : text.length <= MAX_RESOURCE_NAME && RESOURCE_NAME.test(text);
  if (valid) return { ok: true, value: text };
  const expected = EXPECTED[kind === 'subscription' ? 'subscription' : 'resource'];
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

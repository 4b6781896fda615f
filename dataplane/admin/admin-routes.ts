// The routes of the admin API, matched on the path alone (pure). A path that has the shape of a route but
// a name that is not valid is still that route's path (so a wrong method is 405 there, a bad name 400);
// a path of no route's shape is `none`, which the server offers to its control hook before answering 404.
//
//   /healthz   /readyz   /metrics
//   /v1/domains/{domain}/relays/{relay}/subscriptions/{subscription}
//   /v1/domains/{domain}/ingestors/{name}    /v1/domains/{domain}/emitters/{name}
//
// Segments are percent-decoded before they are checked; matching is exact (no trailing slash, case
// sensitive), so `/healthz/` and `/Healthz` are no route.
import type { DescribedKind } from '../core/status.js';
import type { AdminErrorCode } from './admin-errors.js';
import { checkName, type Checked, type NameKind } from './request-params.js';

export type AdminRoute =
  | { route: 'healthz' }
  | { route: 'readyz' }
  | { route: 'metrics' }
  | { route: 'subscription'; domain: string; relay: string; subscription: string }
  | { route: 'describe'; kind: DescribedKind; domain: string; name: string };

export type RouteMatch =
  | { kind: 'route'; route: AdminRoute }
  | { kind: 'invalid'; code: AdminErrorCode; message: string }
  | { kind: 'none' };

/** Every route answers only these methods. */
export const ALLOWED_METHODS = 'GET';

const FIXED = new Map<string, AdminRoute>([
  ['/healthz', { route: 'healthz' }],
  ['/readyz', { route: 'readyz' }],
  ['/metrics', { route: 'metrics' }],
]);

const DESCRIBED = new Map<string, DescribedKind>([
  ['ingestors', 'ingestor'],
  ['emitters', 'emitter'],
]);

const NONE: RouteMatch = { kind: 'none' };

/** The route of a path (the request target without its query). */
export function matchRoute(pathname: string): RouteMatch {
  const fixed = FIXED.get(pathname);
  if (fixed !== undefined) return { kind: 'route', route: fixed };
  const segments = pathname.split('/');
  if (segments[0] !== '' || segments[1] !== 'v1' || segments[2] !== 'domains') return NONE;
  return segments.length === 8 ? subscriptionRoute(segments) : describeRoute(segments);
}

/** `['', 'v1', 'domains', domain, 'relays', relay, 'subscriptions', subscription]` */
function subscriptionRoute(segments: readonly string[]): RouteMatch {
  if (segments[4] !== 'relays' || segments[6] !== 'subscriptions') return NONE;
  const names = checkAll([
    ['domain', segments[3]],
    ['relay', segments[5]],
    ['subscription', segments[7]],
  ]);
  if (!names.ok) return { kind: 'invalid', code: names.code, message: names.message };
  const [domain = '', relay = '', subscription = ''] = names.value;
  return { kind: 'route', route: { route: 'subscription', domain, relay, subscription } };
}

/** `['', 'v1', 'domains', domain, 'ingestors' | 'emitters', name]` */
function describeRoute(segments: readonly string[]): RouteMatch {
  const kind = DESCRIBED.get(segments[4] ?? '');
  if (segments.length !== 6 || kind === undefined) return NONE;
  const names = checkAll([
    ['domain', segments[3]],
    [kind, segments[5]],
  ]);
  if (!names.ok) return { kind: 'invalid', code: names.code, message: names.message };
  const [domain = '', name = ''] = names.value;
  return { kind: 'route', route: { route: 'describe', kind, domain, name } };
}

/** Decodes and checks each named segment; the first problem is the answer. */
function checkAll(named: readonly [NameKind, string | undefined][]): Checked<string[]> {
  const values: string[] = [];
  for (const [kind, raw] of named) {
    const decoded = decode(raw ?? '');
    if (decoded === undefined)
      return {
        ok: false,
        code: 'invalid_path',
        message: `the ${kind} segment of the path is not valid percent-encoding`,
      };
    const checked = checkName(kind, decoded);
    if (!checked.ok) return checked;
    values.push(checked.value);
  }
  return { ok: true, value: values };
}

/** A percent-decoded path segment; undefined when it is not valid percent-encoding. */
export function decode(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

/**
 * The request target as a URL on a fixed origin (the Host header was checked before and plays no further
 * part); undefined when not a path.
 */
export function requestUrl(target: string | undefined): URL | undefined {
  if (target === undefined) return undefined;
  try {
    if (target.startsWith('/')) return new URL(`http://admin.invalid${target}`);
    // Absolute form (a proxy's request): only the path and query matter.
    if (/^https?:\/\//i.test(target)) {
      const absolute = new URL(target);
      return new URL(`http://admin.invalid${absolute.pathname}${absolute.search}`);
    }
  } catch {
    return undefined;
  }
  return undefined;
}

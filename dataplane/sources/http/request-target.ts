// Which vhost and path a request names (docs/http-ingestion.md, "Host and path matching": the Host header
// lower-cased with the port stripped).
//
// Host (RFC 9110 §7.2, RFC 3986 §3.2.2): `uri-host [":" port]`, where uri-host is a reg-name, an IPv4
// address or an IP literal in brackets (`[::1]`). We lower-case it, strip the port (digits only, possibly
// empty), drop one trailing dot of a fully qualified name (`shop.example.com.` is the same name) and keep
// IPv6 literals in brackets. Anything else (a non-numeric port, an unclosed bracket, an empty host) has no
// vhost and is answered 404.
//
// Request target (RFC 9112 §3.2): origin-form `/path?query` is the common case. In absolute-form
// `http://host/path` the authority of the URI wins over the Host header (§3.2.2). The path is compared
// byte for byte: no percent-decoding, no dot-segment removal, case-sensitive, the query string ignored.
import { isIPv6 } from 'node:net';

/** The canonical host, or undefined when the text is not a host we could serve. */
export function normalizeHost(raw: string | undefined): string | undefined {
  if (raw === undefined || raw.length === 0) return undefined;
  const text = raw.toLowerCase();
  if (text.charCodeAt(0) === 0x5b /* [ */) return ipLiteral(text);
  const colon = text.indexOf(':');
  if (colon === -1) return withoutTrailingDot(text);
  // A bare IPv6 address is not a valid Host, but it is unambiguous: serve it as its bracketed form.
  if (text.indexOf(':', colon + 1) !== -1) return isIPv6(text) ? `[${text}]` : undefined;
  if (!isPort(text, colon + 1)) return undefined;
  return withoutTrailingDot(text.slice(0, colon));
}

function ipLiteral(text: string): string | undefined {
  const close = text.indexOf(']');
  if (close === -1) return undefined;
  const rest = close + 1;
  if (rest < text.length && (text.charCodeAt(rest) !== 0x3a /* : */ || !isPort(text, rest + 1)))
    return undefined;
  const literal = text.slice(0, rest);
  return isIPv6(literal.slice(1, -1)) ? literal : undefined;
}

/** `port = *DIGIT` from `start` to the end; an empty port is allowed (RFC 3986 §3.2.3). */
function isPort(text: string, start: number): boolean {
  for (let i = start; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x30 || c > 0x39) return false;
  }
  return true;
}

function withoutTrailingDot(host: string): string | undefined {
  const name = host.endsWith('.') ? host.slice(0, -1) : host;
  return name.length === 0 ? undefined : name;
}

export interface RequestTarget {
  /** Canonical host (see `normalizeHost`), undefined when there is none to match. */
  host: string | undefined;
  /** The path without the query string, exactly as sent. */
  path: string;
}

/** Splits `req.url` and the Host header into the host and path that pick the endpoint. */
export function requestTarget(url: string, hostHeader: string | undefined): RequestTarget {
  if (url.charCodeAt(0) === 0x2f /* / */) return { host: normalizeHost(hostHeader), path: pathOf(url, 0) };
  return absoluteForm(url);
}

function pathOf(url: string, start: number): string {
  const query = url.indexOf('?', start);
  return query === -1 ? (start === 0 ? url : url.slice(start)) : url.slice(start, query);
}

/** `http://authority/path?query` (scheme case-insensitive); anything else (`*`, authority-form) has no path. */
function absoluteForm(url: string): RequestTarget {
  const match = /^https?:\/\/([^/?#]*)/i.exec(url);
  if (match === null) return { host: undefined, path: '' };
  const authority = match[1] ?? '';
  const at = authority.lastIndexOf('@');
  const host = normalizeHost(at === -1 ? authority : authority.slice(at + 1));
  const rest = match[0].length;
  if (rest === url.length || url.charCodeAt(rest) === 0x3f /* ? */) return { host, path: '/' };
  return { host, path: pathOf(url, rest) };
}

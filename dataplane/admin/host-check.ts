// Which Host a request to the admin API may name (pure). The defence against DNS rebinding: a page on
// evil.example that makes its own name resolve to 127.0.0.1 can send requests to the admin API from the
// victim's browser, and read the answers, since to the browser they are the page's own origin. Binding to
// loopback does not stop that; the Host header does, because it still says `evil.example`. So a request
// is served only when the host it names (the Host header, and the authority of an absolute-form target)
// is one no attacker can make the browser send for a page of theirs:
//
//   localhost, *.localhost      always loopback (RFC 6761), never served by anyone's DNS
//   an IP literal               10.0.0.7, [::1]: a page at an IP is that IP's own origin, not a rebound name
//   the listen address's host   (an IP today; a name if the address ever is one)
//   allowedHosts                names an operator puts in front of the API: `node-7.example` exactly, or
//                               `.example` for example and every name under it
//
// The port is not checked (a rebound page names the API's port too). A request without a Host header
// (HTTP/1.0) is served: browsers always send one.
import { isIPv4, isIPv6 } from 'node:net';

export interface HostPolicyOptions {
  /** The host part of the listen address (IPv6 without brackets). */
  listenHost: string;
  /** Further names the API answers for: exact names, or `.example` for a domain and its subdomains. */
  allowedHosts?: readonly string[];
}

export class HostPolicy {
  readonly #exact = new Set<string>();
  readonly #suffixes: string[] = [];

  constructor(options: HostPolicyOptions) {
    this.#exact.add(normalize(options.listenHost));
    for (const entry of options.allowedHosts ?? []) {
      const name = normalize(entry);
      if (name.startsWith('.')) {
        this.#suffixes.push(name);
        this.#exact.add(name.slice(1));
      } else if (name !== '') this.#exact.add(name);
    }
  }

  /** Whether a request with this Host header and request target may be served. */
  allows(hostHeader: string | undefined, target: string | undefined): boolean {
    if (hostHeader !== undefined && !this.allowsAuthority(hostHeader)) return false;
    const authority = absoluteAuthority(target);
    return authority === undefined || this.allowsAuthority(authority);
  }

  /** Whether `host[:port]` (IPv6 in brackets) names a host the API answers for. */
  allowsAuthority(authority: string): boolean {
    const host = hostOf(authority);
    if (host === undefined) return false;
    if (host.startsWith('[')) return isIPv6(host.slice(1, -1));
    if (isIPv4(host) || host === 'localhost' || host.endsWith('.localhost')) return true;
    return this.#exact.has(host) || this.#suffixes.some((suffix) => host.endsWith(suffix));
  }
}

/** The host of `host[:port]`, lower-cased, without a trailing dot; undefined when it is not that form. */
function hostOf(authority: string): string | undefined {
  const match = /^(\[[0-9A-Fa-f:.]+\]|[^[\]:@\s/]+)(?::\d*)?$/.exec(authority);
  if (match === null) return undefined;
  const host = normalize(match[1] ?? '');
  return host === '' ? undefined : host;
}

function normalize(name: string): string {
  const lower = name.trim().toLowerCase();
  return lower.endsWith('.') ? lower.slice(0, -1) : lower;
}

/** The authority of an absolute-form request target (`GET http://host:port/path`), if it is one. */
function absoluteAuthority(target: string | undefined): string | undefined {
  if (target === undefined || !/^https?:\/\//i.test(target)) return undefined;
  try {
    return new URL(target).host;
  } catch {
    return undefined;
  }
}

// Where the node is: `--server URL`, else $STREAMROUTE_SERVER, else the embedded node's default address;
// and the protocol's URLs under it, one encoded path segment per name.
import { DEFAULT_ADMIN_LISTEN_ADDR } from '../../dataplane/admin/admin-defaults.js';
import { isDomainName } from '../node/protocol.js';

/** The embedded node's admin API on its default address. */
export const DEFAULT_SERVER = `http://${DEFAULT_ADMIN_LISTEN_ADDR}`;
export const SERVER_ENV = 'STREAMROUTE_SERVER';

/** A node's admin API: its base URL and how messages show it (without a trailing `/`). */
export interface Server {
  url: URL;
  shown: string;
}

/** The node a command talks to, and the domain it works in. */
export interface NodeTarget {
  server: Server;
  domain: string;
}

/**
 * Parses a server address: `http://host:port[/prefix]`, `https://…`, or `host:port` (http). Returns why
 * not when it cannot be one.
 */
export function parseServer(text: string): Server | string {
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? text : `http://${text}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    return `expected a URL such as ${DEFAULT_SERVER}`;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'expected an http:// or https:// URL';
  if (url.search !== '' || url.hash !== '') return 'expected a URL without ?query or #fragment';
  if (url.username !== '' || url.password !== '') return 'expected a URL without user name or password';
  if (!url.pathname.endsWith('/')) url.pathname = `${url.pathname}/`;
  return { url, shown: url.href.slice(0, -1) };
}

/**
 * Why `text` cannot be a domain, or undefined. A domain is a namespace name (docs/cli-cluster.md,
 * "Choosing the cluster and the domain").
 */
export function domainProblem(text: string): string | undefined {
  if (isDomainName(text)) return undefined;
  return 'a domain is a namespace name: at most 63 lower-case letters, digits and -, starting and ending with a letter or digit';
}

/** The flag wins, then the environment variable (when not empty), then the default. */
export function chooseServer(flag: Server | undefined, env: string | undefined): Server | string {
  if (flag !== undefined) return flag;
  if (env === undefined || env === '') return parseServer(DEFAULT_SERVER);
  const parsed = parseServer(env);
  return typeof parsed === 'string' ? `${SERVER_ENV}=${env}: ${parsed}` : parsed;
}

/** `{server}/v1/domains/{domain}/…segments`, each segment percent-encoded. */
export function domainUrl(
  target: NodeTarget,
  segments: readonly string[],
  query: Readonly<Record<string, string>> = {},
): URL {
  const path = ['v1', 'domains', target.domain, ...segments].map(encodeURIComponent).join('/');
  const url = new URL(path, target.server.url);
  for (const [key, value] of Object.entries(query)) url.searchParams.set(key, value);
  return url;
}

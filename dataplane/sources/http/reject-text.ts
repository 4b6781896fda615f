// Why a request was refused, in one short line for the client (docs/http-ingestion.md, "Why a request
// was refused"): `no vhost for host "127.0.0.1"; known: localhost`. Sent only with `--http-error-body
// explain` (the embedded node's default; off on a cluster, where it would tell any client which hosts and
// paths the node serves). Text the client sent (its host, its path) is quoted with quoteClientText:
// escaped and cut, so the answer is short, printable and cannot pass for anything else.
import type { RoutingTable } from './routing-table.js';
import type { ListenerName, RejectReason } from './telemetry.js';

/** Characters of client text kept in an answer or a log line; the rest is cut and marked `…`. */
export const CLIENT_TEXT_LIMIT = 64;
/** Known hosts or paths listed in an answer before `… and N more`. */
export const KNOWN_LIMIT = 10;

/** What the handler knew when it refused the request. */
export interface RejectContext {
  listener: ListenerName;
  /** The Host header as sent (undefined when there is none). */
  hostHeader: string | undefined;
  /** The canonical host (undefined when the header is not a host). */
  host: string | undefined;
  path: string;
  method: string;
  table: RoutingTable;
  /** The other listener's table: a TLS host asked over HTTP, or a plain one over HTTPS. */
  otherTable: RoutingTable;
  /** The endpoint's MAX BODY SIZE, for 413. */
  maxBodyBytes?: number;
}

/** The answer's text (without the final newline). */
export function rejectText(reason: RejectReason, context: RejectContext): string {
  switch (reason) {
    case 'unknown_host':
      return unknownHost(context);
    case 'unknown_path':
      return `no endpoint at path ${quoteClientText(context.path)} on host ${context.host ?? ''}; known: ${known(context.table.pathsOf(context.host ?? ''))}`;
    case 'method_not_allowed':
      return `method ${context.method} is not allowed at ${quoteClientText(context.path)} on host ${context.host ?? ''}; only POST is`;
    case 'body_too_large':
      return `the body is larger than ${context.maxBodyBytes ?? 0} bytes, the MAX BODY SIZE of this endpoint`;
    case 'deliver_failed':
      return 'the node failed to take the body; its log says why';
  }
}

function unknownHost(context: RejectContext): string {
  const { host, hostHeader, listener } = context;
  const vhost = listener === 'https' ? 'TLS vhost' : 'vhost';
  if (host === undefined) {
    const what =
      hostHeader === undefined ? 'no Host header' : `Host ${quoteClientText(hostHeader)} is not a host name`;
    return `${what}; known: ${known(context.table.hostnames)}`;
  }
  if (context.otherTable.hostnames.includes(host)) {
    const [here, there] = listener === 'https' ? ['HTTPS', 'HTTP'] : ['HTTP', 'HTTPS'];
    return `host ${quoteClientText(host)} is not served over ${here}; its vhost is served over ${there}`;
  }
  return `no ${vhost} for host ${quoteClientText(host)}; known: ${known(context.table.hostnames)}`;
}

/** `a, b, c`, sorted, at most KNOWN_LIMIT then `… and 4 more`; `none` when empty. */
function known(names: readonly string[]): string {
  if (names.length === 0) return 'none';
  const sorted = [...names].sort();
  const shown = sorted.slice(0, KNOWN_LIMIT).join(', ');
  return sorted.length > KNOWN_LIMIT ? `${shown}, … and ${sorted.length - KNOWN_LIMIT} more` : shown;
}

/**
 * `"text"`: printable ASCII kept, `"` and `\` escaped, anything else as `\xHH` (or `\u{H…}` above 0xFF),
 * cut after `limit` characters of the input with `…` after the closing quote.
 */
export function quoteClientText(text: string, limit = CLIENT_TEXT_LIMIT): string {
  const { escaped, cut } = escapeClientText(text, limit);
  return `"${escaped}"${cut ? '…' : ''}`;
}

/** The escaping of quoteClientText without the quotes: `cut` when the text was longer than `limit`. */
export function escapeClientText(text: string, limit = CLIENT_TEXT_LIMIT): { escaped: string; cut: boolean } {
  const chars = [...text];
  let escaped = '';
  for (const char of chars.slice(0, limit)) escaped += escapeChar(char);
  return { escaped, cut: chars.length > limit };
}

function escapeChar(char: string): string {
  const code = char.codePointAt(0) ?? 0;
  if (char === '"' || char === '\\') return `\\${char}`;
  if (code >= 0x20 && code <= 0x7e) return char;
  return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u{${code.toString(16)}}`;
}

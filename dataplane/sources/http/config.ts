// Configuration of HTTP ingestion: the node's startup options and the server limits (validated, pure).
import { isIP } from 'node:net';
import type { ListenAddress } from '../../net/retrying-listener.js';

/** docs/http-ingestion.md, "Listeners". */
export const DEFAULT_HTTP_LISTEN_ADDR = '0.0.0.0:8080';
/** Our choice (docs/http-ingestion.md, "Listeners"): 8443 is the conventional unprivileged HTTPS port. */
export const DEFAULT_HTTPS_LISTEN_ADDR = '0.0.0.0:8443';

/**
 * `--http-error-body`: what a refused request's body says. `explain`: one line of why (the embedded
 * node's default); `empty`: nothing (the default on a cluster: docs/http-ingestion.md).
 */
export const HTTP_ERROR_BODIES = ['explain', 'empty'] as const;
export type HttpErrorBody = (typeof HTTP_ERROR_BODIES)[number];

export type ParsedListenAddress = { ok: true; address: ListenAddress } | { ok: false; message: string };

/** `host:port` with an IPv4 address or a bracketed IPv6 address (`[::]:8080`). */
export function parseListenAddr(text: string): ParsedListenAddress {
  const match = /^(?:\[([^\]]+)\]|([^:[\]]+)):(\d{1,5})$/.exec(text);
  const host = match?.[1] ?? match?.[2];
  const port = Number(match?.[3]);
  const expected = 'expected IP:PORT, for example 0.0.0.0:8080 or [::]:8080';
  if (match === null || host === undefined)
    return { ok: false, message: `${JSON.stringify(text)}: ${expected}` };
  const family = isIP(host);
  if (family === 0 || (family === 6) !== (match[1] !== undefined))
    return {
      ok: false,
      message: `${JSON.stringify(text)}: ${JSON.stringify(host)} is not an IP address; ${expected}`,
    };
  if (port > 65535) return { ok: false, message: `${JSON.stringify(text)}: port ${port} is above 65535` };
  return { ok: true, address: { host, port } };
}

/**
 * Socket limits of both listeners (docs/http-ingestion.md, "Limits"). Node's defaults except the request
 * timeout (300 s there), the TLS handshake timeout (120 s there), how often Node looks for requests past
 * their timeouts (30 s there) and the first-request timeout (none there).
 */
export interface ServerLimits {
  /** An idle keep-alive connection is closed after this long. */
  keepAliveTimeoutMs: number;
  /** The request line and headers must arrive within this time (408 otherwise). */
  headersTimeoutMs: number;
  /** The whole request, body included, must arrive within this time (408 otherwise). */
  requestTimeoutMs: number;
  /** Request line plus headers (431 above). */
  maxHeaderBytes: number;
  /** A new connection that has not started a request by then is closed (Node times none before its first byte). */
  firstRequestTimeoutMs: number;
  /** HTTPS: a TLS handshake not done by then is closed. */
  tlsHandshakeTimeoutMs: number;
  /** How often requests are checked against headersTimeoutMs and requestTimeoutMs. */
  timeoutCheckIntervalMs: number;
}

export const DEFAULT_SERVER_LIMITS: ServerLimits = {
  keepAliveTimeoutMs: 5_000,
  headersTimeoutMs: 60_000,
  requestTimeoutMs: 60_000,
  maxHeaderBytes: 16_384,
  firstRequestTimeoutMs: 30_000,
  tlsHandshakeTimeoutMs: 10_000,
  timeoutCheckIntervalMs: 2_000,
};

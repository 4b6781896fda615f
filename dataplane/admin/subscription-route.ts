// GET /v1/domains/{domain}/relays/{relay}/subscriptions/{subscription}[?buffer=N]: joins the subscription
// and streams its records as NDJSON, one record object per line. The head (200, chunked) is sent at once,
// before the first record, so a client knows it is subscribed. The stream ends when the backend ends the
// subscription (the relay went away) or the server stops, after the queued records are written; the
// reason is the trailer `Streamroute-End-Reason` (HTTP/1.1). A client ends it by closing the connection.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { sendError } from './admin-errors.js';
import { parseBuffer } from './request-params.js';
import type { SubscriptionHub, SubscriptionKey } from './subscription-hub.js';

export const NDJSON_TYPE = 'application/x-ndjson';
export const END_REASON_TRAILER = 'Streamroute-End-Reason';

export interface SubscriptionRouteOptions {
  hub: SubscriptionHub;
  /** Whether a stream that ends should also close its connection (the server is stopping). */
  closingConnections: () => boolean;
}

export function serveSubscription(
  options: SubscriptionRouteOptions,
  request: IncomingMessage,
  response: ServerResponse,
  target: { key: SubscriptionKey; url: URL },
): void {
  const buffer = parseBuffer(target.url.searchParams.getAll('buffer'));
  if (!buffer.ok) return sendError(response, buffer.code, buffer.message);
  const output = {
    stream: response,
    gone: () => response.destroyed || response.socket?.destroyed === true,
    end: (reason: string) => endStream(response, reason, options.closingConnections()),
  };
  const joined = options.hub.join(target.key, output, buffer.value);
  if (!joined.ok) return sendError(response, joined.reason, joined.message);
  const headers: Record<string, string> = {
    'Content-Type': NDJSON_TYPE,
    'Cache-Control': 'no-store',
    'X-Content-Type-Options': 'nosniff',
  };
  // Trailers need chunked encoding, which an HTTP/1.0 client does not get (its stream ends with the close).
  if (response.useChunkedEncodingByDefault) headers.Trailer = END_REASON_TRAILER;
  response.writeHead(200, headers);
  response.flushHeaders();
  joined.member.open();
}

function endStream(response: ServerResponse, reason: string, closeConnection: boolean): void {
  if (response.chunkedEncoding) response.addTrailers({ [END_REASON_TRAILER]: headerText(reason) });
  const socket = response.socket;
  response.end(() => {
    if (closeConnection) socket?.end();
  });
}

/** Visible ASCII and spaces only, at most 200 characters: a reason is a sentence of names and codes. */
function headerText(reason: string): string {
  return reason.replace(/[^\x20-\x7e]/g, '?').slice(0, 200);
}

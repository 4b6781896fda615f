// The error catalog of the admin API, and of the embedded node's control routes served on it
// (operator/node/control-routes.ts): every error response is `{"error":{"code":"…","message":"…"}}`
// with one of these stable codes; the message names what was wrong. docs/admin-api.md has the same table
// (checked by admin-docs.test.ts). Clients branch on the code, never on the message.
import type { ServerResponse } from 'node:http';

export const ADMIN_ERRORS = {
  invalid_path: {
    status: 400,
    meaning: 'The request target is not a path, or a segment is not valid percent-encoding',
  },
  invalid_name: {
    status: 400,
    meaning:
      'A domain, relay, ingestor, emitter or subscription name in the path does not have the required form',
  },
  invalid_buffer: {
    status: 400,
    meaning: '`buffer` is not a whole number from 1 to 1,000,000, or is given more than once',
  },
  invalid_json: { status: 400, meaning: 'The body of a statement request is not JSON' },
  invalid_request: {
    status: 400,
    meaning:
      "The body of a statement request does not have the request's shape, or its uploads do not match the script",
  },
  invalid_upload: {
    status: 400,
    meaning: 'An upload has bad base64, an unsafe path, or a path given twice',
  },
  unauthenticated: {
    status: 401,
    meaning:
      "On the operator's listener (`--internal-listen-addr`): no client certificate, or one the internal CA did not sign or that is out of its validity",
  },
  forbidden: {
    status: 403,
    meaning:
      "On the operator's listener (`--internal-listen-addr`): the client certificate is signed by the internal CA but is not the operator's",
  },
  not_found: { status: 404, meaning: 'No route has this path' },
  unknown_domain: { status: 404, meaning: 'This node runs no graph of that domain' },
  unknown_relay: { status: 404, meaning: 'The domain has no relay of that name on this node' },
  unknown_component: {
    status: 404,
    meaning: 'The domain has no ingestor or emitter of that name on this node',
  },
  method_not_allowed: {
    status: 405,
    meaning: 'The route does not answer this method; the `Allow` header says which one it does',
  },
  body_too_large: {
    status: 413,
    meaning: 'The body is larger than the limit; the rest is not read and the connection closes',
  },
  unsupported_media_type: {
    status: 415,
    meaning: 'A statement request without `Content-Type: application/json`',
  },
  internal_error: {
    status: 500,
    meaning: 'The server failed while answering (a defect; logged with the error name)',
  },
  shutting_down: {
    status: 503,
    meaning: 'The node is stopping: it takes no new subscriptions and runs no new statements',
  },
  too_many_subscribers: {
    status: 503,
    meaning:
      'The node already serves as many subscriber streams as it may (`--max-subscribers`); the refusal is counted in `streamroute_subscribers_refused_total`',
  },
  host_not_allowed: {
    status: 421,
    meaning:
      'The `Host` header (or an absolute request target) names a host the admin API does not answer for: not `localhost`, an IP address or an allowed host',
  },
} as const satisfies Record<string, { status: number; meaning: string }>;

export type AdminErrorCode = keyof typeof ADMIN_ERRORS;

const JSON_TYPE = 'application/json; charset=utf-8';

/** A JSON body (one line) with its length; `no-store`, since every answer describes this moment. */
export function sendJson(
  response: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = `${JSON.stringify(body)}\n`;
  response.writeHead(status, {
    ...headers,
    'Content-Type': JSON_TYPE,
    'Content-Length': Buffer.byteLength(text),
    'Cache-Control': 'no-store',
  });
  response.end(text);
}

export function sendError(
  response: ServerResponse,
  code: AdminErrorCode,
  message: string,
  headers: Record<string, string> = {},
): void {
  sendJson(response, ADMIN_ERRORS[code].status, { error: { code, message } }, headers);
}

/** A text body with its length. */
export function sendText(response: ServerResponse, status: number, contentType: string, text: string): void {
  response.writeHead(status, {
    'Content-Type': contentType,
    'Content-Length': Buffer.byteLength(text),
    'Cache-Control': 'no-store',
  });
  response.end(text);
}

/**
 * Answers 500 when nothing was sent yet; a response already under way (a stream, a control hook that wrote
 * its head) cannot change its status, so its connection is closed instead and the client sees it cut.
 */
export function sendFailure(response: ServerResponse): void {
  if (!response.headersSent) {
    sendError(
      response,
      'internal_error',
      'the admin server failed to answer this request; the node log has the error',
    );
    return;
  }
  response.destroy();
}

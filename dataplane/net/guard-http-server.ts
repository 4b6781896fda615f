// Connection limits and the first-request timeout of an HTTP(S) server (docs/runtime.md, "Connection
// limits"). Node times a request's headers only once their first byte has arrived, so a connection that
// opens and sends nothing (or finishes a TLS handshake and then sends nothing) would hold its descriptor
// for ever: here every accepted connection must start its first request within `firstRequestTimeoutMs` of
// its last byte, or it is closed and counted (`streamroute_connections_timed_out_total{reason="idle"}`).
// Once a request arrives the timer is gone; Node's own timers (headersTimeout, requestTimeout,
// keepAliveTimeout) take over, and a long response (an admin subscription stream) is never cut by it.
import type { IncomingMessage, Server } from 'node:http';
import type { Socket } from 'node:net';
import type { ConnectionGate } from './connection-gate.js';

export interface HttpGuardOptions {
  gate: ConnectionGate;
  firstRequestTimeoutMs: number;
}

const FIRST_REQUEST_TIMER = Symbol('firstRequestTimer');
type Guarded = Socket & { [FIRST_REQUEST_TIMER]?: () => void };

/**
 * Runs before the server's own `connection` handling, so a refused socket is destroyed before HTTP or TLS
 * code reads from it (the ECONNRESET that TLS then reports is known by `wasRefused`). Call it after the
 * server's `request` and `checkContinue` handlers are attached.
 */
export function guardHttpServer(server: Server, options: HttpGuardOptions): void {
  const { gate, firstRequestTimeoutMs } = options;
  const telemetry = gate.telemetry;
  server.prependListener('connection', (socket: Guarded) => {
    if (!gate.admit(socket)) return;
    const expire = (): void => {
      telemetry.timedOut('idle');
      socket.destroy();
    };
    socket[FIRST_REQUEST_TIMER] = expire;
    socket.setTimeout(firstRequestTimeoutMs);
    socket.on('timeout', expire);
  });
  const started = (request: IncomingMessage): void => {
    // HTTPS: the timer is on the TCP socket beneath the TLS socket.
    const socket = request.socket as Guarded & { _parent?: Guarded };
    const raw = socket[FIRST_REQUEST_TIMER] === undefined ? socket._parent : socket;
    const expire = raw?.[FIRST_REQUEST_TIMER];
    if (raw === undefined || expire === undefined) return;
    raw.off('timeout', expire);
    delete raw[FIRST_REQUEST_TIMER];
    // Safe on a plain HTTP socket too: Node arms it for keep-alive only after a response.
    raw.setTimeout(0);
  };
  server.prependListener('request', started);
  // Only where the server answers `Expect: 100-continue` itself: a listener changes how Node handles it.
  if (server.listenerCount('checkContinue') > 0) server.prependListener('checkContinue', started);
}

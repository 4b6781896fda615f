// Traffic the tests send to the node from outside it (the host's side of the node's veth): HTTP POSTs with a
// Host header, syslog frames over UDP, TCP and TLS, and plain connection attempts.
import { createSocket } from 'node:dgram';
import { request } from 'node:http';
import { connect as netConnect } from 'node:net';
import { connect as tlsConnect } from 'node:tls';

export interface HttpAnswer {
  status: number;
  body: string;
}

/** One HTTP request; rejects on a connection error (ECONNREFUSED while nothing listens). */
export function httpRequest(
  options: { host: string; port: number; path: string; method?: string; hostHeader?: string },
  body?: string,
): Promise<HttpAnswer> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: options.host,
        port: options.port,
        path: options.path,
        method: options.method ?? 'GET',
        headers: {
          ...(options.hostHeader === undefined ? {} : { host: options.hostHeader }),
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        timeout: 5_000,
        agent: false,
      },
      (response) => {
        let text = '';
        response.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body: text }));
      },
    );
    req.on('timeout', () => req.destroy(new Error('timed out')));
    req.once('error', reject);
    req.end(body);
  });
}

/** An RFC 5424 frame with this message. */
export function syslogFrame(message: string): string {
  return `<14>1 2026-11-26T10:00:00Z workload app - - - ${message}`;
}

export async function sendUdp(host: string, port: number, message: string): Promise<void> {
  const socket = createSocket('udp4');
  await new Promise<void>((resolve, reject) =>
    socket.send(syslogFrame(message), port, host, (error) => (error ? reject(error) : resolve())),
  );
  socket.close();
}

/** One octet-counted frame over a fresh TCP connection. */
export function sendTcp(host: string, port: number, message: string): Promise<void> {
  const frame = syslogFrame(message);
  return new Promise((resolve, reject) => {
    const socket = netConnect({ host, port }, () =>
      socket.end(`${Buffer.byteLength(frame)} ${frame}`, () => resolve()),
    );
    socket.once('error', reject);
  });
}

/** One octet-counted frame over TLS, verifying the server against `ca` for the name `servername`. */
export function sendTls(
  host: string,
  port: number,
  message: string,
  tls: { ca: Buffer; servername: string },
): Promise<void> {
  const frame = syslogFrame(message);
  return new Promise((resolve, reject) => {
    const socket = tlsConnect({ host, port, ca: tls.ca, servername: tls.servername }, () =>
      // Close a moment after the write: a TLS peer may drop data of a session closed at once.
      socket.write(`${Buffer.byteLength(frame)} ${frame}`, () => {
        setTimeout(() => socket.end(), 200);
        resolve();
      }),
    );
    socket.once('error', reject);
  });
}

/** The error code of a TCP connection attempt, or 'connected'. */
export function tryConnect(host: string, port: number): Promise<string> {
  return new Promise((resolve) => {
    const socket = netConnect({ host, port, timeout: 3_000 }, () => {
      socket.destroy();
      resolve('connected');
    });
    socket.once('timeout', () => {
      socket.destroy();
      resolve('ETIMEDOUT');
    });
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? 'error'));
  });
}

// A stand-in for the API server and kubelet of a port-forward (v4.channel.k8s.io over a websocket), for
// the CLI's port-forward tests: each websocket is connected to a local TCP port, or answered with an
// error on channel 1, or refused at the upgrade.
import assert from 'node:assert/strict';
import { createServer as createHttpServer, type IncomingMessage, type Server } from 'node:http';
import { createRequire } from 'node:module';
import { connect, type AddressInfo } from 'node:net';
import { PORT_FORWARD_PROTOCOL } from '../../operator/cluster/port-forward.js';

interface FakeSocket {
  protocol: string;
  readonly bufferedAmount: number;
  send(data: Buffer, callback?: () => void): void;
  close(): void;
  on(event: 'message', listener: (data: Buffer) => void): void;
  on(event: 'close', listener: () => void): void;
}
interface FakeServer {
  on(event: 'connection', listener: (socket: FakeSocket, request: IncomingMessage) => void): void;
  close(): void;
}
const fromClientNode = createRequire(createRequire(import.meta.url).resolve('@kubernetes/client-node'));
const { WebSocketServer } = fromClientNode('ws') as {
  WebSocketServer: new (options: {
    server: Server;
    handleProtocols?: (protocols: Set<string>) => string | false;
    verifyClient?: (info: { req: IncomingMessage }) => boolean;
  }) => FakeServer;
};

/** Bytes waiting to be sent on a websocket before the upstream socket is paused, and resumed. */
const FLOW_HIGH = 1 << 20;
const FLOW_LOW = 256 << 10;

/** Port bytes (little-endian) of 8081: the first message of each channel. */
const PORT = Buffer.from([0x91, 0x1f]);

/**
 * A stand-in for the API server and kubelet: a websocket that speaks v4.channel.k8s.io and connects each
 * stream to `upstream` (a local port), or answers an error on channel 1 when `fail` is set.
 */
export async function fakeApiServer(options: { upstream?: number; fail?: string; status?: number }): Promise<{
  url: URL;
  requests: IncomingMessage[];
  close(): Promise<void>;
}> {
  const requests: IncomingMessage[] = [];
  const http = createHttpServer();
  const wss = new WebSocketServer({
    server: http,
    handleProtocols: (protocols) => (protocols.has(PORT_FORWARD_PROTOCOL) ? PORT_FORWARD_PROTOCOL : false),
    verifyClient: () => options.status === undefined,
  });
  wss.on('connection', (ws, request) => {
    requests.push(request);
    ws.send(Buffer.concat([Buffer.from([0]), PORT]));
    ws.send(Buffer.concat([Buffer.from([1]), PORT]));
    if (options.fail !== undefined) {
      ws.send(Buffer.concat([Buffer.from([1]), Buffer.from(options.fail)]));
      ws.close();
      return;
    }
    const upstream = connect(options.upstream ?? 0, '127.0.0.1');
    // flow control as the kubelet's: the pod's bytes wait in its socket while the client does not read
    upstream.on('data', (bytes: Buffer) => {
      ws.send(Buffer.concat([Buffer.from([0]), bytes]), () => {
        if (upstream.isPaused() && ws.bufferedAmount < FLOW_LOW) upstream.resume();
      });
      if (ws.bufferedAmount > FLOW_HIGH) upstream.pause();
    });
    upstream.on('close', () => ws.close());
    ws.on('message', (data) => {
      assert.equal(data[0], 0, 'the client writes on channel 0 only');
      upstream.write(data.subarray(1));
    });
    ws.on('close', () => upstream.destroy());
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const port = (http.address() as AddressInfo).port;
  return {
    url: new URL(`http://127.0.0.1:${port}/`),
    requests,
    close: () =>
      new Promise((resolve) => {
        wss.close();
        http.close(() => resolve());
        http.closeAllConnections();
      }),
  };
}

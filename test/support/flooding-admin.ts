// A data-plane admin API stand-in for backpressure tests: it answers every request with an NDJSON stream
// of 1 KB lines written as fast as the socket takes them (up to 256 MiB), and remembers how much it wrote
// and whether a write ever had to wait for 'drain' (the reader held it back).
import { createServer, type Server } from 'node:http';

export interface FloodingAdmin {
  server: Server;
  /** Bytes written so far. */
  written(): number;
  /** Whether the stream was ever held back. */
  blocked(): boolean;
}

export function floodingAdmin(): FloodingAdmin {
  let written = 0;
  let blocked = false;
  const line = `${JSON.stringify({ order_id: 'x'.repeat(1000) })}\n`;
  const server = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'application/x-ndjson' });
    const pump = (): void => {
      while (written < 256 * 1024 * 1024) {
        written += line.length;
        if (!response.write(line)) {
          blocked = true;
          response.once('drain', pump);
          return;
        }
      }
    };
    pump();
  });
  return { server, written: () => written, blocked: () => blocked };
}

// The UDP sender (docs/syslog-wire.md, "Emitters", Addresses): a socket of the answer's family (udp4/udp6),
// `connect()`ed to the address, for the first answer whose setup succeeds. One unit is one datagram; a batch
// succeeded when every send callback reported no error (the kernel took the datagram — UDP has no delivery
// feedback). A connected UDP socket learns of an ICMP port-unreachable as an error on a later send, which
// fails that batch and makes the emitter rebuild the sender like any other transport failure.
import { createSocket, type Socket } from 'node:dgram';
import type { ResolvedAddress } from './connect-budget.js';
import { SenderError, SenderLife, hostPort, senderError, type Sender } from './sender.js';
import type { AttemptHooks } from './stream-sender.js';

export async function openDatagramSender(
  host: string,
  port: number,
  addresses: readonly ResolvedAddress[],
  hooks: AttemptHooks,
): Promise<Sender> {
  const where = hostPort(host, port);
  let last: SenderError | undefined;
  for (const { address, family } of addresses) {
    const remote = hostPort(address, port);
    hooks.attempt(remote, 0);
    try {
      const socket = await connectSocket(family, address, port);
      return new DatagramSender(socket, remote, where);
    } catch (error: unknown) {
      last = senderError(error, where);
      hooks.attemptFailed(remote, last.code);
    }
  }
  throw last ?? new SenderError('ENOTFOUND', `${where}: no address to send to`);
}

function connectSocket(family: 4 | 6, address: string, port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = createSocket(family === 6 ? 'udp6' : 'udp4');
    const fail = (error: unknown): void => {
      socket.close();
      reject(error instanceof Error ? error : new Error(String(error)));
    };
    socket.once('error', fail);
    try {
      socket.connect(port, address, () => {
        socket.off('error', fail);
        resolve(socket);
      });
    } catch (error: unknown) {
      fail(error);
    }
  });
}

class DatagramSender implements Sender {
  readonly #socket: Socket;
  readonly #where: string;
  readonly #life = new SenderLife();

  constructor(
    socket: Socket,
    readonly remote: string,
    where: string,
  ) {
    this.#socket = socket;
    this.#where = where;
    socket.on('error', (error: unknown) => {
      const failure = senderError(error, where);
      this.#life.noteError(failure);
      if (this.#life.closed) return;
      socket.close();
      this.#life.lose(failure);
    });
  }

  send(units: readonly Uint8Array[]): Promise<void> {
    if (this.#life.closed) {
      return this.#life.gone(
        () => new SenderError('ERR_SOCKET_DGRAM_NOT_RUNNING', `${this.#where}: the socket is closed`),
      );
    }
    const sends = units.map((unit) =>
      this.#life.write((done) =>
        this.#socket.send(unit, (error) =>
          done(error === null || error === undefined ? undefined : senderError(error, this.#where)),
        ),
      ),
    );
    return Promise.all(sends).then(() => undefined);
  }

  onLost(listener: (error: SenderError) => void): void {
    this.#life.onLost(listener);
  }

  close(): void {
    const closed = new SenderError('ERR_SOCKET_DGRAM_NOT_RUNNING', `${this.#where}: the sender was closed`);
    if (this.#life.close(closed)) this.#socket.close();
  }
}

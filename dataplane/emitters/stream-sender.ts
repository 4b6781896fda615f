// The TCP and TLS senders (docs/syslog-wire.md, "Emitters"): one persistent connection to the first answer
// that accepts, tried in order, each attempt getting an equal share of what is left of the connection budget
// (the TLS handshake included). TLS always verifies the server against the host of `addr`, whichever address
// answered: SNI carries that host (omitted for an IP literal, which SNI cannot carry) and the identity
// check runs against it; the trust roots are `tls_ca_file` or the platform's; a client certificate and
// key are presented only together; TLS 1.2 at least.
//
// A batch goes out as one `write` of its frames concatenated; it succeeded when the write callback
// reports no error (the kernel took the bytes). The peer closing or resetting the connection is reported
// through `onLost`, so the emitter rebuilds it before the next write.
import { connect as netConnect, isIP, type Socket } from 'node:net';
import { checkServerIdentity, connect as tlsConnect, type ConnectionOptions } from 'node:tls';
import type { ConnectBudget, ResolvedAddress } from './connect-budget.js';
import { PEER_CLOSED, SenderError, SenderLife, hostPort, senderError, type Sender } from './sender.js';

/** Trust roots and client identity of a TLS emitter (PEM); `ca` absent → the platform's roots. */
export interface EmitterTlsMaterial {
  cert?: Buffer;
  key?: Buffer;
  ca?: Buffer;
}

export interface StreamTarget {
  protocol: 'tcp' | 'tls';
  host: string;
  port: number;
  tls?: EmitterTlsMaterial;
}

export interface AttemptHooks {
  /** Before each address attempt (debug logs): the address and the time it may take. */
  attempt(remote: string, timeoutMs: number): void;
  /** After a failed attempt, before the next address. */
  attemptFailed(remote: string, code: string): void;
}

/** Connects to the first of `addresses` that accepts (and, for TLS, verifies) within the budget. */
export async function openStreamSender(
  target: StreamTarget,
  addresses: readonly ResolvedAddress[],
  budget: ConnectBudget,
  hooks: AttemptHooks,
): Promise<Sender> {
  let last: SenderError | undefined;
  for (let i = 0; i < addresses.length; i++) {
    const address = addresses[i] as ResolvedAddress;
    const remote = hostPort(address.address, target.port);
    const share = budget.share(addresses.length - i);
    if (share <= 0) break;
    hooks.attempt(remote, share);
    try {
      return await connectOnce(target, { address: address.address, remote, timeoutMs: share }, budget);
    } catch (error: unknown) {
      last = senderError(error, hostPort(target.host, target.port));
      hooks.attemptFailed(remote, last.code);
    }
  }
  const where = hostPort(target.host, target.port);
  throw (
    last ?? new SenderError('ETIMEDOUT', `${where}: the connection budget ran out before an address answered`)
  );
}

interface Attempt {
  address: string;
  /** `address:port`, for logs. */
  remote: string;
  timeoutMs: number;
}

function connectOnce(
  target: StreamTarget,
  { address, remote, timeoutMs }: Attempt,
  budget: ConnectBudget,
): Promise<Sender> {
  const socket =
    target.protocol === 'tls' ? tlsSocket(target, address) : netConnect({ host: address, port: target.port });
  const ready = target.protocol === 'tls' ? 'secureConnect' : 'connect';
  const where = hostPort(target.host, target.port);
  // Errors after this step are the sender's (or nobody's, once abandoned): never an unhandled 'error'.
  socket.on('error', () => {});
  const connected = new Promise<Socket>((resolve, reject) => {
    const settle = (): void => {
      socket.off(ready, onReady);
      socket.off('error', onError);
      socket.off('close', onClose);
    };
    const onReady = (): void => {
      settle();
      resolve(socket);
    };
    const onError = (error: Error): void => {
      settle();
      reject(error);
    };
    const onClose = (): void => {
      settle();
      reject(new SenderError(PEER_CLOSED, `${where}: the connection closed while opening`));
    };
    socket.on(ready, onReady);
    socket.on('error', onError);
    socket.on('close', onClose);
  });
  const timeout = (): SenderError =>
    new SenderError(
      'ETIMEDOUT',
      `${where}: ${remote} did not ${target.protocol === 'tls' ? 'complete the TLS handshake' : 'accept'} within ${Math.round(timeoutMs)} ms`,
    );
  return budget
    .race(connected, timeout, timeoutMs, () => socket.destroy())
    .then(
      (open) => new StreamSender(open, remote, where),
      (error: unknown) => {
        socket.destroy();
        throw error;
      },
    );
}

function tlsSocket(target: StreamTarget, address: string): Socket {
  const material = target.tls ?? {};
  const options: ConnectionOptions = {
    host: address,
    port: target.port,
    minVersion: 'TLSv1.2',
    // The name from `addr`, whichever address answered.
    checkServerIdentity: (_servername, cert) => checkServerIdentity(target.host, cert),
  };
  if (isIP(target.host) === 0) options.servername = target.host;
  if (material.ca !== undefined) options.ca = material.ca;
  if (material.cert !== undefined && material.key !== undefined) {
    options.cert = material.cert;
    options.key = material.key;
  }
  return tlsConnect(options);
}

class StreamSender implements Sender {
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
    socket.setKeepAlive(true);
    socket.on('error', (error: unknown) => {
      this.#life.noteError(senderError(error, where));
    });
    // A syslog receiver sends nothing; whatever arrives is read and discarded so it cannot back up.
    socket.on('data', () => {});
    socket.on('close', () =>
      this.#life.lose(
        this.#life.error ?? new SenderError(PEER_CLOSED, `${where}: the peer closed the connection`),
      ),
    );
  }

  send(units: readonly Uint8Array[]): Promise<void> {
    if (this.#life.closed || this.#socket.destroyed) {
      return this.#life.gone(() => new SenderError(PEER_CLOSED, `${this.#where}: the connection is closed`));
    }
    const data = units.length === 1 ? (units[0] as Uint8Array) : Buffer.concat(units);
    return this.#life.write((done) =>
      this.#socket.write(data, (error) => {
        // Node calls back WITHOUT an error for a write the kernel never took when a reset destroyed the
        // socket meanwhile (measured on Node 20): only a write on a socket still intact succeeded.
        const intact = !this.#socket.destroyed && this.#life.error === undefined;
        if ((error === undefined || error === null) && intact) {
          done();
          return;
        }
        // The socket's own error (ECONNRESET, EPIPE) may be emitted just after the callback: wait for it.
        setImmediate(() =>
          done(
            this.#life.error ??
              (error
                ? senderError(error, this.#where)
                : new SenderError(PEER_CLOSED, `${this.#where}: the connection closed during a write`)),
          ),
        );
      }),
    );
  }

  onLost(listener: (error: SenderError) => void): void {
    this.#life.onLost(listener);
  }

  close(): void {
    this.#life.close(new SenderError(PEER_CLOSED, `${this.#where}: the sender was closed`));
    this.#socket.destroy();
  }
}

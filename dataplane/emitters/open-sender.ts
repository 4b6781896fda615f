// Opening a sender for a syslog client (docs/syslog-wire.md, "Emitters", Addresses): the host of
// `addr` is resolved every time (a literal address is used as it is), within ONE connection budget that
// the lookup, the address attempts and the TLS handshake all spend; then UDP sets up a socket for the
// first answer that takes one, TCP and TLS connect to the first answer that accepts. Each attempt is
// logged at debug with the address it tried — never anything of the payload or the TLS material.
import type { Logger } from 'pino';
import type { GraphSyslogClient } from '../graph/types.js';
import type { Clock } from '../core/clock.js';
import {
  ConnectBudget,
  DEFAULT_CONNECT_BUDGET_MS,
  resolveTarget,
  systemResolver,
  type Resolver,
} from './connect-budget.js';
import { openDatagramSender } from './datagram-sender.js';
import { hostPort, type Sender } from './sender.js';
import { openStreamSender, type AttemptHooks, type EmitterTlsMaterial } from './stream-sender.js';

export interface SenderTarget {
  client: GraphSyslogClient;
  tls?: EmitterTlsMaterial | undefined;
  clock: Clock;
  resolve?: Resolver | undefined;
  connectBudgetMs?: number | undefined;
}

export async function openSender(target: SenderTarget, log: Logger): Promise<Sender> {
  const { client, clock } = target;
  const where = hostPort(client.host, client.port);
  const budget = new ConnectBudget(clock, target.connectBudgetMs ?? DEFAULT_CONNECT_BUDGET_MS);
  const addresses = await resolveTarget(client.host, target.resolve ?? systemResolver, budget, where);
  const hooks: AttemptHooks = {
    attempt: (remote, timeoutMs) =>
      log.debug({ event: 'emitter_attempt', remote, timeoutMs: Math.round(timeoutMs) }, 'connection attempt'),
    attemptFailed: (remote, code) =>
      log.debug({ event: 'emitter_attempt_failed', remote, code }, 'connection attempt failed'),
  };
  if (client.protocol === 'udp') return openDatagramSender(client.host, client.port, addresses, hooks);
  const stream = { protocol: client.protocol, host: client.host, port: client.port };
  return openStreamSender(
    target.tls === undefined ? stream : { ...stream, tls: target.tls },
    addresses,
    budget,
    hooks,
  );
}

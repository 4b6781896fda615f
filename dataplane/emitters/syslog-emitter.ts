// The syslog emitter (docs/syslog-wire.md, "Emitters"): a RecordEmitter (record-emitter.ts) whose transport
// is the syslog client's: each message is checked to be framable for udp, tcp or tls (wire-units.ts), a
// batch is written as one buffer of frames on a stream, as datagrams on UDP — or with BATCH and a SYSLOG
// codec on UDP, one datagram per batch in the batch form (batch-units.ts: split in halves above the UDP
// limit; a single member still too large is SR3030, never sent bare, so every datagram of a batching
// emitter has the same shape) — and the sender is opened by resolving and connecting (open-sender.ts).
import type { GraphSyslogClient } from '../graph/types.js';
import type { Resolver } from './connect-budget.js';
import { openSender } from './open-sender.js';
import { RecordEmitter, type RecordEmitterOptions } from './record-emitter.js';
import { hostPort } from './sender.js';
import type { EmitterTlsMaterial } from './stream-sender.js';
import { WireUnits } from './wire-units.js';

export type { ResolvedAddress, Resolver } from './connect-budget.js';
export type { EmitterStats, EmitterStatus } from './emitter-status.js';
export type { EmitterTlsMaterial } from './stream-sender.js';
export { DEFAULT_MAX_QUEUED_BYTES, DEFAULT_STOP_GRACE_MS, MAX_WRITE_BYTES } from './record-emitter.js';

export interface SyslogEmitterOptions extends Omit<RecordEmitterOptions<Uint8Array>, 'transport'> {
  client: GraphSyslogClient;
  tls?: EmitterTlsMaterial;
  resolve?: Resolver;
  connectBudgetMs?: number;
}

export class SyslogEmitter extends RecordEmitter<Uint8Array> {
  constructor(options: SyslogEmitterOptions) {
    const { client } = options;
    super({
      ...options,
      transport: ({ queue, messageError }) => {
        const wire = new WireUnits({
          client,
          codec: options.codec,
          batching: options.spec.batch !== undefined,
          queue,
          onMemberError: messageError,
        });
        return {
          where: hostPort(client.host, client.port),
          units: { writePerUnit: client.protocol === 'udp', bytesOf: (unit) => unit.length },
          check: (message) => wire.check(message),
          bytesOf: (message) => wire.bytesOf(message),
          unitsOf: (batch) => wire.of(batch),
          open: (log) => openSender(options, log),
        };
      },
    });
  }
}

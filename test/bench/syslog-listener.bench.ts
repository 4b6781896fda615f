// Throughput of one syslog TCP connection into a trivial deliver (counts frames): 2M octet-counted RFC 5424
// lines of ~120 bytes written over loopback in 1 MiB writes. Also times the framer alone on the same bytes
// as a baseline in the same run. Not a test.
//   npx tsx test/bench/syslog-listener.bench.ts [frames]
import { connect } from 'node:net';
import { pino } from 'pino';
import { Registry } from 'prom-client';
import { systemClock } from '../../dataplane/core/clock.js';
import { Telemetry } from '../../dataplane/core/telemetry.js';
import { StreamFramer } from '../../dataplane/sources/syslog/stream-framer.js';
import { createSyslogListener } from '../../dataplane/sources/syslog/syslog-listener.js';

const total = Number(process.argv[2] ?? 2_000_000);
const line = (n: number): string => {
  const body = `<134>1 2024-05-01T12:00:00.000Z host-01 app 1234 ID47 - message number ${n} padding padding pad\n`;
  return `${Buffer.byteLength(body)} ${body}`;
};
const chunks: Buffer[] = [];
let pending: string[] = [];
let size = 0;
for (let n = 0; n < total; n++) {
  const text = line(n);
  pending.push(text);
  size += text.length;
  if (size >= 1 << 20) {
    chunks.push(Buffer.from(pending.join('')));
    pending = [];
    size = 0;
  }
}
if (pending.length > 0) chunks.push(Buffer.from(pending.join('')));
const bytes = chunks.reduce((sum, chunk) => sum + chunk.length, 0);

function framerOnly(): number {
  const framer = new StreamFramer(131_072);
  let frames = 0;
  const started = performance.now();
  for (const chunk of chunks)
    for (let at = 0; at < chunk.length; at += 65_536)
      framer.push(chunk.subarray(at, at + 65_536), () => frames++);
  const seconds = (performance.now() - started) / 1000;
  if (frames !== total) throw new Error(`framer: ${frames} frames`);
  return total / seconds;
}

async function overTcp(): Promise<number> {
  const registry = new Registry();
  const logger = pino({ level: 'warn' });
  let frames = 0;
  let done: () => void = () => {};
  const finished = new Promise<void>((resolve) => (done = resolve));
  const listener = createSyslogListener({
    domain: 'bench',
    ingestor: 'in',
    protocol: 'tcp',
    address: { host: '127.0.0.1', port: 0 },
    maxMessageSize: 131_072,
    quiesce: { action: 'SUSPEND' },
    deliver: () => {
      if (++frames === total) done();
    },
    drops: new Telemetry({ registry, logger, domain: 'bench' }).component('syslog-ingestor', 'in'),
    logger,
    clock: systemClock,
  });
  const { port } = await listener.start();
  const socket = connect({ port: port!, host: '127.0.0.1' });
  await new Promise((resolve) => socket.once('connect', resolve));
  const started = performance.now();
  for (const chunk of chunks) if (!socket.write(chunk)) await new Promise((r) => socket.once('drain', r));
  await finished;
  const seconds = (performance.now() - started) / 1000;
  socket.destroy();
  await listener.stop();
  return total / seconds;
}

const baseline = framerOnly();
const tcp = await overTcp();
const mb = (bytes / 1e6).toFixed(0);
console.log(`${total} frames, ${mb} MB: framer alone ${Math.round(baseline)} frames/s`);
console.log(`one TCP connection into a counting deliver: ${Math.round(tcp)} frames/s`);

// The wire daemons on their own, before any node is involved: each receiver writes the fields of a frame
// sent with node:net / node:tls exactly, and each sender forwards what util-linux logger gives it to a
// node:net server with the framing it was configured for.
import assert from 'node:assert/strict';
import { createServer, type Server, type Socket } from 'node:net';
import { createServer as createTlsServer } from 'node:tls';
import { testPki } from './test-pki.js';
import { LOGGER, requireSyslogPeer, runLogger, startPeer } from './syslog-peers.js';
import {
  requireWireDaemon,
  sendFrame,
  startRsyslogReceiver,
  startRsyslogSender,
  startSyslogNgReceiver,
  startSyslogNgSender,
  type ReceiverInput,
  type ReceiverTls,
  type WireReceiver,
  type WireSender,
} from './syslog-wire-daemons.js';

const LINE = '<165>1 2026-11-24T10:00:00.123456Z web-7 shop 4242 ORDER [order@32473 id="S-1"] order placed';
const FIELDS = {
  pri: '165',
  hostname: 'web-7',
  app_name: 'shop',
  proc_id: '4242',
  msg_id: 'ORDER',
  structured_data: '[order@32473 id="S-1"]',
  message: 'order placed',
};

function receiverTls(): ReceiverTls {
  const pki = testPki();
  return {
    ca: pki.ca.certFile,
    cert: pki.server.certFile,
    key: pki.server.keyFile,
    client: { cert: pki.client.certFile, key: pki.client.keyFile },
  };
}

/** Writes `bytes` on a new connection (TLS with the test client certificate); see sendFrame. */
function write(port: number, bytes: string, tls = false): Promise<() => void> {
  const pki = testPki();
  return sendFrame(
    port,
    bytes,
    tls ? { tls: { ca: pki.ca.cert, cert: pki.client.cert, key: pki.client.key } } : {},
  );
}

const INPUTS: Record<string, ReceiverInput> = {
  udp: { transport: 'udp' },
  tcp: { transport: 'tcp', ngDriver: 'network' },
  tls: { transport: 'tls', mutual: true },
  anon: { transport: 'tls', driver: 'gtls' },
};

function receiverSuite(name: 'rsyslog' | 'syslog-ng', start: typeof startRsyslogReceiver): void {
  describe(`syslog-wire-daemons: ${name} as a receiver`, function () {
    this.timeout(30_000);
    let receiver: WireReceiver | undefined;
    before(async function () {
      requireWireDaemon(this, name);
      receiver = await startPeer(this, name, () => start(INPUTS, receiverTls()));
    });
    after(async () => receiver?.stop());

    it('writes each field of an LF-framed TCP line separately', async () => {
      const close = await write(receiver!.ports['tcp']!, `${LINE}\n`);
      const got = await receiver!.next('tcp').finally(close);
      assert.deepEqual({ ...got, timestamp: '' }, { ...FIELDS, timestamp: '' });
      assert.equal(Date.parse(got.timestamp), Date.parse('2026-11-24T10:00:00.123456Z'));
      assert.match(got.timestamp, /\.123456/);
    });

    for (const input of ['tls', 'anon']) {
      it(`takes an octet-counted frame over TLS (${input})`, async () => {
        const close = await write(receiver!.ports[input]!, `${Buffer.byteLength(LINE)} ${LINE}`, true);
        const got = await receiver!.next(input).finally(close);
        assert.deepEqual({ ...got, timestamp: '' }, { ...FIELDS, timestamp: '' });
      });
    }
  });
}

receiverSuite('rsyslog', startRsyslogReceiver);
receiverSuite('syslog-ng', startSyslogNgReceiver);

/** A node:net (or node:tls, with mutual TLS) server keeping every byte each connection sent. */
class ByteSink {
  readonly server: Server;
  readonly received: Buffer[] = [];
  constructor(tls = false) {
    const keep = (socket: Socket): void => {
      socket.on('data', (chunk: Buffer) => this.received.push(chunk));
    };
    const pki = testPki();
    this.server = tls
      ? createTlsServer(
          {
            cert: pki.server.cert,
            key: pki.server.key,
            ca: pki.ca.cert,
            requestCert: true,
            rejectUnauthorized: true,
          },
          keep,
        )
      : createServer(keep);
  }
  async listen(): Promise<number> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', () => resolve()));
    const address = this.server.address();
    return typeof address === 'object' && address !== null ? address.port : 0;
  }
  text(): string {
    return Buffer.concat(this.received).toString('utf8');
  }
  close(): void {
    this.server.close();
  }
}

async function waitForText(sink: ByteSink, pattern: RegExp): Promise<string> {
  const deadline = Date.now() + 10_000;
  while (!pattern.test(sink.text())) {
    if (Date.now() > deadline)
      throw new Error(`no match for ${String(pattern)}; got ${JSON.stringify(sink.text())}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return sink.text();
}

function senderSuite(
  name: 'rsyslog' | 'syslog-ng',
  start: typeof startRsyslogSender,
  lfPattern: RegExp,
): void {
  describe(`syslog-wire-daemons: ${name} as a sender`, function () {
    this.timeout(30_000);
    let sender: WireSender | undefined;
    const octets = new ByteSink();
    const lf = new ByteSink();
    const tls = new ByteSink(true);
    before(async function () {
      requireSyslogPeer(this, 'util-linux logger', LOGGER);
      requireWireDaemon(this, name);
      const octetPort = await octets.listen();
      const lfPort = await lf.listen();
      const tlsPort = await tls.listen();
      const pki = testPki();
      const identity = { ca: pki.ca.certFile, cert: pki.client.certFile, key: pki.client.keyFile };
      sender = await startPeer(this, name, () =>
        start(
          {
            octets: { transport: 'tcp', port: octetPort },
            lf: { transport: 'tcp', port: lfPort, framing: 'lf', ngDriver: 'network' },
            tls: { transport: 'tls', port: tlsPort, driver: 'gtls' },
          },
          identity,
        ),
      );
    });
    after(async () => {
      await sender?.stop();
      octets.close();
      lf.close();
      tls.close();
    });

    it('forwards logger input octet-counted, the count including what follows exactly', async () => {
      const args = ['--rfc5424=notq', '-t', 'app', '-p', 'local0.info', '--msgid', 'M1', 'hello wire'];
      await runLogger([
        ...args,
        '--udp',
        '--server',
        '127.0.0.1',
        '--port',
        String(sender!.inputs['octets']),
      ]);
      const text = await waitForText(octets, /hello wire/);
      const match = /^(\d+) /.exec(text);
      assert.ok(match, text);
      const body = text.slice(match[0].length);
      assert.equal(Buffer.byteLength(body), Number(match[1]), 'count = bytes after the space');
      assert.match(body, /^<134>1 \S+ \S+ app - M1 - hello wire\n?$/);
    });

    it('forwards over TLS with a client certificate, verifying the server name', async () => {
      const args = ['--rfc5424=notq', '-t', 'app', '-p', 'local0.info', 'hello tls'];
      await runLogger([...args, '--udp', '--server', '127.0.0.1', '--port', String(sender!.inputs['tls'])]);
      assert.match(await waitForText(tls, /hello tls/), /^\d+ <134>1 \S+ \S+ app - - - hello tls\n?$/);
    });

    it('forwards logger input LF-framed', async () => {
      const args = ['--rfc5424=notq', '-t', 'app', '-p', 'local0.info', 'hello lf'];
      await runLogger([...args, '--udp', '--server', '127.0.0.1', '--port', String(sender!.inputs['lf'])]);
      assert.match(await waitForText(lf, /hello lf\n/), lfPattern);
    });
  });
}

senderSuite('rsyslog', startRsyslogSender, /^<134>1 \S+ \S+ app - - - hello lf\n$/);
// network() writes BSD: <PRI>Mmm dd hh:mm:ss[.ffffff] HOST TAG: MSG
senderSuite(
  'syslog-ng',
  startSyslogNgSender,
  /^<134>\w{3} [ \d]\d \d\d:\d\d:\d\d(\.\d+)? \S+ app: hello lf\n$/,
);

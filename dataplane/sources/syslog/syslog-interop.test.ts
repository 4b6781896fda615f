// Real senders into the listener: util-linux logger (TCP, octet-counted and LF), rsyslog (omfwd over TCP
// octet-counted and traditional LF, and over TLS with a client certificate through lmnsd_ossl), syslog-ng
// (syslog() octet-counted RFC 5424, network() LF BSD, and syslog() over TLS with a client certificate).
// Missing peers skip (fail in CI), as every interop test does.
import assert from 'node:assert/strict';
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  Daemon,
  LOGGER,
  RSYSLOGD,
  SYSLOGNG,
  SYSLOGNG_PREFIX,
  UdpTap,
  daemonDir,
  freeUdpPort,
  requireSyslogPeer,
  runLogger,
  startPeer,
} from '../../../test/support/syslog-peers.js';
import { testPki } from '../../../test/support/test-pki.js';
import { startListener, waitFor, type Harness } from './syslog-listener.fixtures.js';

const pki = testPki();

async function listeners(): Promise<Record<'octet' | 'lf' | 'tls', Harness>> {
  return {
    octet: await startListener({ maxMessageSize: 65_536 }),
    lf: await startListener({ maxMessageSize: 65_536 }),
    tls: await startListener({
      protocol: 'tls',
      maxMessageSize: 65_536,
      tls: { cert: pki.server.cert, key: pki.server.key, ca: pki.ca.cert },
    }),
  };
}

async function stopAll(harnesses: Record<string, Harness> | undefined): Promise<void> {
  for (const harness of Object.values(harnesses ?? {})) await harness.listener.stop();
}

/** Sends `count` messages to the daemon's UDP input and waits until every listener has them all. */
async function forwardThrough(input: number, harnesses: Record<string, Harness>, tag: string): Promise<void> {
  const tap = await new UdpTap().open();
  try {
    for (let n = 0; n < 20; n++)
      await tap.send(
        new TextEncoder().encode(`<13>1 2024-05-01T10:00:00Z src app - - - ${tag} m${n}`),
        input,
      );
    for (const [name, harness] of Object.entries(harnesses))
      await waitFor(
        () => harness.received.filter((r) => r.text.includes(`${tag} m`)).length === 20,
        10_000,
        `20 messages through ${name}`,
      );
  } finally {
    tap.close();
  }
  for (const [name, harness] of Object.entries(harnesses)) {
    const texts = harness.received.filter((r) => r.text.includes(`${tag} m`)).map((r) => r.text);
    const numbers = texts.map((text) => /m(\d+)/.exec(text.slice(text.indexOf(tag)))?.[1]);
    assert.deepEqual(
      numbers,
      Array.from({ length: 20 }, (_, n) => String(n)),
      `${name}: every message once, in order`,
    );
    assert.ok(
      texts.every((text) => text.startsWith('<13>')),
      `${name}: frames start at PRI`,
    );
    const closedByFraming = Object.keys(harness.listener.stats.connectionsClosed).filter((c) =>
      c.startsWith('framing:'),
    );
    assert.deepEqual(closedByFraming, [], `${name}: no framing error`);
  }
}

describe('syslog listener with real senders', function () {
  this.timeout(20_000);

  describe('util-linux logger', () => {
    let harness: Harness | undefined;
    before(function () {
      requireSyslogPeer(this, 'logger', LOGGER);
    });
    afterEach(async () => {
      await harness?.listener.stop();
      harness = undefined;
    });

    for (const [name, flags] of [
      ['octet-counted', ['--octet-count']],
      ['non-transparent (LF)', []],
    ] as const) {
      it(`TCP ${name}`, async () => {
        harness = await startListener();
        const port = String(harness.port);
        await runLogger(['--server', '127.0.0.1', '--port', port, '--tcp', ...flags, '--rfc5424', 'one']);
        await runLogger(['--server', '127.0.0.1', '--port', port, '--tcp', ...flags, '--rfc5424', 'two']);
        await waitFor(() => harness!.received.length === 2);
        assert.match(harness.received[0]!.text, /^<13>1 .* one$/);
        assert.match(harness.received[1]!.text, /^<13>1 .* two$/);
      });
    }
  });

  describe('rsyslog omfwd', () => {
    let daemon: Daemon | undefined;
    let harnesses: Record<'octet' | 'lf' | 'tls', Harness> | undefined;
    let input = 0;
    before(async function () {
      requireSyslogPeer(this, 'rsyslogd', RSYSLOGD);
      harnesses = await listeners();
      const { octet, lf, tls } = harnesses;
      const dir = daemonDir('rsyslog-fwd');
      input = await freeUdpPort();
      const forward = (port: number, extra: string): string =>
        `  action(type="omfwd" target="127.0.0.1" port="${port}" protocol="tcp" ${extra})`;
      const config = [
        `global(workDirectory="${dir}" maxMessageSize="64k"`,
        `  DefaultNetstreamDriverCAFile="${pki.ca.certFile}"`,
        `  DefaultNetstreamDriverCertFile="${pki.client.certFile}"`,
        `  DefaultNetstreamDriverKeyFile="${pki.client.keyFile}")`,
        'module(load="imudp")',
        `input(type="imudp" address="127.0.0.1" port="${input}" ruleset="forward")`,
        'ruleset(name="forward") {',
        forward(octet.port, 'TCP_Framing="octet-counted" template="RSYSLOG_SyslogProtocol23Format"'),
        forward(lf.port, 'template="RSYSLOG_ForwardFormat"'),
        forward(
          tls.port,
          'TCP_Framing="octet-counted" template="RSYSLOG_SyslogProtocol23Format" StreamDriver="ossl" ' +
            'StreamDriverMode="1" StreamDriverAuthMode="x509/name" StreamDriverPermittedPeers="localhost"',
        ),
        '}',
      ].join('\n');
      writeFileSync(join(dir, 'rsyslog.conf'), `${config}\n`);
      daemon = await startPeer(this, 'rsyslogd', async () => {
        const started = Daemon.start({
          name: 'rsyslogd',
          dir,
          binary: RSYSLOGD,
          args: ['-n', '-f', join(dir, 'rsyslog.conf'), '-i', join(dir, 'rsyslogd.pid')],
        });
        await started.waitForUdpPort(input);
        return started;
      });
    });
    after(async () => {
      await daemon?.stop();
      await stopAll(harnesses);
    });

    it('forwards over TCP octet-counted (LF inside the count), TCP LF and TLS with a client certificate', async () => {
      await forwardThrough(input, harnesses!, 'rsyslog');
      // RSYSLOG_SyslogProtocol23Format ends in LF, counted in the octet count.
      assert.ok(harnesses!.octet.received.every((r) => r.text.endsWith('\n')));
      assert.ok(harnesses!.lf.received.every((r) => !r.text.endsWith('\n')));
      assert.equal(harnesses!.tls.listener.stats.tlsHandshakeFailures, 0);
    });
  });

  describe('syslog-ng', () => {
    let daemon: Daemon | undefined;
    let harnesses: Record<'octet' | 'lf' | 'tls', Harness> | undefined;
    let input = 0;
    before(async function () {
      requireSyslogPeer(this, 'syslog-ng', SYSLOGNG);
      harnesses = await listeners();
      const { octet, lf, tls } = harnesses;
      const dir = daemonDir('syslog-ng-fwd');
      const lib = join(SYSLOGNG_PREFIX, 'usr/lib/syslog-ng');
      const version = readdirSync(lib).find((name) => /^\d+\.\d+$/.test(name)) ?? '3.38';
      input = await freeUdpPort();
      const tlsOptions =
        `tls(ca-file("${pki.ca.certFile}") cert-file("${pki.client.certFile}") ` +
        `key-file("${pki.client.keyFile}") peer-verify(required-trusted))`;
      const config = [
        `@version: ${version}`,
        'options { stats_freq(0); keep_hostname(yes); use_dns(no); };',
        `source s_in { network(ip("127.0.0.1") port(${input}) transport("udp") flags(syslog-protocol)); };`,
        `destination d_octet { syslog("127.0.0.1" port(${octet.port}) transport("tcp")); };`,
        `destination d_lf { network("127.0.0.1" port(${lf.port}) transport("tcp")); };`,
        `destination d_tls { syslog("localhost" port(${tls.port}) transport("tls") ${tlsOptions}); };`,
        'log { source(s_in); destination(d_octet); destination(d_lf); destination(d_tls); };',
      ].join('\n');
      writeFileSync(join(dir, 'syslog-ng.conf'), `${config}\n`);
      daemon = await startPeer(this, 'syslog-ng', async () => {
        const started = Daemon.start({
          name: 'syslog-ng',
          dir,
          binary: SYSLOGNG,
          args: [
            '-F',
            '--no-caps',
            '-f',
            join(dir, 'syslog-ng.conf'),
            '-R',
            join(dir, 'syslog-ng.persist'),
            '-p',
            join(dir, 'syslog-ng.pid'),
            '-c',
            join(dir, 'syslog-ng.ctl'),
            `--module-path=${join(lib, version)}`,
          ],
          env: { LD_LIBRARY_PATH: lib },
        });
        await started.waitForUdpPort(input);
        return started;
      });
    });
    after(async () => {
      await daemon?.stop();
      await stopAll(harnesses);
    });

    it('forwards with syslog() octet-counted, network() LF and syslog() over TLS with a client certificate', async () => {
      await forwardThrough(input, harnesses!, 'syslog-ng');
      assert.equal(harnesses!.tls.listener.stats.tlsHandshakeFailures, 0);
    });
  });
});

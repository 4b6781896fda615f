// rsyslog and syslog-ng on the wire, for the listener and emitter interop tests: as RECEIVERS (UDP, TCP
// octet-counted or LF, TLS with or without client certificates) that write every message they get to a
// file, one JSON object per line with each syslog field separately, so a test compares fields exactly;
// and as SENDERS that take a message on a loopback UDP input and forward it to a given port over UDP, TCP
// (octet-counted or LF) or TLS. One daemon serves many inputs or outputs, so a suite starts it once.
// A receiver is ready when a probe sent to every input has come out of its file; a sender when it holds
// its UDP inputs (it connects to its targets lazily and retries every second).
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { requirePeer } from './peers.js';
import { RSYSLOGD, SYSLOGNG, requireSyslogPeer } from './syslog-peers.js';

export * from './syslog-wire-peer.js';
export { startRsyslogReceiver, startRsyslogSender } from './syslog-wire-rsyslog.js';
export { startSyslogNgReceiver, startSyslogNgSender } from './syslog-wire-syslog-ng.js';

/** rsyslog's TLS drivers (packages rsyslog-openssl and rsyslog-gnutls), under /usr/lib/<triplet>/rsyslog. */
function rsyslogTlsDrivers(): boolean {
  const dirs = readdirSync('/usr/lib')
    .filter((name) => name.endsWith('-linux-gnu'))
    .map((name) => join('/usr/lib', name, 'rsyslog'));
  return dirs.some((dir) => ['lmnsd_ossl.so', 'lmnsd_gtls.so'].every((file) => existsSync(join(dir, file))));
}

/** For a before() hook: the daemon (for rsyslog, with both TLS drivers) or a skip (a failure in CI). */
export function requireWireDaemon(ctx: Pick<Mocha.Context, 'skip'>, daemon: 'rsyslog' | 'syslog-ng'): void {
  if (daemon === 'syslog-ng') {
    requireSyslogPeer(ctx, daemon, SYSLOGNG);
    return;
  }
  requireSyslogPeer(ctx, daemon, RSYSLOGD);
  const missing =
    'rsyslog TLS drivers lmnsd_ossl/lmnsd_gtls not found; run: bash test/support/install-syslog-peers.sh';
  requirePeer(ctx, rsyslogTlsDrivers(), missing);
}

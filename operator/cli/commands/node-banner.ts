// What `streamroute node` says about itself once it has started (docs/node.md, "Starting and stopping"):
// one line on stdout naming only the listeners that serve, with the addresses they are bound to (port 0
// resolved), then the domains and the data dir. A listener still retrying its bind (`--on-bind-error
// retry`) is left out of that line: it gets a `waiting for …` line on stderr, and a `now serving …` line
// on stdout once it binds, so nothing is announced before a client can reach it.
import type { NodeListener } from '../../../dataplane/node/node-listeners.js';
import { waitingText } from '../../../dataplane/node/node-listeners.js';
import type { EmbeddedNode } from '../../node/embedded-node.js';
import type { Output } from '../../client/report.js';

/** How often listeners that wait for their address are looked at (the CLI's real time). */
const WATCH_INTERVAL_MS = 250;

/** `streamroute node: HTTP 127.0.0.1:8080 · admin http://127.0.0.1:8081 · domain default: graph version 1 · …` */
export function banner(node: EmbeddedNode, dataDir: string | undefined): string {
  const serving = node.listeners().flatMap((listener) => {
    const text = servingText(listener);
    return text === undefined ? [] : [text];
  });
  const domains = [...node.dataPlane.versions()].map(
    ([domain, version]) => `domain ${domain}: graph version ${version}`,
  );
  const data = dataDir === undefined ? 'no --data-dir (nothing kept after stop)' : `data ${dataDir}`;
  const parts = [
    ...(serving.length > 0 ? serving : ['no listener serves yet']),
    ...(domains.length > 0 ? domains : ['no graph yet']),
    data,
  ];
  return `streamroute node: ${parts.join(' · ')}`;
}

/** `HTTP 127.0.0.1:8080`, `syslog udp 127.0.0.1:5514`, `admin http://127.0.0.1:8081`; undefined unless Running. */
export function servingText({ kind, protocol, status }: NodeListener): string | undefined {
  if (status.state !== 'Running') return undefined;
  const bound = status.port === undefined ? status.address : withPort(status.address, status.port);
  switch (kind) {
    case 'http':
      return `HTTP ${bound}`;
    case 'https':
      return `HTTPS ${bound}`;
    case 'syslog':
      return `syslog ${protocol ?? ''} ${bound}`;
    case 'admin':
      return `admin http://${bound}`;
    case 'internal':
      return `operator's listener ${bound}`;
  }
}

/**
 * Says on stderr which listeners are not serving yet, and on stdout when each of them does; stops once
 * none is left or `signal` aborts. A listener a later graph removed is dropped without a word.
 */
export function reportPending(node: EmbeddedNode, output: Output, signal: AbortSignal): void {
  const pending = new Set<string>();
  for (const listener of node.listeners()) {
    if (listener.status.state === 'Running') continue;
    pending.add(listener.what);
    output.err(`streamroute node: ${waitingText(listener)}`);
  }
  if (pending.size === 0) return;
  const timer = setInterval(() => {
    const now = new Map(node.listeners().map((listener) => [listener.what, listener]));
    for (const what of pending) {
      const listener = now.get(what);
      const text = listener === undefined ? undefined : servingText(listener);
      if (listener !== undefined && text === undefined) continue;
      pending.delete(what);
      if (text !== undefined) output.out(`streamroute node: now serving ${text}`);
    }
    if (pending.size === 0) stop();
  }, WATCH_INTERVAL_MS);
  const stop = (): void => {
    clearInterval(timer);
    signal.removeEventListener('abort', stop);
  };
  signal.addEventListener('abort', stop, { once: true });
}

/** The configured address with the bound port (they differ when the port is 0). */
function withPort(configured: string, port: number): string {
  return configured.replace(/:\d+$/, `:${port}`);
}

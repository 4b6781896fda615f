// The node side of the syslog wire interop tests: the statements that declare syslog schemas, listeners
// and emitters, a PKI directory to UPLOAD as a resource, DESCRIBE polled until a state shows, and a
// relay's records read through a subscription as plain objects.
import assert from 'node:assert/strict';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { until, type NodeHarness } from '../fixtures/node-harness.js';

/** The nine syslog fields in schema order. */
export const LOG_FIELDS =
  'facility U8, severity U8, timestamp DATETIME OPTIONAL, hostname STRING OPTIONAL, app_name STRING OPTIONAL, ' +
  'proc_id STRING OPTIONAL, msg_id STRING OPTIONAL, structured_data STRING OPTIONAL, message STRING';

/** `log` (what the SYSLOG codec reads and writes), `received` (plus peer_addr) and the codec `syslog`. */
export const SYSLOG_BASE = [
  `CREATE SCHEMA log (${LOG_FIELDS});`,
  `CREATE SCHEMA received (${LOG_FIELDS}, peer_addr STRING OPTIONAL);`,
  'CREATE CODEC syslog FROM SYSLOG TO SCHEMA log;',
  'CREATE RESOURCE pki;',
].join('\n');

/** A record as a relay subscription shows it. */
export type WireRecord = Record<string, string | number | null>;

/** Config pairs of a CREATE CLIENT … TYPE SYSLOG. */
export function syslogClient(name: string, config: Record<string, string>, mountPki = false): string {
  const pairs = Object.entries(config)
    .map(([key, value]) => `'${key}' = '${value}'`)
    .join(', ');
  return `CREATE CLIENT ${name} TYPE SYSLOG${mountPki ? ' MOUNT pki VERSION LATEST' : ''} CONFIG { ${pairs} };`;
}

/** A listener `<name>_in` on client `<name>` into relay `<name>` (schema received), with peer_addr. */
export function syslogListener(name: string): string {
  return [
    `CREATE RELAY ${name} SCHEMA received UNBRANCHED;`,
    `CREATE SYSLOG LISTENER INGESTOR ${name}_in FROM ${name} MODE NO ACK ON QUIESCE SUSPEND DECODE USING syslog`,
    `  TO ${name} INHERIT ALL SET peer_addr = metadata.peer_addr UNBRANCHED FLUSH IMMEDIATE ON MESSAGE ERROR LOG`,
    '  ON GENERAL ERROR LOG;',
  ].join('\n');
}

/**
 * An emitter `<name>_out` from relay `<name>` (schema log) to client `<name>`, with an optional BATCH
 * clause; records enter the relay as JSON objects POSTed to `/out/<name>` (codec `log_json`, vhost
 * `local`: see EMITTER_BASE).
 */
export function syslogEmitter(name: string, batch?: string): string {
  return [
    `CREATE RELAY ${name} SCHEMA log UNBRANCHED;`,
    `CREATE ENDPOINT ${name}_ep ON local PATH '/out/${name}' TYPE HTTP;`,
    `CREATE HTTP ENDPOINT INGESTOR ${name}_http FROM ${name}_ep MODE NO ACK ON QUIESCE BUFFER MAX SIZE 1MiB`,
    `  DECODE USING log_json TO ${name} INHERIT ALL UNBRANCHED FLUSH IMMEDIATE ON MESSAGE ERROR LOG ON GENERAL ERROR LOG;`,
    `CREATE EMITTER ${name}_out FROM ${name} TO SYSLOG ${name} MODE NO_ACK RETRY POLICY BACKOFF 100ms MAX 1s`,
    `  ENCODE USING syslog${batch === undefined ? '' : ` ${batch}`} FLUSH IMMEDIATE ON MESSAGE ERROR LOG`,
    '  ON GENERAL ERROR LOG;',
  ].join('\n');
}

/** What syslogEmitter needs besides SYSLOG_BASE: a JSON codec into `log` and the vhost. */
export const EMITTER_BASE = [
  "CREATE CODEC log_json FROM JSON TO SCHEMA log WITH JAQ TRANSFORMATIONS ON INGESTION '.';",
  'CREATE VHOST local localhost;',
].join('\n');

/**
 * Uploads copies of `files` (under their own names) as a new version of resource `pki`, then runs
 * `statements` in the same CLI script (clients that MOUNT pki VERSION LATEST bind that version).
 */
export async function uploadPkiAndRun(
  node: NodeHarness,
  files: readonly string[],
  statements: readonly string[],
): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'streamroute-wire-pki-'));
  try {
    for (const file of files) copyFileSync(file, join(dir, basename(file)));
    return await runStatements(node, [`UPLOAD RESOURCE pki VERSION '${dir}';`, ...statements].join('\n'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Runs statements through the CLI; fails with its output unless it exits 0. */
export async function runStatements(node: NodeHarness, script: string): Promise<string> {
  const run = await node.sql(script);
  assert.equal(run.code, 0, `statements failed:\n${run.stderr}\n${run.stdout}`);
  return run.stdout;
}

/** DESCRIBE INGESTOR|EMITTER as the CLI prints it. */
export async function describeText(
  node: NodeHarness,
  kind: 'INGESTOR' | 'EMITTER',
  name: string,
): Promise<string> {
  const run = await node.sql(`DESCRIBE ${kind} ${name};`);
  return `${run.stdout}${run.stderr}`;
}

const DESCRIBE_TIMEOUT_MS = 5_000;

/** Polls DESCRIBE until its text matches `pattern`; returns that text. */
export async function untilDescribed(
  node: NodeHarness,
  kind: 'INGESTOR' | 'EMITTER',
  name: string,
  pattern: RegExp,
): Promise<string> {
  let text = '';
  await until(
    async () => pattern.test((text = await describeText(node, kind, name))),
    `DESCRIBE ${kind} ${name} to match ${String(pattern)}; last:\n${text}`,
    DESCRIBE_TIMEOUT_MS,
  ).catch((error: unknown) => {
    throw new Error(`${error instanceof Error ? error.message : String(error)}\nlast DESCRIBE:\n${text}`);
  });
  return text;
}

let subscriptions = 0;

/**
 * Subscribes to `relay`, runs `send`, and returns the first `count` records that arrive (parsed). The
 * subscription is new for every call, so records sent earlier do not show.
 */
export async function receive(
  node: NodeHarness,
  relay: string,
  send: () => Promise<unknown>,
  { count = 1, timeoutMs = 5_000 }: { count?: number; timeoutMs?: number } = {},
): Promise<WireRecord[]> {
  const stream = await node.subscribe(relay, `wire-${++subscriptions}`);
  try {
    await send();
    await until(
      () => stream.lines.length >= count,
      `${count} record(s) on ${relay} (have ${stream.lines.length})`,
      timeoutMs,
    );
    return stream.lines.slice(0, count).map((line) => JSON.parse(line) as WireRecord);
  } finally {
    stream.disconnect();
  }
}

/**
 * Closes the node, moving its manual clock on while it stops: an emitter that still holds records (one
 * that could not connect) waits a grace period of that clock before it drops them.
 */
export async function closeNode(node: NodeHarness): Promise<void> {
  let closed = false;
  const closing = node.close().finally(() => {
    closed = true;
  });
  while (!closed) {
    node.clock.advance(STOP_STEP_MS);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  await closing;
}

/** How far closeNode moves the clock at a time (the emitter's stop grace is 2 s). */
const STOP_STEP_MS = 1_000;

/** Removes peer_addr after checking it is a loopback IPv4 socket address (`127.0.0.1:<port>`). */
export function withoutPeer(record: WireRecord): WireRecord {
  const { peer_addr: peer, ...rest } = record;
  assert.match(String(peer), /^127\.0\.0\.1:\d+$/, 'peer_addr');
  return rest;
}

// `streamroute [-d DOMAIN] subscribe <subscription> <relay>`: prints the records arriving on a relay, one
// JSON object per line, as they arrive, until interrupted (exit 0) or until the node ends the stream
// (exit 1: the relay was removed or the node stopped, which a script watching records should notice).
import type { IncomingMessage } from 'node:http';
import { EXIT, type Output } from './report.js';
import { domainUrl, type NodeTarget } from './endpoint.js';
import { networkReason, notProtocol } from './errors.js';
import { LineTooLongError, NdjsonLines } from './ndjson-lines.js';
import { answered, errorAnswer, openRequest } from './node-call.js';

/** A line longer than this is not a record: the stream is not the protocol. */
export const MAX_RECORD_BYTES = 64 * 1024 * 1024;

const NDJSON = 'application/x-ndjson';

export interface SubscribeOptions {
  target: NodeTarget;
  /** Resource names (identifiers already mapped). */
  subscription: string;
  relay: string;
  /** The relay as the user wrote it, for saying that it names nothing. */
  relayWritten?: string | undefined;
  /** How many records the node keeps for this subscriber before dropping the oldest (`?buffer=N`). */
  buffer?: number;
  /** Aborting it (SIGINT, SIGTERM, a test) closes the stream and exits 0. */
  signal: AbortSignal;
}

export async function runSubscribe(options: SubscribeOptions, output: Output): Promise<number> {
  const { target, signal } = options;
  if (signal.aborted) return EXIT.ok;
  const query = options.buffer === undefined ? {} : { buffer: String(options.buffer) };
  const url = domainUrl(target, ['relays', options.relay, 'subscriptions', options.subscription], query);
  const response = await openRequest({ server: target.server, method: 'GET', url, accept: NDJSON, signal });
  if (response === undefined) return EXIT.ok;
  if (response.statusCode !== 200) {
    const answer = await errorAnswer(response, target.server);
    if (!answer.ok) {
      const { code, message } = answer.error;
      const missing = `domain ${target.domain} has no relay ${options.relayWritten ?? options.relay} on this node`;
      output.err(`streamroute: ${code === 'unknown_relay' ? missing : message}`);
    }
    return EXIT.invalid;
  }
  if (!isNdjson(response)) {
    response.destroy();
    throw notProtocol(target.server.shown, `${answered(response)}, not a stream of records (${NDJSON})`);
  }
  const stop = (): void => void response.destroy();
  signal.addEventListener('abort', stop, { once: true });
  try {
    return await printRecords(response, options, output);
  } finally {
    signal.removeEventListener('abort', stop);
  }
}

async function printRecords(
  response: IncomingMessage,
  options: SubscribeOptions,
  output: Output,
): Promise<number> {
  const { server } = options.target;
  const lines = new NdjsonLines(MAX_RECORD_BYTES);
  try {
    for await (const chunk of response as AsyncIterable<Buffer>) {
      for (const line of lines.push(chunk)) output.out(line);
    }
  } catch (error: unknown) {
    if (options.signal.aborted) return EXIT.ok;
    response.destroy();
    if (error instanceof LineTooLongError) throw notProtocol(server.shown, `a stream with ${error.message}`);
    output.err(`streamroute: lost the connection to the node at ${server.shown} (${networkReason(error)})`);
    return EXIT.invalid;
  }
  if (options.signal.aborted) return EXIT.ok;
  if (lines.pendingBytes > 0) {
    output.err(
      `streamroute: the stream ended inside a record; its first ${lines.pendingBytes} bytes were not printed`,
    );
  }
  output.err(
    `streamroute: the node ended the subscription ${options.subscription} to relay ${options.relayWritten ?? options.relay} (the relay was removed or the node stopped)`,
  );
  return EXIT.invalid;
}

function isNdjson(response: IncomingMessage): boolean {
  const type = response.headers['content-type'] ?? '';
  return type.split(';', 1)[0]?.trim().toLowerCase() === NDJSON;
}

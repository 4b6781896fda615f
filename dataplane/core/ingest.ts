// The one shape of "hand a payload to an ingestor": the runtime's ingestor entry has it, and every source
// (HTTP targets, syslog listeners) calls it, keeps it, and is retargeted to another one on hot reload.
import type { Value } from './values.js';

/** `metadata.*` of a payload: what the source knows about where it came from (peer, host, path …). */
export type IngestMetadata = Readonly<Record<string, Value>>;

/**
 * Decodes one payload with the ingestor's codec and runs its records through the routes. Fire-and-forget:
 * never throws; an asynchronous codec returns a promise that never rejects and need not be awaited.
 */
export type IngestFn = (payload: Uint8Array, metadata: IngestMetadata) => void | Promise<void>;

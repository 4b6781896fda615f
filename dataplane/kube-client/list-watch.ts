// List, then watch from the list's resourceVersion, as client-go's reflector: bookmarks keep the
// version fresh, a `410 Gone` (the version fell out of the watch cache) relists, a failed request or
// dropped stream retries after a capped, doubling backoff that resets once a watch delivers again.
import { sleep, type Clock } from '../core/clock.js';
import { isStatus, type KubeApi, type WatchEvent } from './kube-api.js';
import type { ObjectMeta } from './object-meta.js';

export interface KubeObject {
  apiVersion?: string;
  kind?: string;
  metadata: ObjectMeta;
}

export interface ListWatchHandlers<T extends KubeObject> {
  /** The whole current set, after every (re)list: replaces what the caller held. */
  onList(items: T[]): void;
  /** One change after the list. */
  onEvent(type: 'ADDED' | 'MODIFIED' | 'DELETED', object: T): void;
  /** A failed request or stream; the loop retries after `backoffMs`. */
  onError?(error: unknown, backoffMs: number): void;
}

export interface ListWatchOptions {
  api: KubeApi;
  /** The collection path, e.g. `/api/v1/configmaps` or `/apis/streamroute.io/v1alpha1/relays`. */
  path: string;
  labelSelector?: string;
  fieldSelector?: string;
  clock: Clock;
  backoff?: { initialMs: number; maxMs: number };
  signal: AbortSignal;
  /**
   * Ask for PartialObjectMetadata: names, labels and annotations only (a Secret's data never leaves the
   * API server). Items come without apiVersion/kind of their own.
   */
  metadataOnly?: boolean;
}

const METADATA_LIST = 'application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1';
const METADATA_ITEM = 'application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1';

interface ListBody<T> {
  metadata: { resourceVersion: string };
  items: T[] | null;
}

/** Runs until `signal` aborts; never rejects. */
export async function runListWatch<T extends KubeObject>(
  options: ListWatchOptions,
  handlers: ListWatchHandlers<T>,
): Promise<void> {
  const backoff = options.backoff ?? { initialMs: 500, maxMs: 30_000 };
  let delay = backoff.initialMs;
  let version: string | undefined;
  const selectors = { labelSelector: options.labelSelector, fieldSelector: options.fieldSelector };
  while (!options.signal.aborted) {
    try {
      if (version === undefined) {
        const list = await options.api.request<ListBody<T>>({
          path: options.path,
          query: selectors,
          ...(options.metadataOnly === true ? { accept: METADATA_LIST } : {}),
        });
        // a metadata-only list that is empty has `items: null`
        handlers.onList(list.items ?? []);
        version = list.metadata.resourceVersion;
      }
      let gone = false;
      let delivered = false;
      const timeoutSeconds = 240 + Math.floor(Math.random() * 120);
      // A connection that died silently delivers nothing and never ends: give up on the stream a
      // little after the server would have ended it, and watch again.
      const stream = deadlineSignal(options.signal, options.clock, (timeoutSeconds + 30) * 1000);
      await options.api
        .watch<T>(
          {
            path: options.path,
            query: {
              ...selectors,
              resourceVersion: version,
              allowWatchBookmarks: true,
              timeoutSeconds,
            },
            ...(options.metadataOnly === true ? { accept: METADATA_ITEM } : {}),
          },
          (event: WatchEvent<T>) => {
            if (event.type === 'ERROR') {
              gone = (event.object as unknown as { code?: number }).code === 410;
              return;
            }
            version = event.object.metadata.resourceVersion ?? version;
            delivered = true;
            delay = backoff.initialMs;
            if (event.type !== 'BOOKMARK') handlers.onEvent(event.type, event.object);
          },
          stream.signal,
        )
        .finally(stream.dispose);
      if (gone) version = undefined;
      else if (!delivered && !options.signal.aborted) {
        // ended without a single event (or with an error other than 410): do not spin on reopening
        await sleep(options.clock, delay, options.signal);
        delay = Math.min(backoff.maxMs, delay * 2);
      }
    } catch (error) {
      if (options.signal.aborted) return;
      if (isStatus(error, 410)) version = undefined;
      handlers.onError?.(error, delay);
      await sleep(options.clock, delay, options.signal);
      delay = Math.min(backoff.maxMs, delay * 2);
    }
  }
}

/** A signal that aborts with `parent` or after `ms`; dispose() disarms the timer. */
function deadlineSignal(
  parent: AbortSignal,
  clock: Clock,
  ms: number,
): { signal: AbortSignal; dispose: () => void } {
  const controller = new AbortController();
  const abort = (): void => controller.abort();
  const timer = clock.setTimeout(abort, ms);
  // A parent aborted while the list was in flight fires no more events: abort now.
  if (parent.aborted) abort();
  else parent.addEventListener('abort', abort, { once: true });
  return {
    signal: controller.signal,
    dispose: () => {
      clock.clearTimeout(timer);
      parent.removeEventListener('abort', abort);
    },
  };
}

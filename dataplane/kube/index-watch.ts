// The data plane's one watch (decision 0015): the index ConfigMap in the operator's namespace, by name
// (`fieldSelector=metadata.name=streamroute-index`), so a node learns of every domain and its version
// with a single watch of a single small object. A deleted or unreadable index keeps what runs.
import type { Logger } from 'pino';
import type { Clock } from '../core/clock.js';
import { corePath, INDEX_NAME, type GraphIndex } from './contract.js';
import { decodeIndex, type ConfigMap } from './graph-configmap.js';
import { errorText, type KubeApi } from '../kube-client/kube-api.js';
import { runListWatch } from '../kube-client/list-watch.js';

export interface IndexWatchOptions {
  /** The operator's namespace, where the index lives. */
  namespace: string;
  logger: Logger;
  clock: Clock;
  onIndex: (index: GraphIndex) => void;
}

/** The index a ConfigMap holds; undefined (logged) when it cannot be read. */
export function indexOf(configMap: ConfigMap, logger: Logger): GraphIndex | undefined {
  const decoded = decodeIndex(configMap);
  if (decoded.ok) return decoded.value;
  logger.warn(
    { event: 'index_invalid', error: decoded.error },
    'the index cannot be read; keeping what runs',
  );
  return undefined;
}

export function watchIndex(api: KubeApi, options: IndexWatchOptions): { abort(): void; done: Promise<void> } {
  const { logger } = options;
  const controller = new AbortController();
  const take = (configMap: ConfigMap): void => {
    const index = indexOf(configMap, logger);
    if (index !== undefined) options.onIndex(index);
  };
  const done = runListWatch<ConfigMap>(
    {
      api,
      path: corePath('configmaps', options.namespace),
      fieldSelector: `metadata.name=${INDEX_NAME}`,
      clock: options.clock,
      signal: controller.signal,
    },
    {
      onList: (items) => items.forEach(take),
      onEvent: (type, configMap) => {
        if (type === 'DELETED')
          logger.warn({ event: 'index_deleted' }, 'the index was deleted; keeping what runs');
        else take(configMap);
      },
      onError: (error, backoffMs) =>
        logger.warn(
          {
            event: 'index_watch_failed',
            error: errorText(error),
            backoffMs,
          },
          'watching the index failed; retrying',
        ),
    },
  );
  return { abort: () => controller.abort(), done };
}

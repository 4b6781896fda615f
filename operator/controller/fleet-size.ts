// The leader publishes the fleet's size on the index every node watches (annotation
// streamroute.io/fleet-nodes, decision 0018): the count of DataplaneNode reports in the cache, rounded up
// to a power of two with hysteresis (fleetBucket), checked every 30 s and written only when it moves
// (a handful of writes over a fleet's life). Nodes derive their heartbeat and their chance of reporting a
// new graph version at once from it; the roll-up derives its stale age and report window.
import type { Logger } from 'pino';
import type { Clock, TimerHandle } from '../../dataplane/core/clock.js';
import { ANNOTATION_FLEET_NODES, corePath, INDEX_NAME } from '../../dataplane/kube/contract.js';
import { fleetBucket, parseFleetNodes } from '../../dataplane/kube/fleet-policy.js';
import type { ConfigMap } from '../../dataplane/kube/graph-configmap.js';
import { errorText, isStatus, type KubeApi } from '../../dataplane/kube-client/kube-api.js';

export const FLEET_CHECK_MS = 30_000;

export interface FleetSizeOptions {
  /** The leader's (fenced) client, read when each check runs. */
  api: () => KubeApi;
  clock: Clock;
  logger: Logger;
  /** The operator's namespace (where the index is). */
  namespace: string;
  /** DataplaneNode reports the cache holds; undefined while it has not listed them. */
  count: () => number | undefined;
  everyMs?: number;
}

export class FleetSizePublisher {
  readonly #o: FleetSizeOptions;
  #timer: TimerHandle | undefined;
  #running = false;
  /** The size on the index as last read or written (undefined: none yet). */
  published: number | undefined;

  constructor(options: FleetSizeOptions) {
    this.#o = options;
  }

  start(): void {
    if (this.#running) return;
    this.#running = true;
    this.#arm(0);
  }

  stop(): void {
    this.#running = false;
    if (this.#timer !== undefined) this.#o.clock.clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  /** One check: read the index, write the annotation if the bucket moved. Resolves whether it wrote. */
  async check(): Promise<boolean> {
    const count = this.#o.count();
    if (count === undefined) return false;
    const path = corePath('configmaps', this.#o.namespace, INDEX_NAME);
    const api = this.#o.api();
    let index: ConfigMap;
    try {
      index = await api.request<ConfigMap>({ path });
    } catch (error) {
      if (isStatus(error, 404)) return false; // no domain published yet: nothing watches a size
      throw error;
    }
    const published = parseFleetNodes(index.metadata.annotations?.[ANNOTATION_FLEET_NODES]);
    this.published = published;
    const wanted = fleetBucket(count, published);
    if (count === 0 || wanted === published) return false;
    const annotations = { ...(index.metadata.annotations ?? {}), [ANNOTATION_FLEET_NODES]: String(wanted) };
    const body = { ...index, metadata: { ...index.metadata, annotations } };
    await api.request({ method: 'PUT', path, body });
    this.published = wanted;
    this.#o.logger.info(
      { event: 'fleet_size_published', reports: count, fleetNodes: wanted },
      'fleet size published',
    );
    return true;
  }

  #arm(ms: number): void {
    if (!this.#running) return;
    this.#timer = this.#o.clock.setTimeout(() => {
      this.#timer = undefined;
      void this.check()
        .catch((error: unknown) => {
          // a conflict (the index moved meanwhile) or a passing failure: the next check tries again
          if (!isStatus(error, 409))
            this.#o.logger.warn(
              { event: 'fleet_size_failed', error: errorText(error) },
              'publishing the fleet size failed',
            );
        })
        .finally(() => this.#arm(this.#o.everyMs ?? FLEET_CHECK_MS));
    }, ms);
  }
}

// What the operator's live API (live.streamroute.io, decision 0019) does once the API server and a
// SubjectAccessReview have let a user in: a relay's records merged from every data-plane pod of the
// domain, and a component's DESCRIBE on every node — the CLI's own fan-out (cluster-subscribe.ts,
// live-describe.ts: a port-forward to each pod's loopback admin API), run with the operator's credentials.
// Each subscription's start and end is logged with the user, domain, relay and name (never a record).
import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type { KubeApi } from '../../dataplane/kube-client/kube-api.js';
import type { LiveHandlers } from '../access/aggregated-api.js';
import { drained } from '../client/drained.js';
import { runClusterSubscribe } from './cluster-subscribe.js';
import type { ClusterOptions } from './cluster-target.js';
import { describeOnNodes } from './live-describe.js';
import type { PodGet } from './pod-admin.js';
import type { PodAccess } from './pod-access.js';

export interface LiveHandlerDeps {
  api: KubeApi;
  /** How the operator reaches the API server (its port-forwards load the same credentials). */
  clusterOptions: ClusterOptions;
  operatorNamespace: string;
  logger: Logger;
  /** How pods are found and reached (default: listed and port-forwarded with the operator's credentials). */
  access?: PodAccess;
  /** Tests: the API connection and websocket of the port-forwards. */
  forward?: Pick<PodGet, 'connection' | 'hooks'>;
}

const SUBSCRIPTION_NAME = /^[a-z0-9][a-z0-9-]{0,62}$/;

/** Lines that are not records carry one key no record field can have (record fields are identifiers). */
export const WARNING_KEY = '@warning';

export function liveHandlers(deps: LiveHandlerDeps): LiveHandlers {
  const log = deps.logger.child({ component: 'live-api' });
  return {
    async relayLog({ caller, namespace, relay, query, signal }, response) {
      const subscription = query.get('subscription') ?? `live-${randomUUID().slice(0, 8)}`;
      if (!SUBSCRIPTION_NAME.test(subscription)) {
        response.writeHead(400, { 'content-type': 'application/json' });
        response.end(
          JSON.stringify({
            kind: 'Status',
            apiVersion: 'v1',
            status: 'Failure',
            reason: 'BadRequest',
            code: 400,
            message: 'subscription: lowercase letters, digits and dashes, at most 63',
          }),
        );
        return;
      }
      const buffer = Number(query.get('buffer') ?? Number.NaN);
      const who = { user: caller.user, domain: namespace, relay, subscription };
      log.info({ event: 'live_subscription_started', ...who }, 'subscription started');
      response.writeHead(200, { 'content-type': 'application/x-ndjson' });
      response.flushHeaders();
      await runClusterSubscribe(
        {
          cluster: { api: deps.api, namespace, options: deps.clusterOptions },
          operatorNamespace: deps.operatorNamespace,
          subscription,
          relay,
          ...(Number.isSafeInteger(buffer) && buffer > 0 ? { buffer } : {}),
          signal,
          drained: () => drained(response),
          ...(deps.access === undefined ? {} : { access: deps.access }),
          ...(deps.forward === undefined ? {} : { forward: deps.forward }),
        },
        {
          out: (line) => void response.write(`${line}\n`),
          err: (text) => void response.write(`${JSON.stringify({ [WARNING_KEY]: text })}\n`),
        },
      );
      response.end();
      log.info({ event: 'live_subscription_ended', ...who }, 'subscription ended');
    },
    async describe({ namespace, kind, name }) {
      const nodes = await describeOnNodes({
        cluster: { api: deps.api, namespace, options: deps.clusterOptions },
        operatorNamespace: deps.operatorNamespace,
        kind: kind === 'emitters' ? 'emitter' : 'ingestor',
        name,
        ...(deps.access === undefined ? {} : { access: deps.access }),
        ...(deps.forward === undefined ? {} : { forward: deps.forward }),
      });
      return { kind, name, namespace, nodes };
    },
  };
}

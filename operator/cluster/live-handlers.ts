// What the operator's live API (live.streamroute.io, decision 0019) does once the API server and a
// SubjectAccessReview have let a user in: a relay's records merged from every data-plane pod of the
// domain, and a component's DESCRIBE on every node (cluster-subscribe.ts, live-describe.ts), each pod read
// through the access given: the internal channel (internal-access.ts) where the chart sets it up. Each
// subscription's start and end is logged with the user, domain, relay, name and why it ended (never a
// record) and counted. A stream the operator ends says why on a last `@warning` line.
import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type { KubeApi } from '../../dataplane/kube-client/kube-api.js';
import type { LiveHandlers } from '../access/aggregated-api.js';
import type { LiveMetrics, StreamEnd } from '../access/live-metrics.js';
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
  metrics?: LiveMetrics;
  /** How pods are found and reached (default: listed and port-forwarded with the operator's credentials). */
  access?: PodAccess;
  /** Tests: the API connection and websocket of the port-forwards. */
  forward?: Pick<PodGet, 'connection' | 'hooks'>;
}

const SUBSCRIPTION_NAME = /^[a-z0-9][a-z0-9-]{0,62}$/;

/** Lines that are not records carry one key no record field can have (record fields are identifiers). */
export const WARNING_KEY = '@warning';

/** What a stream's last line says when the operator, not the user, ended it. */
const ENDINGS: Partial<Record<StreamEnd, string>> = {
  revoked: 'your access to this relay was withdrawn (RBAC): the stream ends',
  lifetime: 'the stream reached its maximum time and ends; open it again to authenticate again',
};

function endReason(signal: AbortSignal): StreamEnd {
  const reason: unknown = signal.reason;
  return reason === 'revoked' || reason === 'lifetime' ? reason : 'client';
}

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
      deps.metrics?.started(namespace);
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
          // the fan-out's messages are written for a terminal ("streamroute: …"); the reader's CLI prefixes its own
          err: (text) =>
            void response.write(`${JSON.stringify({ [WARNING_KEY]: text.replace(/^streamroute: /, '') })}\n`),
        },
      );
      const reason = endReason(signal);
      const why = ENDINGS[reason];
      if (why !== undefined) response.write(`${JSON.stringify({ [WARNING_KEY]: why })}\n`);
      response.end();
      deps.metrics?.ended(namespace, reason);
      log.info({ event: 'live_subscription_ended', ...who, reason }, 'subscription ended');
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

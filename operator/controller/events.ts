// Kubernetes Events (core v1) for what users watch with `kubectl get events`: each Accepted transition
// of an object, and each publish (on the pointer ConfigMap). The body is built purely; posting is the
// thin part, and a failed post is logged, never fails the reconcile.
import { randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import { corePath } from '../../dataplane/kube/contract.js';
import { errorText, type KubeApi } from '../../dataplane/kube-client/kube-api.js';
import { truncate } from './conditions.js';

export const EVENT_COMPONENT = 'streamroute-operator';
const MAX_EVENT_MESSAGE = 1024;

export interface InvolvedObject {
  apiVersion: string;
  kind: string;
  name: string;
  namespace: string;
  uid?: string;
}

export interface EventSpec {
  involved: InvolvedObject;
  type: 'Normal' | 'Warning';
  reason: string;
  message: string;
}

export function eventBody(spec: EventSpec, now: string, suffix: string): Record<string, unknown> {
  const { involved } = spec;
  return {
    apiVersion: 'v1',
    kind: 'Event',
    metadata: { name: `${involved.name}.${suffix}`, namespace: involved.namespace },
    involvedObject: {
      apiVersion: involved.apiVersion,
      kind: involved.kind,
      name: involved.name,
      namespace: involved.namespace,
      ...(involved.uid === undefined ? {} : { uid: involved.uid }),
    },
    reason: spec.reason,
    message: truncate(spec.message, MAX_EVENT_MESSAGE),
    type: spec.type,
    source: { component: EVENT_COMPONENT },
    reportingComponent: EVENT_COMPONENT,
    count: 1,
    firstTimestamp: now,
    lastTimestamp: now,
  };
}

export async function emitEvent(api: KubeApi, spec: EventSpec, now: string, logger: Logger): Promise<void> {
  const body = eventBody(spec, now, randomBytes(8).toString('hex'));
  try {
    await api.request({ method: 'POST', path: corePath('events', spec.involved.namespace), body });
  } catch (error) {
    logger.warn(
      { error: errorText(error), kind: spec.involved.kind, name: spec.involved.name, reason: spec.reason },
      'could not record a Kubernetes event',
    );
  }
}

// May this caller do this in this namespace? Asked of the API server with a SubjectAccessReview, so the
// answer is the cluster's RBAC (or whatever authorizer it runs), never a rule of ours. Answers are kept
// briefly — allowed for ALLOWED_TTL_MS, denied for DENIED_TTL_MS, at most MAX_ENTRIES — and concurrent
// identical questions share one request: a storm of subscription starts by one user is one review.
import type { KubeApi } from '../../dataplane/kube-client/kube-api.js';
import type { Caller } from './front-proxy.js';

export const ALLOWED_TTL_MS = 10_000;
export const DENIED_TTL_MS = 5_000;
export const MAX_ENTRIES = 10_000;

/** What is asked: a verb on a resource (and subresource, name) of an API group, in a namespace. */
export interface ResourceAttributes {
  namespace: string;
  verb: string;
  group: string;
  resource: string;
  subresource?: string;
  name?: string;
}

export interface Decision {
  allowed: boolean;
  /** The authorizer's reason, when it gives one (RBAC gives one for allowed, none for denied). */
  reason: string;
}

interface Entry {
  decision: Promise<Decision>;
  expiresAt: number;
}

export interface AccessReviewOptions {
  api: Pick<KubeApi, 'request'>;
  now?: () => number;
}

export class AccessReview {
  readonly #api: Pick<KubeApi, 'request'>;
  readonly #now: () => number;
  /** Insertion order is age order: the oldest entry goes first when the cache is full. */
  readonly #entries = new Map<string, Entry>();
  /** Reviews sent to the API server (the benchmark counts them). */
  sent = 0;

  constructor(options: AccessReviewOptions) {
    this.#api = options.api;
    this.#now = options.now ?? Date.now;
  }

  decide(caller: Caller, attributes: ResourceAttributes): Promise<Decision> {
    const key = JSON.stringify([caller, attributes]);
    const now = this.#now();
    const known = this.#entries.get(key);
    if (known !== undefined && known.expiresAt > now) return known.decision;
    this.#entries.delete(key);
    const decision = this.#review(caller, attributes);
    // while in flight, the entry is shared; once answered, it lives as long as its kind of answer
    const entry: Entry = { decision, expiresAt: Number.POSITIVE_INFINITY };
    this.#entries.set(key, entry);
    while (this.#entries.size > MAX_ENTRIES)
      this.#entries.delete(this.#entries.keys().next().value as string);
    decision.then(
      (answer) => (entry.expiresAt = this.#now() + (answer.allowed ? ALLOWED_TTL_MS : DENIED_TTL_MS)),
      () => this.#entries.delete(key), // a failed review is not kept: the next asks again
    );
    return decision;
  }

  async #review(caller: Caller, attributes: ResourceAttributes): Promise<Decision> {
    this.sent += 1;
    const review = await this.#api.request<{ status?: { allowed?: boolean; reason?: string } }>({
      method: 'POST',
      path: '/apis/authorization.k8s.io/v1/subjectaccessreviews',
      body: {
        apiVersion: 'authorization.k8s.io/v1',
        kind: 'SubjectAccessReview',
        spec: {
          user: caller.user,
          groups: caller.groups,
          extra: caller.extra,
          ...(caller.uid === undefined ? {} : { uid: caller.uid }),
          resourceAttributes: attributes,
        },
      },
    });
    return { allowed: review.status?.allowed === true, reason: review.status?.reason ?? '' };
  }
}

/** "get relays/log "audit" in namespace shop (API group live.streamroute.io)": for a 403's message. */
export function describeAttributes(attributes: ResourceAttributes): string {
  const resource =
    attributes.subresource === undefined
      ? attributes.resource
      : `${attributes.resource}/${attributes.subresource}`;
  const name = attributes.name === undefined ? '' : ` "${attributes.name}"`;
  return `${attributes.verb} ${resource}${name} in namespace ${attributes.namespace} (API group ${attributes.group})`;
}

// One object's status after a reconcile, pure: its Accepted condition from the compile outcome (or the
// domain's refusal), Ready and the node roll-up for ingestors and emitters, the uploaded versions for a
// Resource, the LATEST bindings for codecs, clients and vhosts — and the merge patch, if any is needed.
import { generationOf, objectId } from './cluster-objects.js';
import type { ObjectOutcome } from './compile-plan.js';
import {
  conditionsOf,
  nextConditions,
  transitionOf,
  type Condition,
  type DesiredCondition,
} from './conditions.js';
import type { ClusterObject } from './domain-snapshot.js';
import type { BoundVersion } from './latest-binding.js';
import { rollUpReady, type DomainNodes } from './node-rollup.js';
import { ACCEPTED, READY, acceptedCondition, statusPatch, type DomainRefusal } from './object-status.js';
import type { ResourceVersionIndex } from './resource-files.js';

const RUNTIME_KINDS = new Set(['HttpIngestor', 'SyslogIngestor', 'TopicIngestor', 'Emitter']);
const BINDING_KINDS = new Set(['Codec', 'SyslogClient', 'KafkaClient', 'Vhost']);

export interface StatusInputs {
  outcomes: ReadonlyMap<string, ObjectOutcome>;
  refusal?: DomainRefusal | undefined;
  resources: ResourceVersionIndex;
  bindings: ReadonlyMap<string, readonly BoundVersion[]>;
  nodes: DomainNodes;
  now: () => string;
}

export interface StatusChange {
  /** The merge patch for the status subresource; undefined when nothing changes. */
  patch: Record<string, unknown> | undefined;
  /** The Accepted condition, when it moved (or appeared): an Event is recorded for it. */
  accepted: Condition | undefined;
}

export function statusChange(object: ClusterObject, inputs: StatusInputs): StatusChange {
  const id = objectId(object);
  const generation = generationOf(object);
  const outcome = inputs.outcomes.get(id);
  const wanted: DesiredCondition[] = [];
  const accepted = outcome === undefined ? undefined : acceptedCondition(outcome, inputs.refusal);
  if (accepted !== undefined) wanted.push(accepted);
  const desired: Record<string, unknown> = {};
  if (RUNTIME_KINDS.has(object.kind)) {
    const { rollup, ready } = rollUpReady(inputs.nodes, object.kind, object.metadata.name);
    wanted.push({ type: READY, ...ready });
    desired.nodes = rollup;
  }
  const before = conditionsOf(object.status);
  const after = nextConditions(before, wanted, generation, inputs.now);
  if (wanted.length > 0) desired.conditions = after;
  if (accepted !== undefined) desired.observedGeneration = generation;
  if (object.kind === 'Resource')
    Object.assign(desired, resourceStatus(object.metadata.name, inputs.resources));
  if (BINDING_KINDS.has(object.kind)) {
    const bound = inputs.bindings.get(id) ?? [];
    desired.boundVersions = bound.length === 0 ? undefined : bound;
  }
  return { patch: statusPatch(object.status, desired), accepted: transitionOf(before, after, ACCEPTED) };
}

function resourceStatus(name: string, resources: ResourceVersionIndex): Record<string, unknown> {
  const versions = resources.versions(name);
  return {
    versions: versions.length === 0 ? undefined : versions,
    latestVersion: resources.latestVersion(name),
  };
}

// One domain's reconcile: compile what the cache holds, publish the graph if it changed, then write
// the statuses that changed. The decisions are pure files (compile-plan, publish-decision,
// desired-status, node-rollup, transactions, latest-binding); this file only sequences them with the
// I/O. The graph is published BEFORE statuses are written: apply→published latency is measured.
import {
  GRAPH_SIZE_GUARD_BYTES,
  POINTER_NAME,
  customPath,
  graphConfigMapName,
  type GraphPointer,
} from '../../dataplane/kube/contract.js';
import { isStatus } from '../../dataplane/kube-client/kube-api.js';
import { API_VERSION } from '../api/index.js';
import { canonicalJson } from '../api/canonical-json.js';
import { compileDomain, prepareCompileAll } from '../compiler/index.js';
import { graphObjectsOf, objectId, pluralOf, toGraphObject } from './cluster-objects.js';
import { planCompile, type CompilePlan } from './compile-plan.js';
import { statusChange, type StatusInputs } from './desired-status.js';
import type {
  ClusterObject,
  DomainSnapshot,
  ReconcileDeps,
  ReconcileDomain,
  ReconcileOutcome,
} from './domain-snapshot.js';
import { emitEvent } from './events.js';
import { encodeInputs, inputId, NO_INPUTS } from './graph-inputs.js';
import { GraphStore, type PointerState } from './graph-store.js';
import { bindObject, recordedBindings, type BoundVersion } from './latest-binding.js';
import { domainNodes } from './node-rollup.js';
import type { DomainRefusal } from './object-status.js';
import {
  decidePublish,
  versionsToPrune,
  type PublishDecision,
  type VersionHead,
} from './publish-decision.js';
import { resourceVersionIndex } from './resource-files.js';
import { TransactionTracker } from './transactions.js';

export interface ReconcilerOptions {
  /** The payload guard (default 900 KiB, decision 0015); tests lower it. */
  sizeGuardBytes?: number;
}

/** What one reconcile of one domain works with. */
interface Run {
  domain: string;
  store: GraphStore;
  deps: ReconcileDeps;
  sizeGuardBytes: number;
  pointerState: PointerState;
  head: VersionHead | undefined;
}

interface Published {
  pointer: GraphPointer | undefined;
  refusal?: DomainRefusal;
}

/** A reconcile with its own memory (transactions seen, LATEST bindings, cached graph versions). */
export function createDomainReconciler(options: ReconcilerOptions = {}): ReconcileDomain {
  const stores = new WeakMap<object, GraphStore>();
  const transactions = new TransactionTracker();
  const bindings = new Map<string, Map<string, BoundVersion[]>>();
  const sizeGuardBytes = options.sizeGuardBytes ?? GRAPH_SIZE_GUARD_BYTES;

  const storeFor = (deps: ReconcileDeps): GraphStore => {
    const known = stores.get(deps.api);
    if (known !== undefined) return known;
    const store = new GraphStore(deps.api);
    stores.set(deps.api, store);
    return store;
  };

  return async (snapshot: DomainSnapshot, deps: ReconcileDeps): Promise<ReconcileOutcome> => {
    const { domain } = snapshot;
    const store = storeFor(deps);
    const objects = graphObjectsOf(snapshot.objects);
    if (objects.length === 0) {
      await store.setIndex(deps.operatorNamespace, domain, undefined);
      bindings.delete(domain);
      transactions.forget(domain);
      return {};
    }
    try {
      const pointerState = await store.readPointer(domain);
      const head = await store.head(domain);
      const run: Run = { domain, store, deps, sizeGuardBytes, pointerState, head };
      const published = head === undefined ? NO_INPUTS : await store.inputsOf(domain, head.version);
      const gate = transactions.gate(domain, objects, published, deps.clock.now());
      const resources = resourceVersionIndex(snapshot.resourceVersions);
      const memory = bindings.get(domain);
      const bound = new Map<string, BoundVersion[]>();
      await prepareCompileAll(); // planCompile may compile published specs too: whatever they hold
      const plan = planCompile({
        objects,
        published,
        held: gate.held,
        prepare: (object) => {
          const recorded = [...(memory?.get(objectId(object)) ?? []), ...recordedBindings(object.status)];
          const binding = bindObject(toGraphObject(object), recorded, (r) => resources.latestVersion(r));
          bound.set(objectId(object), binding.bound);
          return binding.object;
        },
        compile: (inputs) => compileDomain(inputs, { domain, resources }),
      });
      bindings.set(domain, bound);
      const result = await publish(run, plan);
      result.pointer = await honourPin(run, result.pointer);
      const nodes = {
        ...(snapshot.nodes ?? {
          counts: domainNodes(snapshot.nodeReports, domain, Date.parse(deps.now())).counts,
        }),
        ...(result.pointer === undefined ? {} : { publishedVersion: result.pointer.version }),
      };
      const statusInputs = {
        outcomes: plan.outcomes,
        refusal: result.refusal,
        resources,
        bindings: bound,
        nodes,
      };
      await writeStatuses(objects, { ...statusInputs, now: deps.now }, deps);
      return {
        ...(gate.requeueAfterMs === undefined ? {} : { requeueAfterMs: gate.requeueAfterMs }),
        ...(result.pointer === undefined ? {} : { publishedVersion: result.pointer.version }),
      };
    } catch (error) {
      store.forget(domain);
      throw error;
    }
  };
}

export const reconcileDomain: ReconcileDomain = createDomainReconciler();

async function publish(run: Run, plan: CompilePlan): Promise<Published> {
  const { domain, head, deps } = run;
  const { pointer } = run.pointerState;
  if (plan.inputs.length === 0 && head === undefined) return { pointer };
  const graphJson = canonicalJson(plan.result.graph);
  const inputs = encodeInputs(plan.inputs);
  const decision = decidePublish({
    domain,
    graphJson,
    inputs,
    head,
    pointer,
    sizeGuardBytes: run.sizeGuardBytes,
  });
  switch (decision.action) {
    case 'unchanged':
      if (pointer !== undefined) await setIndex(run, pointer);
      return { pointer };
    case 'repoint':
      return { pointer: await movePointer(run, decision.version, decision.sha256) };
    case 'too-large':
      return { pointer, refusal: tooLarge(run, decision) };
    case 'publish': {
      const byId = new Map(plan.inputs.map((input) => [inputId(input), input]));
      await run.store.createVersion(domain, decision.version, decision.configMap, byId);
      const { version, bytes, sha256 } = decision;
      deps.logger.info({ domain, version, bytes, sha256 }, 'published a graph version');
      const after = decision.movePointer ? await movePointer(run, version, sha256) : pointer;
      const versions = await run.store.versions(domain);
      await run.store.prune(domain, versionsToPrune(versions, deps.keepVersions, after));
      return { pointer: after };
    }
  }
}

/**
 * A rollback pin (`streamroute rollback`, decision 0015) names a kept version: the pointer and the index
 * move to it and stay there while the pin is set; new versions are still published as history.
 */
async function honourPin(run: Run, pointer: GraphPointer | undefined): Promise<GraphPointer | undefined> {
  const pinned = pointer?.pinned;
  if (pointer === undefined || pinned === undefined || pinned === pointer.version) return pointer;
  const sha256 = await run.store.sha256Of(run.domain, pinned);
  if (sha256 === undefined) {
    run.deps.logger.warn({ domain: run.domain, pinned }, 'the pinned graph version does not exist');
    return pointer;
  }
  return movePointer(run, pinned, sha256, pinned);
}

async function movePointer(
  run: Run,
  version: number,
  sha256: string,
  pinned?: number,
): Promise<GraphPointer> {
  const { domain, deps } = run;
  const pointer: GraphPointer = {
    version,
    configMap: graphConfigMapName(version),
    sha256,
    ...(pinned === undefined ? {} : { pinned }),
  };
  await run.store.writePointer(domain, run.pointerState, pointer);
  await setIndex(run, pointer);
  const involved = { apiVersion: 'v1', kind: 'ConfigMap', name: POINTER_NAME, namespace: domain };
  const how = pinned === undefined ? 'published' : 'pinned by a rollback';
  const message = `graph version ${version} ${how} (${pointer.configMap}, sha256 ${sha256})`;
  await emitEvent(
    deps.api,
    { involved, type: 'Normal', reason: 'Published', message },
    deps.now(),
    deps.logger,
  );
  return pointer;
}

/** The index follows the pointer; a pin written without its sha256 leaves the index as the CLI set it. */
async function setIndex(run: Run, pointer: GraphPointer): Promise<void> {
  const pinnedElsewhere = pointer.pinned !== undefined && pointer.pinned !== pointer.version;
  if (pinnedElsewhere || pointer.sha256 === '') return;
  const entry = { version: pointer.version, sha256: pointer.sha256 };
  await run.store.setIndex(run.deps.operatorNamespace, run.domain, entry);
}

function tooLarge(run: Run, decision: Extract<PublishDecision, { action: 'too-large' }>): DomainRefusal {
  const { domain, deps } = run;
  const { bytes, limit } = decision;
  deps.logger.error({ domain, bytes, limit }, 'graph too large: not published');
  const pointer = run.pointerState.pointer;
  const keeps = pointer === undefined ? 'no version runs yet' : `version ${pointer.version} keeps running`;
  return {
    reason: 'GraphTooLarge',
    message: `the compiled graph of domain ${domain} takes ${bytes} bytes, above the limit of ${limit} bytes, so it is not published; ${keeps}`,
  };
}

async function writeStatuses(
  objects: readonly ClusterObject[],
  inputs: StatusInputs,
  deps: ReconcileDeps,
): Promise<void> {
  for (const object of objects) {
    if (deps.superseded?.() === true) {
      deps.logger.debug('objects changed: the next reconcile writes the remaining statuses');
      return;
    }
    const change = statusChange(object, inputs);
    if (change.patch !== undefined && !(await patchStatus(object, change.patch, deps))) continue;
    if (change.accepted === undefined) continue;
    const { name, namespace = '', uid } = object.metadata;
    const apiVersion = object.apiVersion ?? API_VERSION;
    const involved = {
      apiVersion,
      kind: object.kind,
      name,
      namespace,
      ...(uid === undefined ? {} : { uid }),
    };
    const type = change.accepted.status === 'True' ? 'Normal' : 'Warning';
    const { reason, message } = change.accepted;
    await emitEvent(deps.api, { involved, type, reason, message }, deps.now(), deps.logger);
  }
}

/** False when the object is gone (nothing to write to). */
async function patchStatus(
  object: ClusterObject,
  patch: Record<string, unknown>,
  deps: ReconcileDeps,
): Promise<boolean> {
  const { name, namespace } = object.metadata;
  const path = `${customPath(pluralOf(object.kind), namespace, name)}/status`;
  const contentType = 'application/merge-patch+json';
  try {
    await deps.api.request({ method: 'PATCH', path, body: { status: patch }, contentType });
    return true;
  } catch (error) {
    if (isStatus(error, 404)) return false;
    throw error;
  }
}

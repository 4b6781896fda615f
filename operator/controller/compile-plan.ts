// What a domain is compiled from, decided without I/O: each object's current spec, except that
//  - a member of a held transaction is compiled with its published spec, or left out (transactions.ts);
//  - an object whose current generation is rejected (or waits on a rejected one) and that is in the
//    published graph's inputs with another generation is compiled again with that last valid spec, so
//    the last valid graph keeps running and one bad object never takes the rest of the domain down.
// The compile itself is injected (compileDomain in production), so the plan is tested with fixtures.
import { IDENTIFIER_ANNOTATION, statementIdentifier } from '../api/display-names.js';
import type { GraphObject } from '../api/index.js';
import type { CompileResult, Verdict } from '../compiler/index.js';
import { generationOf, objectId, toGraphObject } from './cluster-objects.js';
import type { ClusterObject } from './domain-snapshot.js';
import type { GraphInput, GraphInputs } from './graph-inputs.js';
import type { HeldTransaction } from './transactions.js';

/** How an object came out of the plan; statuses are decided from this. */
export type ObjectOutcome =
  | { state: 'held'; transaction: HeldTransaction; generation: number }
  | { state: 'accepted'; generation: number }
  | {
      state: 'rejected' | 'waiting';
      generation: number;
      verdict: Exclude<Verdict, { status: 'accepted' }>;
      /** The earlier generation that keeps running in its place, if any. */
      running?: number;
    };

export interface CompilePlan {
  result: CompileResult;
  /** What the graph was compiled from (accepted objects only): stored with the published version. */
  inputs: GraphInput[];
  /** By `Kind/name`. */
  outcomes: Map<string, ObjectOutcome>;
}

export interface PlanInput {
  objects: readonly ClusterObject[];
  published: GraphInputs;
  held: ReadonlyMap<string, HeldTransaction>;
  /** The object as compiled at its current generation (LATEST bound). */
  prepare: (object: ClusterObject) => GraphObject;
  compile: (objects: readonly GraphObject[]) => CompileResult;
}

/** Rounds of substitution: each can only add previous specs, so this bounds a rare cascade. */
const MAX_ROUNDS = 4;

interface Entry {
  object: ClusterObject;
  id: string;
  current: GraphObject;
  previous: GraphInput | undefined;
  /** What is compiled: the current spec, the previous one, or nothing. */
  use: 'current' | 'previous' | 'none';
}

function compiled(entry: Entry): GraphObject | undefined {
  if (entry.use === 'current') return entry.current;
  if (entry.use === 'none' || entry.previous === undefined) return undefined;
  const { previous } = entry;
  // With its last valid spec goes the name it was shown by then (decision 0025).
  const annotations = { ...entry.object.metadata.annotations };
  delete annotations[IDENTIFIER_ANNOTATION];
  if (previous.identifier !== undefined) annotations[IDENTIFIER_ANNOTATION] = previous.identifier;
  const metadata = { ...entry.object.metadata, generation: previous.generation, annotations };
  return toGraphObject({ ...entry.object, metadata }, previous.spec);
}

export function planCompile(input: PlanInput): CompilePlan {
  const entries: Entry[] = input.objects.map((object) => {
    const id = objectId(object);
    const previous = input.published.get(id);
    const held = input.held.has(id);
    const use = held ? (previous === undefined ? 'none' : 'previous') : 'current';
    return { object, id, current: input.prepare(object), previous, use };
  });
  const firstVerdicts = new Map<string, Verdict>();
  let result = compileEntries(input, entries);
  for (let round = 1; round < MAX_ROUNDS; round += 1) {
    let substituted = false;
    for (const entry of entries) {
      if (entry.use !== 'current') continue;
      const verdict = result.verdicts.get(entry.id);
      firstVerdicts.set(entry.id, verdict ?? { status: 'accepted' });
      if (verdict === undefined || verdict.status === 'accepted') continue;
      if (entry.previous === undefined || entry.previous.generation === generationOf(entry.object)) continue;
      entry.use = 'previous';
      substituted = true;
    }
    if (!substituted) break;
    result = compileEntries(input, entries);
  }
  return {
    result,
    inputs: inputsOf(entries, result),
    outcomes: outcomesOf(input, entries, result, firstVerdicts),
  };
}

function compileEntries(input: PlanInput, entries: readonly Entry[]): CompileResult {
  return input.compile(entries.map(compiled).filter((object) => object !== undefined));
}

function inputsOf(entries: readonly Entry[], result: CompileResult): GraphInput[] {
  const inputs: GraphInput[] = [];
  for (const entry of entries) {
    const object = compiled(entry);
    if (object === undefined || result.verdicts.get(entry.id)?.status !== 'accepted') continue;
    const generation = object.metadata.generation ?? 0;
    const identifier = statementIdentifier(object);
    const written = identifier === undefined ? {} : { identifier };
    inputs.push({ kind: object.kind, name: object.metadata.name, generation, spec: object.spec, ...written });
  }
  return inputs;
}

function outcomesOf(
  input: PlanInput,
  entries: readonly Entry[],
  result: CompileResult,
  firstVerdicts: ReadonlyMap<string, Verdict>,
): Map<string, ObjectOutcome> {
  const outcomes = new Map<string, ObjectOutcome>();
  for (const entry of entries) {
    const generation = generationOf(entry.object);
    const transaction = input.held.get(entry.id);
    if (transaction !== undefined) outcomes.set(entry.id, { state: 'held', transaction, generation });
    else outcomes.set(entry.id, judged(entry, result, firstVerdicts));
  }
  return outcomes;
}

/** An object that was compiled: its verdict at its current generation, and what runs in its place. */
function judged(
  entry: Entry,
  result: CompileResult,
  firstVerdicts: ReadonlyMap<string, Verdict>,
): ObjectOutcome {
  const generation = generationOf(entry.object);
  const verdict =
    (entry.use === 'current' ? result.verdicts.get(entry.id) : firstVerdicts.get(entry.id)) ??
    ({ status: 'accepted' } as const);
  if (verdict.status === 'accepted') return { state: 'accepted', generation };
  const substitute = entry.use === 'previous' && result.verdicts.get(entry.id)?.status === 'accepted';
  const running = substitute ? entry.previous?.generation : undefined;
  const state = verdict.status === 'waiting' ? 'waiting' : 'rejected';
  return { state, generation, verdict, ...(running === undefined ? {} : { running }) };
}

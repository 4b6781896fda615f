// What the node keeps of one domain, and its file format. One file per domain holds the objects applied
// by statements, the manifest objects last accepted (with the file that declares each), the graph
// version counter and the last activated graph — one file, so one atomic rename moves all of them
// together and no crash can leave the objects and the graph out of step.
import type { GraphObject } from '../api/index.js';
import { checkGraphObject } from '../api/validate-object.js';
import { isPlainObject } from '../api/validate.js';
import type { Graph } from '../../dataplane/graph/types.js';

/** An object declared by a manifest file; statements may not change it. */
export interface ManifestObject {
  /** The manifest file as the node was given it (`manifests/orders.sql`). */
  file: string;
  object: GraphObject;
}

export interface DomainState {
  /** 0 while no graph has been activated; each changed graph gets the next number. */
  graphVersion: number;
  /** The last activated graph. */
  graph: Graph | null;
  statementObjects: readonly GraphObject[];
  manifestObjects: readonly ManifestObject[];
}

export const EMPTY_STATE: DomainState = {
  graphVersion: 0,
  graph: null,
  statementObjects: [],
  manifestObjects: [],
};

/** Bumped when the layout of the file changes; a file of another format is refused, not guessed at. */
const FORMAT = 1;

export function serializeDomainState(state: DomainState): string {
  return `${JSON.stringify({ format: FORMAT, ...state }, null, 2)}\n`;
}

/** The state in a file's parsed JSON, or what is wrong with it. */
export function parseDomainState(value: unknown): DomainState | string {
  const header = headerProblem(value);
  if (header !== undefined) return header;
  const { graphVersion, graph, statementObjects, manifestObjects } = value as Record<string, unknown>;
  const objects = eachOf(statementObjects as unknown[], graphObject, 'statementObjects');
  if (typeof objects === 'string') return objects;
  const manifest = eachOf(manifestObjects as unknown[], manifestObject, 'manifestObjects');
  if (typeof manifest === 'string') return manifest;
  const repeated =
    repeatedObject(objects, 'statementObjects') ??
    repeatedObject(
      manifest.map((entry) => entry.object),
      'manifestObjects',
    );
  if (repeated !== undefined) return repeated;
  return {
    graphVersion: graphVersion as number,
    graph: graph as Graph | null,
    statementObjects: objects,
    manifestObjects: manifest,
  };
}

function headerProblem(value: unknown): string | undefined {
  if (!isPlainObject(value)) return 'is not a JSON object';
  if (value.format !== FORMAT) return `is not in format ${FORMAT}, the one this node writes`;
  const graph = graphProblem(value.graphVersion, value.graph);
  if (graph !== undefined) return graph;
  if (!Array.isArray(value.statementObjects)) return 'statementObjects is not a list';
  if (!Array.isArray(value.manifestObjects)) return 'manifestObjects is not a list';
  return undefined;
}

function graphProblem(graphVersion: unknown, graph: unknown): string | undefined {
  if (!Number.isSafeInteger(graphVersion) || (graphVersion as number) < 0)
    return 'graphVersion is not a whole number from 0';
  if (graph !== null && !isPlainObject(graph)) return 'graph is neither null nor an object';
  if (graph === null && graphVersion !== 0) return 'graph is null but graphVersion is not 0';
  return undefined;
}

/** Every item read by `read`, or the first problem, naming the item. */
function eachOf<T>(
  items: readonly unknown[],
  read: (item: unknown) => T | string,
  list: string,
): T[] | string {
  const found: T[] = [];
  for (const [index, item] of items.entries()) {
    const each = read(item);
    if (typeof each === 'string') return `${list}[${index}] ${each}`;
    found.push(each);
  }
  return found;
}

function manifestObject(item: unknown): ManifestObject | string {
  if (!isPlainObject(item) || typeof item.file !== 'string') return 'has no file';
  const object = graphObject(item.object);
  return typeof object === 'string' ? object : { file: item.file, object };
}

/**
 * Two items of one list with the same kind and name (a hand edit): one would replace the other at the
 * next change, so the file is refused rather than one of them silently dropped.
 */
function repeatedObject(objects: readonly GraphObject[], list: string): string | undefined {
  const first = new Map<string, number>();
  for (const [index, object] of objects.entries()) {
    const key = `${object.kind}/${object.metadata.name}`;
    const earlier = first.get(key);
    if (earlier !== undefined) return `${list}[${index}] has the kind and name of ${list}[${earlier}]`;
    first.set(key, index);
  }
  return undefined;
}

/** The same checks an object passed when it was applied (its kind's schema). */
function graphObject(item: unknown): GraphObject | string {
  const check = checkGraphObject(item);
  if (check.ok) return check.object;
  const problem = check.problems[0];
  if (problem === undefined) return 'is not a graph object';
  // An unknown field's path ends in a key from the file: name the object that has it, not the key.
  if (problem.message === 'is not a known field') {
    return `${problem.path.split('.').slice(0, -1).join('.') || 'object'} has a field its kind does not know`;
  }
  return `${problem.path || 'object'} ${problem.message}`;
}

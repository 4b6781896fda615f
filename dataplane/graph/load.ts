// Loading a Graph: the data plane checks the JSON against the schema and the references between entries,
// and refuses a graph it cannot run (the caller keeps the graph it has).
import type { ErrorObject, ValidateFunction } from 'ajv';
import { checkGraphReferences } from './check-references.js';
// The schema's validator, generated ahead of time by generate-validator.ts (compiling it here cost every
// node ~140 ms and ~18 MB).
import { validate as generated } from './graph-validator.generated.js';
import type { Graph } from './types.js';

export type LoadResult = { ok: true; graph: Graph } | { ok: false; errors: string[] };

const MAX_ERRORS = 50;

const check = generated as unknown as ValidateFunction;

export function loadGraph(json: unknown): LoadResult {
  if (!check(json)) return { ok: false, errors: (check.errors ?? []).slice(0, MAX_ERRORS).map(describe) };
  const given = json as Graph;
  // Absent in graphs compiled before Kafka (an older operator mid-upgrade): such a graph has none.
  const graph: Graph = {
    ...given,
    kafkaClients: given.kafkaClients ?? {},
    topicIngestors: given.topicIngestors ?? {},
  };
  const errors = checkGraphReferences(graph);
  return errors.length > 0 ? { ok: false, errors: errors.slice(0, MAX_ERRORS) } : { ok: true, graph };
}

/** `/relays/orders/schema: must be string` — the path in JSON Pointer form, and ajv's reason. */
function describe(error: ErrorObject): string {
  const where = error.instancePath === '' ? '(graph)' : error.instancePath;
  const params = error.params as Record<string, unknown>;
  if (error.keyword === 'additionalProperties')
    return `${where}: unknown key ${String(params.additionalProperty)}`;
  if (error.keyword === 'required') return `${where}: missing ${String(params.missingProperty)}`;
  if (error.keyword === 'discriminator') {
    return `${where}/${String(params.tag)}: unknown value ${JSON.stringify(params.tagValue)}`;
  }
  if (error.keyword === 'const') return `${where}: must be ${JSON.stringify(params.allowedValue)}`;
  if (error.keyword === 'enum') {
    return `${where}: must be one of ${(params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`;
  }
  return `${where}: ${error.message ?? error.keyword}`;
}

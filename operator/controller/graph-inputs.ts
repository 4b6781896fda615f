// The inputs of a published graph: each graph ConfigMap also stores, gzipped in
// `binaryData["objects.json.gz"]`, the kind, name, generation and spec of every object it was compiled
// from. When a new generation of an object is rejected, its last valid spec is read from here and
// compiled in its place, so the last valid graph keeps running
// (docs/operator.md, "What the operator writes").
import { gunzipSync, gzipSync } from 'node:zlib';

export const INPUTS_GZIP_KEY = 'objects.json.gz';

/** One object as it went into a published graph. */
export interface GraphInput {
  kind: string;
  name: string;
  generation: number;
  spec: unknown;
  /**
   * The identifier its statement wrote (annotation streamroute.io/identifier), when it had one: an object
   * compiled again from here is shown as it was (decision 0025).
   */
  identifier?: string;
}

/** `Kind/name` → input. */
export type GraphInputs = ReadonlyMap<string, GraphInput>;

export const NO_INPUTS: GraphInputs = new Map();

export function inputId(input: { kind: string; name: string }): string {
  return `${input.kind}/${input.name}`;
}

/** Gzip of the JSON list, sorted by id so equal inputs give equal bytes. */
export function encodeInputs(inputs: readonly GraphInput[]): Buffer {
  const sorted = [...inputs].sort((a, b) => (inputId(a) < inputId(b) ? -1 : inputId(a) > inputId(b) ? 1 : 0));
  return gzipSync(Buffer.from(JSON.stringify(sorted), 'utf8'));
}

/** The inputs stored in a graph ConfigMap's binaryData (base64); none when absent or unreadable. */
export function decodeInputs(base64: string | undefined): GraphInputs {
  if (base64 === undefined) return NO_INPUTS;
  let parsed: unknown;
  try {
    parsed = JSON.parse(gunzipSync(Buffer.from(base64, 'base64')).toString('utf8'));
  } catch {
    return NO_INPUTS;
  }
  const inputs = new Map<string, GraphInput>();
  for (const item of Array.isArray(parsed) ? (parsed as unknown[]) : []) {
    const { kind, name, generation, spec, identifier } = (item ?? {}) as Partial<GraphInput>;
    if (typeof kind !== 'string' || typeof name !== 'string' || typeof generation !== 'number') continue;
    const written = typeof identifier === 'string' ? { identifier } : {};
    inputs.set(inputId({ kind, name }), { kind, name, generation, spec, ...written });
  }
  return inputs;
}

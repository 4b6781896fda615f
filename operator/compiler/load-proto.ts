// Loads .proto files from an uploaded resource version held in memory: imports resolve against the
// `include` root (then the version's root), google/protobuf/* come bundled with protobufjs. The result is
// pruned to the message and the types it uses, as the JSON the data plane gives `Root.fromJSON`.
import type protobuf from 'protobufjs';
import { protobufjs } from '../../dataplane/codecs/protobuf/protobufjs.js';
import { posix } from 'node:path';
import type { ProtobufDescriptor, ProtobufNested } from '../../dataplane/graph/types.js';
import { messageOf } from '../../dataplane/core/error-text.js';

export type ProtoLoad =
  { ok: true; root: protobuf.Root } | { ok: false; problem: string; at: 'file' | 'include' };

const MAX_FILES = 256;

type Failure = Extract<ProtoLoad, { ok: false }>;

const fail = (at: Failure['at'], problem: string): Failure => ({ ok: false, at, problem });

export function loadProto(files: ReadonlyMap<string, string>, file: string, include: string): ProtoLoad {
  const main = locate(files, file, include);
  if (main === undefined) {
    return fail('file', `there is no file ${file} (looked under include ${include} and the root)`);
  }
  const loader = new Loader(files, include);
  const failure = loader.load(main);
  if (failure !== undefined) return failure;
  try {
    loader.root.resolveAll();
  } catch (error: unknown) {
    return fail('file', `${file}: ${messageOf(error)}`);
  }
  return { ok: true, root: loader.root };
}

class Loader {
  readonly root = new (protobufjs().Root)();
  readonly #loaded = new Set<string>();

  constructor(
    private readonly files: ReadonlyMap<string, string>,
    private readonly include: string,
  ) {}

  /** Parses the file and, breadth first, everything it imports. */
  load(main: string): Failure | undefined {
    const queue = [main];
    for (let path = queue.shift(); path !== undefined; path = queue.shift()) {
      if (this.#loaded.has(path)) continue;
      this.#loaded.add(path);
      if (this.#loaded.size > MAX_FILES) return fail('include', `more than ${MAX_FILES} imported files`);
      const parsed = parseOne(this.root, path, this.files.get(path) ?? '');
      if (typeof parsed === 'string') return fail('file', parsed);
      for (const imported of parsed) {
        const next = this.#resolve(path, imported);
        if (typeof next === 'object') return next;
        if (next !== undefined) queue.push(next);
      }
    }
    return undefined;
  }

  /** The path of an import to load next; undefined for a bundled google/protobuf file (added here). */
  #resolve(from: string, imported: string): string | Failure | undefined {
    const bundled = protobufjs().common.get(imported);
    if (bundled === null) {
      return (
        locate(this.files, imported, this.include) ??
        fail('include', `${from} imports ${imported}, which is not under include ${this.include} or the root`)
      );
    }
    if (!this.#loaded.has(imported)) this.root.addJSON(bundled.nested ?? {});
    this.#loaded.add(imported);
    return undefined;
  }
}

/** Parses one file into the root; its imports, or the parse error as text. */
function parseOne(root: protobuf.Root, path: string, source: string): string[] | string {
  try {
    const parsed = protobufjs().parse(source, root, { keepCase: true, alternateCommentMode: true });
    return [...(parsed.imports ?? []), ...(parsed.weakImports ?? [])];
  } catch (error: unknown) {
    return `${path}: ${messageOf(error)}`;
  }
}

function locate(files: ReadonlyMap<string, string>, file: string, include: string): string | undefined {
  const candidates = [posix.normalize(posix.join(include, file)), posix.normalize(file)];
  return candidates.find((candidate) => !candidate.startsWith('..') && files.has(candidate));
}

/** The message and every type it needs (field types, their parents), as protobufjs JSON. */
export function prunedDescriptor(root: protobuf.Root, message: protobuf.Type): ProtobufDescriptor {
  const keep = new Set<protobuf.ReflectionObject>();
  const work: protobuf.ReflectionObject[] = [message];
  for (let next = work.pop(); next !== undefined; next = work.pop()) {
    if (keep.has(next)) continue;
    keep.add(next);
    if (next.parent instanceof protobufjs().Type) work.push(next.parent);
    if (!(next instanceof protobufjs().Type)) continue;
    for (const field of next.fieldsArray) if (field.resolvedType) work.push(field.resolvedType);
  }
  const json = root.toJSON() as ProtobufDescriptor;
  const nested = json.nested && pruneNested(json.nested, root, keep);
  return nested === undefined ? {} : { nested };
}

type NestedJson = ProtobufNested;

function pruneNested(
  nested: Record<string, NestedJson>,
  namespace: protobuf.Namespace,
  keep: ReadonlySet<protobuf.ReflectionObject>,
): Record<string, NestedJson> | undefined {
  const out: Record<string, NestedJson> = {};
  for (const [name, entry] of Object.entries(nested)) {
    const kept = pruneEntry(entry, namespace.get(name), keep);
    if (kept !== undefined) out[name] = kept;
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

/** A kept type or enum (with its kept nested types), a namespace with kept content, else undefined. */
function pruneEntry(
  entry: NestedJson,
  object: protobuf.ReflectionObject | null,
  keep: ReadonlySet<protobuf.ReflectionObject>,
): NestedJson | undefined {
  if (object === null || object instanceof protobufjs().Service) return undefined;
  const isDefinition = object instanceof protobufjs().Type || object instanceof protobufjs().Enum;
  if (isDefinition && !keep.has(object)) return undefined;
  const inner =
    object instanceof protobufjs().Namespace && entry.nested
      ? pruneNested(entry.nested, object, keep)
      : undefined;
  if (!isDefinition && inner === undefined) return undefined;
  const { nested: _dropped, ...rest } = entry;
  return inner === undefined ? rest : { ...rest, nested: inner };
}

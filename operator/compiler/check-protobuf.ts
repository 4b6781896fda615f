// A protobuf codec: the resource version is uploaded (LATEST binds the highest), the file is in it and
// parses with its imports, the message exists (SR2017), and every schema field is a field of the message
// with a type its JSON view can carry (SR2018). The pruned descriptor is kept for lowering.
import type protobuf from 'protobufjs';
import { protobufjs } from '../../dataplane/codecs/protobuf/protobufjs.js';
import type { GraphObject } from '../api/index.js';
import { isIntegerType, type FieldType } from '../../dataplane/graph/field-types.js';
import { keyOf, label, type CompileContext, type SchemaField } from './context.js';
import { loadProto, prunedDescriptor, type ProtoLoad } from './load-proto.js';
import { bindVersion } from './resource-versions.js';

const INTEGERS = [
  'int32',
  'sint32',
  'sfixed32',
  'uint32',
  'fixed32',
  'int64',
  'sint64',
  'sfixed64',
  'uint64',
  'fixed64',
];

/** What schema field types a scalar proto field can feed; undefined for anything else. */
function carries(protoType: string, type: FieldType): boolean {
  if (INTEGERS.includes(protoType)) return isIntegerType(type) || type === 'F64';
  switch (protoType) {
    case 'string':
      return type === 'STRING' || type === 'DATETIME';
    case 'bytes':
      return type === 'BYTES' || type === 'STRING';
    case 'bool':
      return type === 'BOOL';
    case 'double':
    case 'float':
      return type === 'F64';
    default:
      return false;
  }
}

export function checkProtobuf(ctx: CompileContext, objects: readonly GraphObject[]): void {
  const loads = new Map<string, ProtoLoad>();
  for (const object of objects) {
    if (object.kind !== 'Codec' || object.spec.protobuf === undefined) continue;
    const fields = ctx.schemaFields(object.spec.schema);
    if (fields === undefined || ctx.accepted('Resource', object.spec.protobuf.using.resource) === undefined)
      continue;
    const found = findMessage(ctx, object, loads);
    if (found === undefined) continue;
    const problems = [...fields.values()].flatMap((field) =>
      fieldProblem(field, found.message, object.spec.encodeRfc3339 ?? []),
    );
    for (const problem of problems) {
      ctx.report(keyOf(object), 'SR2018', 'spec.protobuf.message', `${label(object)}: ${problem}`);
    }
    if (problems.length === 0) {
      ctx.descriptors.set(object.metadata.name, {
        descriptor: prunedDescriptor(found.root, found.message),
        message: found.message.fullName.slice(1),
      });
    }
  }
}

type Found = { root: protobuf.Root; message: protobuf.Type };

/** The codec's message in its loaded files, or undefined after reporting why not (SR2017). */
function findMessage(
  ctx: CompileContext,
  codec: GraphObject<'Codec'>,
  loads: Map<string, ProtoLoad>,
): Found | undefined {
  const config = codec.spec.protobuf;
  if (config === undefined) return undefined;
  const { resource } = config.using;
  const report = (path: string, message: string): undefined => {
    ctx.report(keyOf(codec), 'SR2017', path, `${label(codec)}: ${message}`);
    return undefined;
  };
  const version = bindVersion(ctx, config.using);
  if (typeof version === 'string') return report('spec.protobuf.using', version);
  const files = ctx.resources.files(resource, version);
  const shown = ctx.show('Resource', resource);
  if (files === undefined) {
    return report(
      'spec.protobuf.using',
      `the files of resource ${shown} version ${version} were not given to the compiler (CLI: --resource ${shown}@${version}=<dir>)`,
    );
  }
  const cacheKey = `${resource}@${version}:${config.include}:${config.file}`;
  const load = loads.get(cacheKey) ?? loadProto(files, config.file, config.include);
  loads.set(cacheKey, load);
  if (!load.ok) {
    const path = load.at === 'file' ? 'spec.protobuf.file' : 'spec.protobuf.include';
    return report(path, `resource ${shown} version ${version}: ${load.problem}`);
  }
  const message = load.root.lookup(config.message);
  if (!(message instanceof protobufjs().Type)) {
    const defined = messageNames(load.root).join(', ') || 'no messages';
    return report(
      'spec.protobuf.message',
      `${config.file} (with its imports) defines no message ${config.message}; it defines ${defined}`,
    );
  }
  // protobufjs also finds a message by a partial name; MESSAGE must be the fully qualified one
  // (docs/language.md, "Codecs").
  const fullName = message.fullName.slice(1);
  if (fullName !== config.message) {
    return report(
      'spec.protobuf.message',
      `MESSAGE '${config.message}' is not fully qualified; write MESSAGE '${fullName}'`,
    );
  }
  return { root: load.root, message };
}

function fieldProblem(field: SchemaField, message: protobuf.Type, rfc3339: readonly string[]): string[] {
  const where = `message ${message.fullName.slice(1)}`;
  const protoField = message.fields[field.name];
  if (protoField === undefined) {
    return [
      `schema field ${field.name} is not a field of ${where}; field names must match (the message has ${message.fieldsArray.map((f) => f.name).join(', ')})`,
    ];
  }
  if (protoField.repeated || protoField.map) {
    return [
      `${where} field ${field.name} is ${protoField.map ? 'a map' : 'repeated'}; schema field ${field.name} (${field.type}) holds one value`,
    ];
  }
  const resolved = protoField.resolvedType;
  if (resolved instanceof protobufjs().Enum) {
    return field.type === 'STRING' || isIntegerType(field.type)
      ? []
      : [
          `${where} field ${field.name} is the enum ${resolved.name}; expected STRING or an integer type in the schema, not ${field.type}`,
        ];
  }
  if (resolved !== null || !carries(protoField.type, field.type)) {
    return [
      `${where} field ${field.name} is ${protoField.type}, which cannot carry schema field ${field.name} (${field.type})`,
    ];
  }
  if (field.type === 'DATETIME' && !rfc3339.includes(field.name)) {
    return [
      `DATETIME field ${field.name} is carried in a proto string; add ENCODE ${field.name} AS RFC3339 to the codec`,
    ];
  }
  return [];
}

function messageNames(namespace: protobuf.NamespaceBase): string[] {
  return namespace.nestedArray.flatMap((object) => [
    ...(object instanceof protobufjs().Type ? [object.fullName.slice(1)] : []),
    ...(object instanceof protobufjs().Namespace ? messageNames(object) : []),
  ]);
}

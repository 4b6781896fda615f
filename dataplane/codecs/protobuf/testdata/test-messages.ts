// Test support: loads the test .proto files the way the compiler does (protobufjs, keepCase, imports from
// the include roots) and hands the data plane what the Graph would carry: Root.toJSON() and a message
// name, through loadMessage. Include roots are this directory and examples/full/protos.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import protobuf from 'protobufjs';
import type { ProtobufDescriptor } from '../../../graph/types.js';
import { loadMessage } from '../load-message.js';

export const TESTDATA = fileURLToPath(new URL('.', import.meta.url));
export const EXAMPLE_PROTOS = fileURLToPath(new URL('../../../../examples/full/protos/', import.meta.url));
export const INCLUDE_ROOTS = [TESTDATA, EXAMPLE_PROTOS];

const descriptors = new Map<string, ProtobufDescriptor>();

/** Root.toJSON() of a file (relative to an include root) with everything it imports. */
export function descriptorOf(file: string): ProtobufDescriptor {
  let descriptor = descriptors.get(file);
  if (descriptor === undefined) {
    const root = new protobuf.Root();
    root.resolvePath = (_origin, target) =>
      INCLUDE_ROOTS.map((dir) => join(dir, target)).find((path) => existsSync(path)) ?? target;
    root.loadSync(file, { keepCase: true });
    root.resolveAll();
    descriptor = root.toJSON() as ProtobufDescriptor;
    descriptors.set(file, descriptor);
  }
  return descriptor;
}

/** A message type of a test file, loaded as the data plane loads it. */
export function messageType(name: string, file = 'kitchen.proto'): protobuf.Type {
  const loaded = loadMessage(descriptorOf(file), name);
  assert.ok('type' in loaded, 'error' in loaded ? loaded.error : '');
  return loaded.type;
}

// The message a protobuf codec works on, from its Graph entry: the pruned descriptor (protobufjs
// `Root.toJSON()`, built by the compiler) and the fully qualified message name. Whatever is wrong comes
// back as one sentence, so the data plane can refuse the graph with it instead of failing per payload.
import type protobuf from 'protobufjs';
import { protobufjs } from './protobufjs.js';
import type { ProtobufDescriptor } from '../../graph/types.js';
import { planFor } from './message-plan.js';
import { messageOf } from '../../core/error-text.js';

export type LoadedMessage = { type: protobuf.Type } | { error: string };

export function loadMessage(descriptor: ProtobufDescriptor, message: string): LoadedMessage {
  let root: protobuf.Root;
  try {
    // fromJSON applies protobufjs's own nesting limit (util.recursionLimit) to the descriptor.
    root = protobufjs().Root.fromJSON(descriptor);
    root.resolveAll();
  } catch (error: unknown) {
    return { error: `the protobuf descriptor does not load: ${messageOf(error)}` };
  }
  const found = lookup(root, message);
  if (typeof found === 'string') return { error: found };
  try {
    planFor(found);
  } catch (error: unknown) {
    return { error: `message ${message}: ${messageOf(error)}` };
  }
  return { type: found };
}

function lookup(root: protobuf.Root, message: string): protobuf.Type | string {
  let found: protobuf.ReflectionObject | null;
  try {
    found = root.lookup(message);
  } catch (error: unknown) {
    return `message ${message} cannot be looked up: ${messageOf(error)}`;
  }
  if (!(found instanceof protobufjs().Type)) {
    return found === null
      ? `the protobuf descriptor has no message ${message}`
      : `${message} in the protobuf descriptor is not a message`;
  }
  // lookup also finds partial names; the Graph carries the fully qualified one (docs/compiler.md,
  // "Decisions").
  if (found.fullName !== `.${message}`) {
    return `the protobuf descriptor has no message ${message} (did you mean ${found.fullName.slice(1)}?)`;
  }
  return found;
}

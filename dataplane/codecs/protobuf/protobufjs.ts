// protobufjs, loaded on first use: only a graph with a protobuf codec (or a compile that checks one) needs
// it, and loading it costs ~8 MB on every node. Synchronous, as the codec factories and the compiler's
// passes are; protobufjs is CommonJS, so `require` loads the same instance an `import` would.
import { createRequire } from 'node:module';
import type protobufModule from 'protobufjs';

const requireModule = createRequire(import.meta.url);
let loaded: typeof protobufModule | undefined;

export function protobufjs(): typeof protobufModule {
  loaded ??= requireModule('protobufjs') as typeof protobufModule;
  return loaded;
}

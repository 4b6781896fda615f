// The readers a worker thread runs (reader-worker.ts), built from their specs: exactly the code the event
// loop runs for small payloads, so where a payload is read never changes what it reads as.
import { messageError } from '../../core/errors.js';
import { PAYLOAD_FORMATS } from '../formats/index.js';
import { jsonView } from '../protobuf/json-view.js';
import { loadMessage } from '../protobuf/load-message.js';
import { wireJsonDecoder } from '../wire-json.js';
import type { ReadReply, ReaderSpec } from './reader-spec.js';

export type ReadFn = (payload: Uint8Array) => ReadReply;

export function buildReader(spec: ReaderSpec): ReadFn {
  switch (spec.kind) {
    case 'format': {
      const format = PAYLOAD_FORMATS[spec.format];
      return (payload) => format.read(payload);
    }
    case 'protobuf': {
      const loaded = loadMessage(spec.descriptor, spec.message);
      if ('error' in loaded)
        return () => ({ error: messageError('SR3009', 'the protobuf message does not load') });
      return (payload) => {
        const view = jsonView(loaded.type, payload);
        return 'error' in view ? view : { inputs: [view.text] };
      };
    }
    case 'wire-json': {
      const codec = wireJsonDecoder(spec.codec, spec.schema);
      if ('unsupported' in codec)
        return () => ({ error: messageError('SR3009', 'the wire schema does not load') });
      return (payload) => codec.decode(payload);
    }
  }
}

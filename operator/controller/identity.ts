// Who this operator process is to leader election, apart from it so that `streamroute operator --help`
// shows the default without loading the Kubernetes client (decision 0020).
import { hostname } from 'node:os';

/** `POD_NAME` when set, else `<hostname>-<pid>`. */
export function defaultIdentity(env: Readonly<Record<string, string | undefined>> = process.env): string {
  const pod = env['POD_NAME'];
  return pod !== undefined && pod !== '' ? pod : `${hostname()}-${process.pid}`;
}

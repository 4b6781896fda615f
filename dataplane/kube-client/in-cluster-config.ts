// The API server as a pod sees it: KUBERNETES_SERVICE_HOST/PORT and the service account the kubelet
// mounts (token, CA, namespace), read without @kubernetes/client-node (loading it costs ~70 MB of memory
// and ~0.4 s on every node of a cluster). The token and the CA are read again on every request: projected
// tokens rotate (the kubelet writes a new one well before the old one expires) and the CA bundle of
// kube-root-ca.crt can change; two small reads at the client's rate limit cost nothing.
import { existsSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import type { RequestOptions } from 'node:https';
import { isIPv6 } from 'node:net';
import { join } from 'node:path';

export const SERVICE_ACCOUNT_DIR = '/var/run/secrets/kubernetes.io/serviceaccount';

/** Where requests go, and how they are authenticated. */
export interface Connection {
  readonly server: URL;
  /** The namespace the connection defaults to (a pod's own; a kubeconfig context's), if any. */
  readonly namespace: string | undefined;
  /** Adds the server's CA and the credentials to a request's options. */
  authorize(options: RequestOptions): Promise<void>;
}

/** Whether this process runs in a pod: the service account's token is mounted (client-node's test). */
export function inCluster(dir: string = SERVICE_ACCOUNT_DIR): boolean {
  return existsSync(join(dir, 'token'));
}

export function inClusterConnection(
  env: Readonly<Record<string, string | undefined>>,
  dir: string = SERVICE_ACCOUNT_DIR,
): Connection {
  const host = env['KUBERNETES_SERVICE_HOST'];
  const port = env['KUBERNETES_SERVICE_PORT'];
  if (host === undefined || host === '' || port === undefined || port === '') {
    throw new Error(
      `in-cluster config: ${join(dir, 'token')} exists but KUBERNETES_SERVICE_HOST and KUBERNETES_SERVICE_PORT are not both set`,
    );
  }
  const server = new URL(`https://${isIPv6(host) ? `[${host}]` : host}:${port}`);
  const namespace = readOptional(join(dir, 'namespace'));
  return {
    server,
    namespace: namespace === '' ? undefined : namespace,
    authorize: async (options) => {
      const [token, ca] = await Promise.all([
        readFile(join(dir, 'token'), 'utf8'),
        readFile(join(dir, 'ca.crt')),
      ]);
      options.ca = ca;
      options.headers = {
        ...(options.headers as Record<string, string>),
        authorization: `Bearer ${token.trim()}`,
      };
    },
  };
}

function readOptional(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8').trim();
  } catch {
    return undefined;
  }
}

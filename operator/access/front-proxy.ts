// Who is asking, for a request the kube-apiserver proxied to the operator's aggregated API
// (docs/decisions/0019-access-through-the-api-server.md). The API server has authenticated the user (token,
// exec plugin, client certificate, whatever the cluster uses) and sends their identity in headers
// (X-Remote-User, X-Remote-Group, X-Remote-Extra-*), over a TLS connection on which it presents its
// front-proxy client certificate. Those headers are believed only on such a connection: the certificate
// must chain to the requestheader CA and name one of the allowed names, both as the API server publishes
// them in kube-system/extension-apiserver-authentication. Anyone else gets 401, whatever headers they send.
import type { IncomingMessage } from 'node:http';
import type { TLSSocket } from 'node:tls';

/** What the API server publishes about its front proxy (the ConfigMap's `requestheader-*` keys). */
export interface FrontProxyConfig {
  /** PEM: the CA(s) the proxy's client certificate chains to. */
  clientCa: string;
  /** Common names the proxy's certificate may have; empty: any certificate of the CA. */
  allowedNames: string[];
  usernameHeaders: string[];
  groupHeaders: string[];
  extraHeaderPrefixes: string[];
  uidHeaders: string[];
}

export const EXTENSION_AUTH_CONFIGMAP = {
  namespace: 'kube-system',
  name: 'extension-apiserver-authentication',
};

/** The proxied user, as the API server authenticated them. */
export interface Caller {
  user: string;
  groups: string[];
  extra: Record<string, string[]>;
  uid?: string;
}

export type CallerResult = { ok: true; caller: Caller } | { ok: false; reason: string };

/**
 * The front-proxy settings from the ConfigMap's data; undefined (with why) when the API server publishes
 * none: it was started without `--requestheader-client-ca-file`, so it cannot proxy to us.
 */
export function frontProxyConfig(
  data: Record<string, string> | undefined,
): { ok: true; config: FrontProxyConfig } | { ok: false; reason: string } {
  const clientCa = data?.['requestheader-client-ca-file'];
  if (clientCa === undefined || clientCa.trim() === '')
    return {
      ok: false,
      reason:
        'the API server publishes no requestheader client CA (kube-system/extension-apiserver-authentication): start it with --requestheader-client-ca-file and --proxy-client-cert-file',
    };
  const list = (key: string): string[] => {
    try {
      const parsed: unknown = JSON.parse(data?.[key] ?? '[]');
      return Array.isArray(parsed) ? parsed.filter((item): item is string => typeof item === 'string') : [];
    } catch {
      return [];
    }
  };
  return {
    ok: true,
    config: {
      clientCa,
      allowedNames: list('requestheader-allowed-names'),
      usernameHeaders: list('requestheader-username-headers'),
      groupHeaders: list('requestheader-group-headers'),
      extraHeaderPrefixes: list('requestheader-extra-headers-prefix'),
      uidHeaders: list('requestheader-uid-headers'),
    },
  };
}

/**
 * The caller of a request on the aggregated API's TLS server (created with `requestCert: true`,
 * `rejectUnauthorized: false` and `ca: config.clientCa`, so the chain is checked by TLS and reported in
 * `socket.authorized`).
 */
export function proxiedCaller(request: IncomingMessage, config: FrontProxyConfig): CallerResult {
  const socket = request.socket as TLSSocket;
  const peer = typeof socket.getPeerCertificate === 'function' ? socket.getPeerCertificate() : undefined;
  if (peer === undefined || Object.keys(peer).length === 0)
    return { ok: false, reason: 'no client certificate: only the Kubernetes API server may call this API' };
  if (!socket.authorized)
    return { ok: false, reason: 'the client certificate is not signed by the API server’s requestheader CA' };
  const name = typeof peer.subject?.CN === 'string' ? peer.subject.CN : '';
  if (config.allowedNames.length > 0 && !config.allowedNames.includes(name))
    return {
      ok: false,
      reason: 'the client certificate’s name is not among the requestheader allowed names',
    };
  const user = firstHeader(request, config.usernameHeaders);
  if (user === undefined || user === '') return { ok: false, reason: 'the API server sent no user name' };
  const caller: Caller = {
    user,
    groups: allHeaders(request, config.groupHeaders),
    extra: extraHeaders(request, config),
  };
  const uid = firstHeader(request, config.uidHeaders);
  if (uid !== undefined && uid !== '') caller.uid = uid;
  return { ok: true, caller };
}

function values(request: IncomingMessage, header: string): string[] {
  const value = request.headersDistinct[header.toLowerCase()];
  return value ?? [];
}

function firstHeader(request: IncomingMessage, headers: readonly string[]): string | undefined {
  for (const header of headers) {
    const [value] = values(request, header);
    if (value !== undefined) return value;
  }
  return undefined;
}

function allHeaders(request: IncomingMessage, headers: readonly string[]): string[] {
  return headers.flatMap((header) => values(request, header));
}

/** `X-Remote-Extra-<key>` headers; keys are URL-escaped by the API server (as in Kubernetes' requestheader). */
function extraHeaders(request: IncomingMessage, config: FrontProxyConfig): Record<string, string[]> {
  const extra = new Map<string, string[]>();
  for (const prefix of config.extraHeaderPrefixes) {
    const lower = prefix.toLowerCase();
    for (const [header, list] of Object.entries(request.headersDistinct)) {
      if (!header.startsWith(lower) || list === undefined) continue;
      let key: string;
      try {
        key = decodeURIComponent(header.slice(lower.length));
      } catch {
        continue;
      }
      extra.set(key, [...(extra.get(key) ?? []), ...list]);
    }
  }
  // fromEntries makes own properties, even of a key named like an Object.prototype member
  return Object.fromEntries(extra);
}

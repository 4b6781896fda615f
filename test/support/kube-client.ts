// Thin helpers for tests against the real API server: @kubernetes/client-node for typed objects, raw
// HTTPS where the client would alter the document.
import {
  ApiextensionsV1Api,
  CoreV1Api,
  KubeConfig,
  KubernetesObjectApi,
  PatchStrategy,
  type KubernetesObject,
} from '@kubernetes/client-node';
import { request } from 'node:https';
import { setTimeout as sleep } from 'node:timers/promises';
import { parse } from 'yaml';
import { renderCrds } from '../../operator/api/render-crds.js';
import type { KubeTestServer } from './kube-apiserver.js';

export interface KubeClients {
  server: KubeTestServer;
  objects: KubernetesObjectApi;
  core: CoreV1Api;
  extensions: ApiextensionsV1Api;
}

export function kubeClients(server: KubeTestServer): KubeClients {
  const config = new KubeConfig();
  config.loadFromFile(server.kubeconfigPath);
  return {
    server,
    objects: KubernetesObjectApi.makeApiClient(config),
    core: config.makeApiClient(CoreV1Api),
    extensions: config.makeApiClient(ApiextensionsV1Api),
  };
}

/** Server-side apply with our field manager, as the CLI does. */
export function serverSideApply(clients: KubeClients, object: KubernetesObject): Promise<KubernetesObject> {
  return clients.objects.patch(
    object,
    undefined,
    undefined,
    'streamroute',
    true,
    PatchStrategy.ServerSideApply,
  );
}

/** One HTTPS request with the test server's admin token; resolves with the status and body. */
function send(
  server: KubeTestServer,
  request_: { method: string; path: string; headers: Record<string, string>; body?: string },
): Promise<{ status: number; body: string }> {
  const headers = { authorization: `Bearer ${server.token}`, ...request_.headers };
  return new Promise((resolve, reject) => {
    const req = request(
      new URL(request_.path, server.server),
      { method: request_.method, ca: server.ca, headers },
      (res) => {
        let body = '';
        res.on('data', (chunk: Buffer) => (body += chunk.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on('error', reject);
    req.end(request_.body);
  });
}

/**
 * Server-side apply of a document exactly as given. client-node's serializer maps known kinds through
 * its models, which name the field `xKubernetesIntOrString` and silently drop raw `x-kubernetes-*` keys
 * (CEL rules included) — so CRDs are sent over plain HTTPS.
 */
export async function applyRaw(server: KubeTestServer, path: string, document: unknown): Promise<void> {
  const response = await send(server, {
    method: 'PATCH',
    path: `${path}?fieldManager=streamroute&force=true`,
    headers: { 'content-type': 'application/apply-patch+yaml' },
    body: JSON.stringify(document),
  });
  if (response.status >= 300) throw new Error(`apply ${path}: HTTP ${response.status}: ${response.body}`);
}

export interface Table {
  columnDefinitions: { name: string }[];
  rows: { cells: unknown[] }[];
}

/** A list as the server renders it for `kubectl get` (the meta.k8s.io Table view). */
export async function getTable(server: KubeTestServer, path: string): Promise<Table> {
  const accept = 'application/json;as=Table;v=v1;g=meta.k8s.io';
  const response = await send(server, { method: 'GET', path, headers: { accept } });
  return JSON.parse(response.body) as Table;
}

/** Applies every generated CRD and waits until each is Established (or the deadline passes). */
export async function installCrds(clients: KubeClients, timeoutMs = 30_000): Promise<string[]> {
  const names: string[] = [];
  for (const { yaml } of renderCrds()) {
    const crd = parse(yaml) as { metadata: { name: string } };
    await applyRaw(
      clients.server,
      `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${crd.metadata.name}`,
      crd,
    );
    names.push(crd.metadata.name);
  }
  const deadline = Date.now() + timeoutMs;
  for (const name of names) {
    while (!(await established(clients, name))) {
      if (Date.now() > deadline) throw new Error(`CRD ${name} did not become Established`);
      await sleep(100);
    }
  }
  return names;
}

async function established(clients: KubeClients, name: string): Promise<boolean> {
  const crd = await clients.extensions.readCustomResourceDefinition({ name });
  return crd.status?.conditions?.some((c) => c.type === 'Established' && c.status === 'True') ?? false;
}

export async function createNamespace(clients: KubeClients, name: string): Promise<void> {
  await clients.core.createNamespace({ body: { metadata: { name } } });
}

/** The status code and message of a failed API call (client-node throws ApiException). */
export function apiFailure(error: unknown): { code: number; message: string } {
  const failure = error as { code?: number; body?: unknown };
  const body = typeof failure.body === 'string' ? (JSON.parse(failure.body) as unknown) : failure.body;
  const message = (body as { message?: string } | undefined)?.message;
  return { code: failure.code ?? 0, message: message ?? String(error) };
}

// What the Kubernetes benchmarks measure outside the product: the API server's own count of writes (its
// /metrics), a process's memory (/proc), and percentiles.
import { readFileSync } from 'node:fs';
import { request } from 'node:https';
import type { KubeTestServer } from '../support/kube-apiserver.js';

const WRITE_VERBS = new Set(['POST', 'PUT', 'PATCH', 'DELETE', 'APPLY', 'CREATE', 'UPDATE']);

/** Writes the API server has answered so far (apiserver_request_total over write verbs), by resource. */
export async function apiserverWrites(server: KubeTestServer): Promise<Map<string, number>> {
  const text = await new Promise<string>((resolve, reject) => {
    const req = request(
      new URL('/metrics', server.server),
      { ca: server.ca, headers: { authorization: `Bearer ${server.token}` } },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve(body));
      },
    );
    req.on('error', reject);
    req.end();
  });
  const writes = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (!line.startsWith('apiserver_request_total{')) continue;
    const verb = /verb="([A-Z]+)"/.exec(line)?.[1] ?? '';
    if (!WRITE_VERBS.has(verb)) continue;
    const resource = /resource="([^"]*)"/.exec(line)?.[1] ?? '';
    const subresource = /subresource="([^"]*)"/.exec(line)?.[1] ?? '';
    const key = subresource === '' ? resource : `${resource}/${subresource}`;
    writes.set(key, (writes.get(key) ?? 0) + Number(line.slice(line.lastIndexOf(' ') + 1)));
  }
  return writes;
}

export function total(counts: ReadonlyMap<string, number>): number {
  let sum = 0;
  for (const value of counts.values()) sum += value;
  return sum;
}

/** Per-key difference `after - before`. */
export function difference(
  after: ReadonlyMap<string, number>,
  before: ReadonlyMap<string, number>,
): Map<string, number> {
  const result = new Map<string, number>();
  for (const [key, value] of after) {
    const delta = value - (before.get(key) ?? 0);
    if (delta > 0) result.set(key, delta);
  }
  return result;
}

/** Resident and peak resident memory of a process, in MiB (Linux /proc). */
export function processMemory(pid: number): { rssMiB: number; peakMiB: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = (field: string): number => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  return { rssMiB: kib('VmRSS') / 1024, peakMiB: kib('VmHWM') / 1024 };
}

/** The p-th percentile (0–100) of `values`, nearest rank. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank] ?? Number.NaN;
}

/** CPU seconds (user + system) a process has used so far (Linux /proc; clock ticks of 10 ms). */
export function processCpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** The pids of a process's children (Linux /proc). */
export function childPids(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8')
      .trim()
      .split(/\s+/)
      .filter(Boolean)
      .map(Number);
  } catch {
    return [];
  }
}

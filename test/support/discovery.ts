// What a word after `kubectl get` resolves to: every resource the API server's discovery lists (all
// groups, all versions, no subresources), matched by plural, singular or short name, as kubectl's
// RESTMapper matches before it prefers one group. Tests read the real kube-apiserver's discovery with it.
import type { KubeApi } from '../../dataplane/kube-client/kube-api.js';

export interface DiscoveredResource {
  /** '' for the core group. */
  group: string;
  version: string;
  /** The plural. */
  name: string;
  kind: string;
  /** The singular; the lower-cased kind where discovery leaves it empty (kubectl does the same). */
  singular: string;
  shortNames: string[];
}

interface ResourceList {
  resources: { name: string; kind: string; singularName?: string; shortNames?: string[] }[];
}
interface GroupList {
  groups: { name: string; versions: { version: string }[] }[];
}

/** Every resource of every group and version the server lists, subresources left out. */
export async function discoveredResources(api: KubeApi): Promise<DiscoveredResource[]> {
  const sources: { group: string; version: string; path: string }[] = [];
  const core = await api.request<{ versions: string[] }>({ path: '/api' });
  for (const version of core.versions) sources.push({ group: '', version, path: `/api/${version}` });
  const groups = await api.request<GroupList>({ path: '/apis' });
  for (const { name, versions } of groups.groups)
    for (const { version } of versions)
      sources.push({ group: name, version, path: `/apis/${name}/${version}` });
  const resources: DiscoveredResource[] = [];
  for (const { group, version, path } of sources) {
    const list = await api.request<ResourceList>({ path });
    for (const resource of list.resources) {
      if (resource.name.includes('/')) continue;
      resources.push({
        group,
        version,
        name: resource.name,
        kind: resource.kind,
        singular: resource.singularName || resource.kind.toLowerCase(),
        shortNames: resource.shortNames ?? [],
      });
    }
  }
  return resources;
}

/** The resources a word names (plural, singular or short name, case-insensitively), as `group/Kind`. */
export function kindsNamed(resources: readonly DiscoveredResource[], word: string): string[] {
  const wanted = word.toLowerCase();
  const kinds = resources
    .filter((r) => r.name === wanted || r.singular === wanted || r.shortNames.includes(wanted))
    .map((r) => `${r.group === '' ? 'core' : r.group}/${r.kind}`);
  return [...new Set(kinds)].sort();
}

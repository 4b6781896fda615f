// Manifest objects by domain, and every diagnostic counted against the domains it concerns: a domain
// whose manifests have an error is not changed at all (manifests.ts), so each error must land on the
// right domains. An error about an object counts against that object's domain; an error with only a place
// (a syntax error) against the domains its file declares objects in, now or at the last accepted load; a
// statement file's domain is always `default`; an error that cannot be placed counts against every domain.
import type { GraphObject } from '../api/index.js';
import type { Diagnostic, SourceLocation } from '../diagnostics/diagnostic.js';
import { Declarations } from '../language/declarations.js';
import type { LoadedInputs } from '../language/inputs.js';
import type { ManifestObject } from './domain-state.js';
import { isDomainName } from './protocol.js';

/** Statement files and YAML without a namespace declare objects of this domain. */
export const DEFAULT_DOMAIN = 'default';

export interface DomainManifests {
  domain: string;
  objects: ManifestObject[];
  diagnostics: Diagnostic[];
}

/** Whether a location is in statement text (a `.sql` manifest), for SourceMap.attach. */
export function inStatementFile(location: SourceLocation): boolean {
  return (location.file ?? '').endsWith('.sql');
}

/**
 * Splits what the manifests hold by domain. `previous` gives, per domain, the files its last accepted
 * manifest objects came from: a domain listed there but holding no object now is returned empty (its
 * manifest objects are removed).
 */
export function splitByDomain(
  loaded: LoadedInputs,
  previous: ReadonlyMap<string, ReadonlySet<string>>,
): Map<string, DomainManifests> {
  const domains = new Map<string, DomainManifests>();
  const entry = (domain: string): DomainManifests => {
    let found = domains.get(domain);
    if (found === undefined) domains.set(domain, (found = { domain, objects: [], diagnostics: [] }));
    return found;
  };
  for (const domain of previous.keys()) entry(domain);
  const unplaced = placeObjects(loaded, entry);
  const fileDomains = domainsOfFiles(domains, previous);
  const diagnostics = [...loaded.sourceMap.attach(loaded.diagnostics, inStatementFile), ...unplaced];
  for (const diagnostic of diagnostics) {
    for (const domain of domainsOf(diagnostic, domains, fileDomains))
      entry(domain).diagnostics.push(diagnostic);
  }
  return domains;
}

/** Puts each object in its domain; returns the diagnostics of objects that have none or come twice. */
function placeObjects(loaded: LoadedInputs, entry: (domain: string) => DomainManifests): Diagnostic[] {
  const problems: Diagnostic[] = [];
  const declared = new Declarations<GraphObject>();
  for (const object of loaded.objects) {
    const key = { kind: object.kind, name: object.metadata.name };
    const domain = object.metadata.namespace ?? DEFAULT_DOMAIN;
    const file = loaded.sourceMap.locate(key)?.file ?? '(manifests)';
    if (!isDomainName(domain)) {
      const at = loaded.sourceMap.locate(key, 'metadata.namespace');
      const message = `namespace ${JSON.stringify(domain)} is not a domain name (lower-case letters, digits and -)`;
      problems.push(withLocation({ code: 'SR1013', severity: 'error', message }, at));
      continue;
    }
    const duplicate = declared.claim(
      { ...key, namespace: domain },
      object,
      loaded.sourceMap.locate(key, 'metadata.name'),
    );
    if (duplicate !== undefined) {
      problems.push(duplicate);
      continue;
    }
    const placed = { ...object, metadata: { ...object.metadata, namespace: domain } } as GraphObject;
    entry(domain).objects.push({ file, object: placed });
  }
  return problems;
}

function domainsOfFiles(
  domains: ReadonlyMap<string, DomainManifests>,
  previous: ReadonlyMap<string, ReadonlySet<string>>,
): Map<string, Set<string>> {
  const byFile = new Map<string, Set<string>>();
  const add = (file: string, domain: string): void => {
    const set = byFile.get(file) ?? new Set<string>();
    byFile.set(file, set.add(domain));
  };
  for (const { domain, objects } of domains.values()) for (const { file } of objects) add(file, domain);
  for (const [domain, files] of previous) for (const file of files) add(file, domain);
  return byFile;
}

function domainsOf(
  diagnostic: Diagnostic,
  domains: ReadonlyMap<string, DomainManifests>,
  fileDomains: ReadonlyMap<string, ReadonlySet<string>>,
): string[] {
  const { object } = diagnostic;
  if (object !== undefined) {
    const owners = [...domains.values()]
      .filter(({ objects }) =>
        objects.some(
          (entry) => entry.object.kind === object.kind && entry.object.metadata.name === object.name,
        ),
      )
      .map(({ domain }) => domain);
    if (owners.length > 0) return owners;
  }
  const file = diagnostic.location?.file;
  if (file?.endsWith('.sql') === true) return [DEFAULT_DOMAIN];
  const ofFile = file === undefined ? undefined : fileDomains.get(file);
  if (ofFile !== undefined && ofFile.size > 0) return [...ofFile];
  return domains.size > 0 ? [...domains.keys()] : [DEFAULT_DOMAIN];
}

function withLocation(diagnostic: Diagnostic, location: SourceLocation | undefined): Diagnostic {
  return location === undefined ? diagnostic : { ...diagnostic, location };
}

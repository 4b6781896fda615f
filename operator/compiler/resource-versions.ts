// Resource versions as the graph needs them: `LATEST` bound to a number (docs/language.md, "Resources"), and
// mounted files written `{{ <resource> }}/<file>` (docs/syslog-wire.md, "Clients").
import type { ResourceVersionRef } from '../api/common.js';
import type { CompileContext } from './context.js';

/** The version number, or why there is none. An exact version is trusted when nothing is known of the resource. */
export function bindVersion(ctx: CompileContext, ref: ResourceVersionRef): number | string {
  const latest = ctx.resources.latest(ref.resource);
  const shown = ctx.show('Resource', ref.resource);
  if (typeof ref.version === 'string') {
    return (
      latest ??
      `resource ${shown} has no uploaded version yet, so VERSION LATEST cannot be bound; run UPLOAD RESOURCE ${ctx.names.identifier('Resource', ref.resource)} VERSION '<dir>' first`
    );
  }
  if (ctx.resources.hasVersion(ref.resource, ref.version) === false) {
    return `resource ${shown} has no version ${ref.version}${latest === undefined ? '' : ` (the latest is ${latest})`}`;
  }
  return ref.version;
}

export interface MountedPath {
  /** The resource name (the identifier written between the braces, mapped like every identifier). */
  resource: string;
  file: string;
}

const TEMPLATE = /^\{\{\s*([A-Za-z][A-Za-z0-9_-]*)\s*\}\}\/(.+)$/;

export function parseMountedPath(value: string): MountedPath | undefined {
  const match = TEMPLATE.exec(value);
  if (match === null) return undefined;
  const [, resource = '', file = ''] = match;
  return { resource: resource.toLowerCase().replaceAll('_', '-'), file };
}

/** Why a file path inside a resource is unsafe, or undefined. */
export function unsafeFile(file: string): string | undefined {
  if (file.startsWith('/')) return 'is absolute';
  if (file.split('/').some((segment) => segment === '..' || segment === ''))
    return 'leaves the resource or has an empty segment';
  return undefined;
}

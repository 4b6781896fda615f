// Mounts of syslog and Kafka clients and TLS vhosts: the mounted version exists (LATEST binds the highest;
// SR2064), and every TLS or password file is written `{{ <mounted resource> }}/<file>`, names the object's
// own MOUNT and, when the version's files are known, a file in it (SR2036).
import type { GraphObject } from '../api/index.js';
import type { ResourceVersionRef } from '../api/common.js';
import { keyOf, label, type CompileContext } from './context.js';
import { bindVersion, parseMountedPath, unsafeFile } from './resource-versions.js';
import { KAFKA_CONFIG_KEYS } from '../api/kinds/kafka-client.js';

interface MountUse {
  object: GraphObject;
  mount: ResourceVersionRef | undefined;
  mountPath: string;
  files: { path: string; setting: string; value: string | undefined }[];
}

function mountUse(object: GraphObject): MountUse | undefined {
  if (object.kind === 'SyslogClient') {
    const { config } = object.spec;
    return {
      object,
      mount: object.spec.mount,
      mountPath: 'spec.mount',
      files: [
        { path: 'spec.config.tlsCertFile', setting: 'tls_cert_file', value: config.tlsCertFile },
        { path: 'spec.config.tlsKeyFile', setting: 'tls_key_file', value: config.tlsKeyFile },
        { path: 'spec.config.tlsCaFile', setting: 'tls_ca_file', value: config.tlsCaFile },
      ],
    };
  }
  if (object.kind === 'KafkaClient') {
    const { config } = object.spec;
    const file = (property: 'saslPasswordFile' | 'tlsCaFile' | 'tlsCertFile' | 'tlsKeyFile') => ({
      path: `spec.config.${property}`,
      setting: KAFKA_CONFIG_KEYS[property],
      value: config[property],
    });
    return {
      object,
      mount: object.spec.mount,
      mountPath: 'spec.mount',
      files: [file('saslPasswordFile'), file('tlsCaFile'), file('tlsCertFile'), file('tlsKeyFile')],
    };
  }
  if (object.kind === 'Vhost' && object.spec.tls !== undefined) {
    const { tls } = object.spec;
    return {
      object,
      mount: tls.mount,
      mountPath: 'spec.tls.mount',
      files: [
        { path: 'spec.tls.certFile', setting: 'tls_cert_file', value: tls.certFile },
        { path: 'spec.tls.keyFile', setting: 'tls_key_file', value: tls.keyFile },
      ],
    };
  }
  return undefined;
}

export function checkMounts(ctx: CompileContext, objects: readonly GraphObject[]): void {
  for (const object of objects) {
    const use = mountUse(object);
    if (use === undefined) continue;
    const key = keyOf(object);
    const mountAccepted =
      use.mount !== undefined && ctx.accepted('Resource', use.mount.resource) !== undefined;
    const version = use.mount && mountAccepted ? bindVersion(ctx, use.mount) : undefined;
    if (typeof version === 'string')
      ctx.report(key, 'SR2064', `${use.mountPath}.version`, `${label(object)}: ${version}`);
    for (const file of use.files) {
      if (file.value === undefined) continue;
      const problem = fileProblem(ctx, use, file.value, typeof version === 'number' ? version : undefined);
      if (problem !== undefined)
        ctx.report(key, 'SR2036', file.path, `${label(object)}: ${file.setting} ${problem}`);
    }
  }
}

function fileProblem(
  ctx: CompileContext,
  use: MountUse,
  value: string,
  version: number | undefined,
): string | undefined {
  const mounted = parseMountedPath(value);
  const mount = use.mount;
  // What to write in a statement names the resource by its identifier (`my_pki` for resource my-pki).
  const write = (resource: string): string => ctx.names.identifier('Resource', resource);
  if (mounted === undefined) {
    const template = mount === undefined ? '<resource>' : write(mount.resource);
    return `must name a file of the mounted resource as {{ ${template} }}/<file>, not ${JSON.stringify(value)}`;
  }
  const shown = ctx.show('Resource', mounted.resource, use.object);
  if (mount === undefined) {
    return `refers to {{ ${shown} }}, but nothing is mounted; add MOUNT ${write(mounted.resource)} VERSION <n>|LATEST`;
  }
  const mountShown = ctx.show('Resource', mount.resource, use.object);
  if (mounted.resource !== mount.resource) {
    return `refers to {{ ${shown} }}, which is not mounted; the MOUNT is ${mountShown}`;
  }
  const unsafe = unsafeFile(mounted.file);
  if (unsafe !== undefined)
    return `file ${mounted.file} ${unsafe}; name a file inside resource ${mountShown}`;
  const names = version === undefined ? undefined : ctx.resources.fileNames(mount.resource, version);
  if (names !== undefined && !names.has(mounted.file)) {
    return `names ${mounted.file}, which is not a file of resource ${mountShown} version ${version}`;
  }
  return undefined;
}

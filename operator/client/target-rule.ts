// Which target a command talks to, a node or a cluster, by one rule (docs/cli.md, "Choosing the target"),
// as kubectl finds its cluster: the command line first, then the environment, then the kubeconfig's
// current context, else the embedded node on its default address. Each choice says which step made it,
// so that a target that does not answer can be explained. Pure but for reading the kubeconfig files.
import { readFileSync } from 'node:fs';
import { yamlLib } from '../language/yaml-lib.js';
import { delimiter, join } from 'node:path';
import { DEFAULT_SERVER, parseServer, SERVER_ENV, type Server } from './endpoint.js';

export const KUBECONFIG_ENV = 'STREAMROUTE_KUBECONFIG';

/** What the command line said (the command's own options over the root's). */
export interface TargetFlags {
  server?: Server;
  kubeconfig?: string;
  context?: string;
}

/** A kubeconfig (undefined: client-node's default search) and a context. */
export interface ClusterOptions {
  kubeconfig?: string;
  context?: string;
}

export type TargetChoice =
  | { kind: 'node'; server: Server; chosenBy: string }
  | { kind: 'cluster'; options: ClusterOptions; chosenBy: string };

type Env = Readonly<Record<string, string | undefined>>;
/** A file's text, or undefined when it cannot be read. */
export type ReadText = (path: string) => string | undefined;

/** The rule's steps in order; a string is a usage error. */
export function chooseTarget(flags: TargetFlags, env: Env, read: ReadText = readText): TargetChoice | string {
  const clusterFlags = clusterFlagChoice(flags);
  if (flags.server !== undefined) {
    if (clusterFlags !== undefined)
      return `--server (a node) and ${clusterFlags.chosenBy} (a cluster) contradict each other: pass one`;
    return { kind: 'node', server: flags.server, chosenBy: '--server' };
  }
  if (clusterFlags !== undefined) return clusterFlags;
  const fromServerEnv = env[SERVER_ENV];
  if (fromServerEnv !== undefined && fromServerEnv !== '') {
    const server = parseServer(fromServerEnv);
    if (typeof server === 'string') return `$${SERVER_ENV}=${fromServerEnv}: ${server}`;
    return { kind: 'node', server, chosenBy: `$${SERVER_ENV}` };
  }
  const kubeconfig = kubeconfigChoice(env, read);
  if (kubeconfig !== undefined) return kubeconfig;
  return {
    kind: 'node',
    server: parseServer(DEFAULT_SERVER) as Server,
    chosenBy: `the default (no --server, $${SERVER_ENV}, or kubeconfig with a current context)`,
  };
}

/** The same rule for commands that only work on a cluster: the node's steps are left out. */
export function chooseCluster(
  flags: TargetFlags,
  env: Env,
  read: ReadText = readText,
): Extract<TargetChoice, { kind: 'cluster' }> | string {
  const usage = `pass --kubeconfig FILE or --context NAME, or set $${KUBECONFIG_ENV} or $KUBECONFIG`;
  if (flags.server !== undefined) return `--server names a node; this command works on a cluster: ${usage}`;
  return clusterFlagChoice(flags) ?? kubeconfigChoice(env, read) ?? `no cluster is chosen: ${usage}`;
}

/** How to pick the other kind of target, for messages about one that does not answer. */
export function otherTargetHint(kind: TargetChoice['kind']): string {
  return kind === 'node'
    ? 'for a cluster, pass --context NAME or --kubeconfig FILE'
    : `for a node, pass --server URL or set $${SERVER_ENV}`;
}

function clusterFlagChoice(flags: TargetFlags): ClusterChoice | undefined {
  const { kubeconfig, context } = flags;
  if (kubeconfig === undefined && context === undefined) return undefined;
  const named = [
    ...(kubeconfig === undefined ? [] : [`--kubeconfig ${kubeconfig}`]),
    ...(context === undefined ? [] : [`--context ${context}`]),
  ];
  const options = {
    ...(kubeconfig === undefined ? {} : { kubeconfig }),
    ...(context === undefined ? {} : { context }),
  };
  return { kind: 'cluster', options, chosenBy: named.join(' ') };
}

type ClusterChoice = Extract<TargetChoice, { kind: 'cluster' }>;

/** $STREAMROUTE_KUBECONFIG, else $KUBECONFIG's files, else ~/.kube/config, with a current context. */
function kubeconfigChoice(env: Env, read: ReadText): ClusterChoice | undefined {
  const own = env[KUBECONFIG_ENV];
  if (own !== undefined && own !== '')
    return { kind: 'cluster', options: { kubeconfig: own }, chosenBy: `$${KUBECONFIG_ENV} (${own})` };
  const list = env['KUBECONFIG'];
  // As for kubectl, $KUBECONFIG replaces ~/.kube/config rather than coming before it.
  if (list !== undefined && list !== '') return fromKubeconfigList(list, read);
  const home = env['HOME'];
  if (home === undefined || home === '') return undefined;
  const file = join(home, '.kube', 'config');
  const context = currentContext(read(file));
  if (context === undefined) return undefined;
  return {
    kind: 'cluster',
    options: { kubeconfig: file },
    chosenBy: `the current context "${context}" of ~/.kube/config`,
  };
}

/** kubectl merges the files; the first that sets current-context decides it. */
function fromKubeconfigList(list: string, read: ReadText): ClusterChoice | undefined {
  const files = list.split(delimiter).filter((file) => file !== '');
  for (const file of files) {
    const context = currentContext(read(file));
    if (context === undefined) continue;
    return {
      kind: 'cluster',
      // One file is named exactly; several are merged by the Kubernetes client's default search
      // (every file must exist), with the context found here.
      options: files.length === 1 ? { kubeconfig: file } : { context },
      chosenBy: `the current context "${context}" of $KUBECONFIG (${file})`,
    };
  }
  return undefined;
}

/** The kubeconfig's current-context, or undefined (no file, not YAML, none set). */
export function currentContext(text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  let parsed: unknown;
  try {
    // yaml only when a kubeconfig exists: commands on the embedded node start without it.
    parsed = yamlLib().parse(text, {
      logLevel: 'silent',
    });
  } catch {
    return undefined;
  }
  const context = (parsed as { 'current-context'?: unknown } | null)?.['current-context'];
  return typeof context === 'string' && context !== '' ? context : undefined;
}

function readText(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

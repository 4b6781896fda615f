// What the real-cluster suites share: the cluster and image facts written by up.sh and images.sh, kubectl,
// helm and the streamroute CLI run against the cluster, and waits that say what they waited for.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { helmBinary } from '../support/helm.js';
import { runStreamroute, StreamrouteProcess, type CliResult } from '../support/cluster-processes.js';
import { waitUntil } from './wait.js';

export const ROOT = join(import.meta.dirname, '..', '..');
export const SYSTEM = 'streamroute-system';
export const RELEASE = 'streamroute';
/** Values that point the chart at the locally built images (README "Run on Kubernetes" uses the same file). */
export const LOCAL_VALUES = join(ROOT, 'test', 'cluster', 'local-images.values.yaml');

/** `KEY=VALUE` lines (optionally `export`ed, optionally quoted), as the cluster scripts write them. */
export function readEnvFile(path: string): Record<string, string> {
  const values: Record<string, string> = {};
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    const match = /^\s*(?:export\s+)?([A-Z_][A-Z0-9_]*)=(.*)$/.exec(line);
    if (match === null) continue;
    values[match[1]!] = match[2]!.replace(/^(['"])(.*)\1$/, '$2');
  }
  return values;
}

export interface ClusterFacts {
  kubeconfig: string;
  nodeIp: string;
  nodeName: string;
  netns: string;
  /** The host side of the node's veth: where the test's own peers (rsyslog) listen for the node. */
  hostIp: string;
  stateDir: string;
  operatorImage: string;
  dataplaneImage: string;
  imageTag: string;
  /** The same images under a second tag, for the rolling update. */
  nextTag: string;
}

export function clusterFacts(): ClusterFacts {
  const stateDir = process.env['STREAMROUTE_CLUSTER_DIR'] ?? '/tmp/streamroute-cluster';
  const cluster = readEnvFile(join(stateDir, 'cluster.env'));
  const imagesEnv =
    process.env['STREAMROUTE_IMAGES_ENV'] ??
    join(homedir(), '.cache', 'streamroute', 'images', 'current.env');
  const images = readEnvFile(imagesEnv);
  const need = (source: Record<string, string>, key: string, file: string): string => {
    const value = source[key];
    if (value === undefined || value === '') throw new Error(`${file} has no ${key}`);
    return value;
  };
  return {
    kubeconfig: need(cluster, 'KUBECONFIG', 'cluster.env'),
    nodeIp: need(cluster, 'NODE_IP', 'cluster.env'),
    nodeName: need(cluster, 'NODE_NAME', 'cluster.env'),
    netns: need(cluster, 'NETNS', 'cluster.env'),
    hostIp: need(cluster, 'HOST_IP', 'cluster.env'),
    stateDir,
    operatorImage: need(images, 'OPERATOR_IMAGE', imagesEnv),
    dataplaneImage: need(images, 'DATAPLANE_IMAGE', imagesEnv),
    imageTag: need(images, 'IMAGE_TAG', imagesEnv),
    nextTag: need(images, 'EXTRA_TAG', imagesEnv),
  };
}

interface ContainerState {
  reason?: string;
  message?: string;
}
interface TroublePod {
  metadata: { name: string };
  status: {
    phase?: string;
    conditions?: { type: string; status: string }[];
    containerStatuses?: {
      name: string;
      image: string;
      ready: boolean;
      state?: { waiting?: ContainerState };
      lastState?: { terminated?: ContainerState };
    }[];
  };
}
interface TroubleEvent {
  involvedObject: { name: string };
  reason: string;
  message: string;
  count?: number;
}

/** Runs a command to completion with a deadline; never throws for a non-zero exit. */
export async function runCommand(
  command: string,
  args: readonly string[],
  options: { env?: Record<string, string>; timeoutMs?: number; stdin?: string } = {},
): Promise<CliResult> {
  const child = spawn(command, args, {
    cwd: ROOT,
    env: { ...process.env, ...options.env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  child.stdin.end(options.stdin ?? '');
  const timeoutMs = options.timeoutMs ?? 120_000;
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  const code = await new Promise<number>((resolve) => child.once('exit', (c) => resolve(c ?? -1)));
  clearTimeout(timer);
  if (code === -1) stderr += `\n(${command} killed after ${timeoutMs} ms)`;
  return { code, stdout, stderr };
}

/** The cluster's tools, bound to its admin kubeconfig. */
export class Cluster {
  constructor(readonly facts: ClusterFacts) {}

  async kubectl(args: readonly string[], stdin?: string): Promise<CliResult> {
    return runCommand('kubectl', ['--kubeconfig', this.facts.kubeconfig, ...args], {
      ...(stdin === undefined ? {} : { stdin }),
    });
  }

  /** kubectl that must succeed; its stdout. */
  async must(args: readonly string[], stdin?: string): Promise<string> {
    const result = await this.kubectl(args, stdin);
    if (result.code !== 0) throw new Error(`kubectl ${args.join(' ')} failed: ${result.stderr.trim()}`);
    return result.stdout;
  }

  async json<T>(args: readonly string[]): Promise<T> {
    return JSON.parse(await this.must([...args, '-o', 'json'])) as T;
  }

  /** `helm install` of the chart with the locally built images, as README "Run on Kubernetes" does it. */
  installArgs(): string[] {
    const tag = this.facts.imageTag;
    return [
      'install',
      RELEASE,
      join(ROOT, 'charts', 'streamroute'),
      '-n',
      SYSTEM,
      '--create-namespace',
    ].concat([
      '-f',
      LOCAL_VALUES,
      '--set',
      `operator.image.tag=${tag}`,
      '--set',
      `dataplane.image.tag=${tag}`,
    ]);
  }

  /** `helm upgrade` of the release to another data-plane image tag, every other value kept. */
  upgradeDataplaneArgs(tag: string): string[] {
    const chart = join(ROOT, 'charts', 'streamroute');
    return ['upgrade', RELEASE, chart, '-n', SYSTEM, '--reuse-values', '--set', `dataplane.image.tag=${tag}`];
  }

  async helm(args: readonly string[], timeoutMs = 300_000): Promise<CliResult> {
    const helm = await helmBinary();
    if (helm === undefined) throw new Error('helm is not built: bash test/helm/build.sh');
    return runCommand(helm, ['--kubeconfig', this.facts.kubeconfig, ...args], { timeoutMs });
  }

  /** The streamroute CLI against the cluster (the compiled one is what the images run; this is the source). */
  streamroute(args: readonly string[], stdin?: string): Promise<CliResult> {
    return runStreamroute(['--kubeconfig', this.facts.kubeconfig, ...args], stdin);
  }

  /** A long-running CLI command (subscribe) against the cluster. */
  streamrouteProcess(name: string, args: readonly string[]): StreamrouteProcess {
    return new StreamrouteProcess(name, ['--kubeconfig', this.facts.kubeconfig, ...args]);
  }

  /** Runs a command inside the node's network namespace (the node's loopback, its host ports). */
  inNode(command: string, args: readonly string[], timeoutMs = 30_000): Promise<CliResult> {
    return runCommand('ip', ['netns', 'exec', this.facts.netns, command, ...args], { timeoutMs });
  }

  /**
   * Why the pods of a component (`app.kubernetes.io/component`) are not Ready, one line each: phase,
   * each container's waiting or last-terminated reason and message, and the Warning events about the
   * pod. What a reader of a failed wait needs, without a second kubectl session.
   */
  async podTrouble(component: string): Promise<string> {
    const selector = `app.kubernetes.io/component=${component}`;
    const { items } = await this.json<{ items: TroublePod[] }>(['get', 'pods', '-n', SYSTEM, '-l', selector]);
    const { items: events } = await this.json<{ items: TroubleEvent[] }>([
      'get',
      'events',
      '-n',
      SYSTEM,
      '--field-selector',
      'type=Warning',
    ]);
    if (items.length === 0) return `no ${component} pod exists`;
    return items
      .map((pod) => {
        const states = (pod.status.containerStatuses ?? []).map((container) => {
          const state = container.state?.waiting ?? container.lastState?.terminated;
          const why = state === undefined ? '' : ` ${state.reason ?? ''}: ${state.message ?? ''}`;
          return `${container.name} (${container.image}) ready=${container.ready}${why}`;
        });
        const warnings = events
          .filter((event) => event.involvedObject.name === pod.metadata.name)
          .map((event) => `${event.reason}: ${event.message} (x${event.count ?? 1})`);
        return [`${pod.metadata.name} ${pod.status.phase ?? ''}`, ...states, ...warnings].join('; ');
      })
      .join('\n');
  }

  /** Waits until every pod of the component is Ready; at the deadline the error says why they are not. */
  async waitForPodsReady(component: string, timeoutMs: number): Promise<void> {
    const selector = `app.kubernetes.io/component=${component}`;
    const ready = async (): Promise<boolean> => {
      const { items } = await this.json<{ items: TroublePod[] }>([
        'get',
        'pods',
        '-n',
        SYSTEM,
        '-l',
        selector,
      ]);
      return (
        items.length > 0 &&
        items.every((pod) => pod.status.conditions?.some((c) => c.type === 'Ready' && c.status === 'True'))
      );
    };
    try {
      await waitUntil(`the ${component} pods to be Ready`, ready, timeoutMs, 500);
    } catch (error: unknown) {
      const message = error instanceof Error ? error.message : String(error);
      throw new Error(`${message}\n${await this.podTrouble(component)}`);
    }
  }

  /** A cluster script (restart.sh, load-image.sh). */
  async script(name: string, args: readonly string[], timeoutMs = 180_000): Promise<void> {
    const result = await runCommand('bash', [join(ROOT, 'test', 'cluster', name), ...args], { timeoutMs });
    if (result.code !== 0) throw new Error(`${name} ${args.join(' ')} failed:\n${result.stderr}`);
  }
}

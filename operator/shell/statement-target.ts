// Where the shell and `top` run statements: a node's admin API (POST …/statements, as `streamroute -c`)
// or a cluster namespace (planned and applied through the API server, as `streamroute --kubeconfig … -c`).
// Both print exactly what `-c` prints, so the shell shows the same tags, tables and diagnostics.
import type { NodeTarget } from '../client/endpoint.js';
import { callNode } from '../client/node-call.js';
import { EXIT, type Output } from '../client/report.js';
import { runStatements } from '../client/run-statements.js';
import type { Stdin } from '../client/scripts.js';
import { runClusterStatements, type Cluster } from '../cluster/index.js';

export interface StatementTarget {
  readonly kind: 'node' | 'cluster';
  /** How the banner and `\conninfo` name it: `node http://127.0.0.1:8081`. */
  readonly where: string;
  readonly domain: string;
  /** Runs a script and prints it as `-c` does; false when it failed. Throws when the target cannot be reached. */
  run(script: string, source: string, output: Output): Promise<boolean>;
  /** The same target, working in another domain. */
  inDomain(domain: string): StatementTarget;
  /** The domains the target runs graphs of, by name (a node knows them; a cluster's are not listed). */
  domains(): Promise<string[]>;
}

/**
 * The node or cluster a command works on, as the command line chose it (the shape of the command line's
 * own target: a node's address and domain, or a cluster to connect to).
 */
export type ChosenTarget =
  | { kind: 'node'; node: NodeTarget }
  | { kind: 'cluster'; connect(): Cluster | Promise<Cluster>; operatorNamespace: string };

/** Where statements run for the chosen target. */
export async function statementTargetOf(chosen: ChosenTarget, cwd: string): Promise<StatementTarget> {
  return chosen.kind === 'node'
    ? nodeStatementTarget(chosen.node, cwd)
    : clusterStatementTarget(await chosen.connect(), cwd);
}

/** The shell never reads stdin as a script: every script it runs is text it holds. */
const NO_STDIN: Stdin = { isTTY: true, read: () => Promise.resolve('') };

export function nodeStatementTarget(target: NodeTarget, cwd: string): StatementTarget {
  return {
    kind: 'node',
    where: `node ${target.server.shown}`,
    domain: target.domain,
    async run(script, source, output) {
      const inputs = [{ kind: 'text' as const, source, text: script }];
      return (await runStatements({ target, inputs, stdin: NO_STDIN, cwd }, output)) === EXIT.ok;
    },
    inDomain: (domain) => nodeStatementTarget({ ...target, domain }, cwd),
    async domains() {
      const url = new URL('v1/domains', target.server.url);
      const answer = await callNode({ server: target.server, method: 'GET', url }, decodeDomains);
      return answer.ok ? answer.value : [];
    },
  };
}

export function clusterStatementTarget(cluster: Cluster, cwd: string): StatementTarget {
  const { context, kubeconfig } = cluster.options;
  return {
    kind: 'cluster',
    where: `cluster ${context === undefined ? (kubeconfig ?? 'of the kubeconfig') : `context ${context}`}`,
    domain: cluster.namespace,
    async run(script, source, output) {
      const inputs = [{ kind: 'text' as const, source, text: script }];
      return (await runClusterStatements({ cluster, inputs, stdin: NO_STDIN, cwd }, output)) === EXIT.ok;
    },
    inDomain: (domain) => clusterStatementTarget({ ...cluster, namespace: domain }, cwd),
    domains: () => Promise.resolve([]),
  };
}

/** `GET /v1/domains`: `{"domains": [{"name": …}, …]}`. */
function decodeDomains(value: unknown): { ok: true; value: string[] } | { ok: false; problem: string } {
  const list = (value as { domains?: unknown } | null)?.domains;
  if (!Array.isArray(list)) return { ok: false, problem: 'domains: expected a list' };
  const names = list.map((entry) => (entry as { name?: unknown } | null)?.name);
  if (!names.every((name): name is string => typeof name === 'string'))
    return { ok: false, problem: 'domains[].name: expected a string' };
  return { ok: true, value: names };
}

/** Collects what a script prints, for the shell's own use (object names, `\d`). */
export class CapturedOutput implements Output {
  stdout = '';
  stderr = '';
  out(text: string): void {
    this.stdout += text.endsWith('\n') ? text : `${text}\n`;
  }
  err(text: string): void {
    this.stderr += text.endsWith('\n') ? text : `${text}\n`;
  }
}

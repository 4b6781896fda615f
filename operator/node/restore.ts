// A restarted node runs what it ran before: every stored domain's last activated graph is handed to the
// data plane with its version, before any listener opens and before the manifests are read again (a
// manifest change made while the node was down then activates as the next version). It goes through the
// committer, which so knows what the data plane runs: a domain whose stored graph is refused runs
// nothing, and its next change is compared with nothing and activates as the next version.
//
// The stored objects are then compiled again. What they compile to is what the node runs from then on:
// when state.json was edited by hand (objects removed, changed) or this node's compiler is newer, the
// graph compiled from the objects is activated as the next version and the log says so; objects that no
// longer compile leave the stored graph running, with an error line naming the problems.
import type { Logger } from 'pino';
import type { Activate, CommitOutcome } from './domain-commit.js';
import { messageOf } from '../../dataplane/core/error-text.js';
import type { ObjectStore } from './object-store.js';

export interface RestoredDomain {
  domain: string;
  graphVersion: number;
  ok: boolean;
  errors: string[];
}

export interface Restorer {
  restore: Activate;
  recompileStored: (domain: string) => Promise<CommitOutcome>;
}

/** Activates every stored graph and compiles its objects again; a refused one is logged and reported. */
export async function restoreGraphs(
  store: ObjectStore,
  committer: Restorer,
  logger: Logger,
): Promise<RestoredDomain[]> {
  const restored: RestoredDomain[] = [];
  for (const domain of store.domains()) {
    const { graph, graphVersion } = store.state(domain);
    if (graph === null) continue;
    let errors: string[] = [];
    try {
      const result = await committer.restore(domain, graph, graphVersion);
      if (!result.ok) errors = result.errors;
    } catch (error: unknown) {
      errors = [messageOf(error)];
    }
    if (errors.length > 0) {
      logger.error({ domain, graphVersion, errors }, 'the data plane refused the stored graph');
      restored.push({ domain, graphVersion, ok: false, errors });
      continue;
    }
    logger.info({ domain, graphVersion }, 'restored the graph of the last run');
    const running = await recompile(domain, committer, logger);
    restored.push({ domain, graphVersion: running ?? graphVersion, ok: true, errors });
  }
  return restored;
}

/** The new version the domain runs when its stored objects compiled to another graph. */
async function recompile(domain: string, committer: Restorer, logger: Logger): Promise<number | undefined> {
  const stored = await committer.recompileStored(domain);
  if (!stored.ok) {
    logger.error(
      { domain, diagnostics: stored.diagnostics },
      'the stored objects do not compile: the stored graph runs until the next change',
    );
  } else if (stored.graphVersion !== undefined) {
    logger.warn(
      { domain, graphVersion: stored.graphVersion },
      'the stored graph is not what the stored objects compile to (state.json edited, or a newer compiler): activated the graph compiled from them',
    );
    return stored.graphVersion;
  }
  return undefined;
}

// A restarted node runs what it ran before: every stored domain's last activated graph is handed to the
// data plane with its version, before any listener opens and before the manifests are read again (a
// manifest change made while the node was down then activates as the next version). It goes through the
// committer, which so knows what the data plane runs: a domain whose stored graph is refused runs
// nothing, and its next change is compared with nothing and activates as the next version.
import type { Logger } from 'pino';
import type { Activate } from './domain-commit.js';
import { messageOf } from '../../dataplane/core/error-text.js';
import type { ObjectStore } from './object-store.js';

export interface RestoredDomain {
  domain: string;
  graphVersion: number;
  ok: boolean;
  errors: string[];
}

/** Activates every stored graph; a refused one is logged and reported, and the others still run. */
export async function restoreGraphs(
  store: ObjectStore,
  committer: { restore: Activate },
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
    if (errors.length === 0) logger.info({ domain, graphVersion }, 'restored the graph of the last run');
    else logger.error({ domain, graphVersion, errors }, 'the data plane refused the stored graph');
    restored.push({ domain, graphVersion, ok: errors.length === 0, errors });
  }
  return restored;
}

// `streamroute uninstall-cleanup`: the chart's post-delete hook. Waits for the release's pods to be gone,
// then deletes the objects the operator and the data plane wrote at run time (operator/controller/
// uninstall-cleanup.ts says which, and what is kept). Exit 0 when done, 3 when the API cannot be reached.
import type { Command } from 'commander';
import { EXIT, type Output } from '../../client/report.js';

interface UninstallCleanupOptions {
  kubeconfig?: string;
  namespace: string;
  podSelector: string;
}

export function addUninstallCleanupCommand(
  program: Command,
  output: Output,
  exit: (code: number) => void,
): void {
  program
    .command('uninstall-cleanup')
    .description("the chart's post-delete hook: remove the index, the Lease and the DataplaneNodes")
    .option('--kubeconfig <path>', 'kubeconfig file (default: the in-cluster service account)')
    .requiredOption('--namespace <namespace>', "the operator's namespace")
    .requiredOption('--pod-selector <selector>', "label selector of the release's pods")
    .action(async (options: UninstallCleanupOptions) => exit(await runUninstallCleanup(options, output)));
}

async function runUninstallCleanup(options: UninstallCleanupOptions, output: Output): Promise<number> {
  // Loaded here, not at the top: the rest of the command line starts without them.
  const [{ pino }, { KubeApi, errorText }, { systemClock }, { cleanUpAfterUninstall }] = await Promise.all([
    import('pino'),
    import('../../../dataplane/kube-client/kube-api.js'),
    import('../../../dataplane/core/clock.js'),
    import('../../controller/uninstall-cleanup.js'),
  ]);
  const api = new KubeApi({
    ...(options.kubeconfig === undefined ? {} : { kubeconfig: options.kubeconfig }),
    rateLimit: { qps: 5, burst: 10 },
    userAgent: 'streamroute-uninstall-cleanup/0.1.0',
  });
  try {
    const result = await cleanUpAfterUninstall({
      api,
      namespace: options.namespace,
      podSelector: options.podSelector,
      logger: pino({ level: 'info' }, pino.destination(2)),
      clock: systemClock,
    });
    output.out(`deleted: ${result.deleted.length === 0 ? 'nothing' : result.deleted.join(', ')}`);
    return EXIT.ok;
  } catch (error: unknown) {
    output.err(`streamroute uninstall-cleanup: ${errorText(error)}`);
    return EXIT.io;
  }
}
